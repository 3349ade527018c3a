/** The simulated chain's numbers and times (geth's sanitizeChain): defaults, gap filling, order errors, limit. */
import { describe, expect, it } from 'vitest';
import { SimulationError } from '../../../../src/errors.js';
import { sanitizeChain } from '../../../../src/eth/engine/simulate/sanitize.js';

const base = { number: 100n, timestamp: 1000n };
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(SimulationError);
    return [(err as SimulationError).code, (err as Error).message];
  }
  throw new Error('no error');
};

describe('sanitizeChain', () => {
  it('numbers and times default to +1 and +12 after the base', () => {
    expect(sanitizeChain(base, [{ calls: [] }, { calls: [] }]).map((b) => [b.number, b.time])).toEqual([
      [101n, 1012n],
      [102n, 1024n],
    ]);
  });

  it('fills a gap of numbers with empty blocks 12 s apart, then the block at its own time', () => {
    const out = sanitizeChain(base, [{ blockOverrides: { number: 104n, time: 2000n }, calls: [{}] }]);
    expect(out.map((b) => [b.number, b.time, b.calls.length])).toEqual([
      [101n, 1012n, 0],
      [102n, 1024n, 0],
      [103n, 1036n, 0],
      [104n, 2000n, 1],
    ]);
  });

  it('refuses numbers and times out of order, and more than 256 blocks past the base', () => {
    expect(codeOf(() => sanitizeChain(base, [{ blockOverrides: { number: 100n }, calls: [] }]))).toEqual([
      -38020,
      'block numbers must be in order: 100 <= 100',
    ]);
    expect(codeOf(() => sanitizeChain(base, [{ calls: [] }, { blockOverrides: { time: 1012n }, calls: [] }]))).toEqual([
      -38021,
      'block timestamps must be in order: 1012 <= 1012',
    ]);
    expect(codeOf(() => sanitizeChain(base, [{ blockOverrides: { number: 357n }, calls: [] }]))).toEqual([-38026, 'too many blocks']);
    expect(sanitizeChain(base, [{ blockOverrides: { number: 356n }, calls: [] }])).toHaveLength(256);
  });
});
