/** parseSeed's fast path for `{ raw }` transactions: the same seed, and the same errors, as zod alone. */
import { describe, expect, it } from 'vitest';
import { formatIssues, parseSeed, Seed, SeedError } from '../../src/seed/load.js';

const RAW = '0x02f86b827a69808405f5e100843b9aca0082520894000000000000000000000000000000000000b10180c0';
const base = { name: 'v', kind: 'eth', chainId: 9 };

/** What parseSeed gave before the fast path: zod on the whole seed. */
function zodOnly(value: unknown): { ok: true; seed: unknown } | { ok: false; message: string } {
  const result = Seed.safeParse(value);
  return result.success ? { ok: true, seed: result.data } : { ok: false, message: `invalid seed t:\n${formatIssues(result.error)}` };
}

function viaParseSeed(value: unknown): { ok: true; seed: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, seed: parseSeed(value, 't').seed };
  } catch (err) {
    expect(err).toBeInstanceOf(SeedError);
    return { ok: false, message: (err as Error).message };
  }
}

const cases: Record<string, unknown> = {
  'all raw': {
    ...base,
    blocks: [{ transactions: [{ raw: RAW }, { raw: '0x' }] }, {}, { timestamp: 5, transactions: [{ raw: RAW }] }],
    pending: [{ raw: RAW }],
  },
  'raw and signed mixed': { ...base, blocks: [{ transactions: [{ raw: RAW }, { to: `0x${'b1'.repeat(20)}`, value: '1' }] }] },
  'odd-length raw': { ...base, blocks: [{ transactions: [{ raw: RAW }, { raw: '0x123' }] }] },
  'non-hex raw': { ...base, blocks: [{ transactions: [{ raw: '0xzz' }] }] },
  'raw without 0x': { ...base, blocks: [{ transactions: [{ raw: 'ab' }] }] },
  'raw with another field': { ...base, blocks: [{ transactions: [{ raw: RAW, nonce: 1 }] }] },
  'raw not a string': { ...base, blocks: [{ transactions: [{ raw: 12 }] }] },
  'tx not an object': { ...base, blocks: [{ transactions: [{ raw: RAW }, 'x', null, [RAW]] }] },
  'raw txs and a bad block field': { ...base, blocks: [{ transactions: [{ raw: RAW }], coinbase: '0x1', extra: 1 }] },
  'raw txs and a bad top-level field': { ...base, chainId: -1, blocks: [{ transactions: [{ raw: RAW }] }], pending: [{ raw: RAW }] },
  'raw txs with gethGenesis': { ...base, gethGenesis: 'g.json', blocks: [{ transactions: [{ raw: RAW }] }], pending: [{ raw: RAW }] },
  'bad pending after raw': { ...base, pending: [{ raw: RAW }, { raw: '0x1' }] },
  'blocks not a list': { ...base, blocks: { transactions: [{ raw: RAW }] } },
  'transactions not a list': { ...base, blocks: [{ transactions: { raw: RAW } }] },
  'a rollup seed': { name: 'r', kind: 'rollup', blocks: [{ transactions: [{ raw: RAW }] }] },
};

describe('parseSeed with { raw } transactions set aside', () => {
  for (const [name, value] of Object.entries(cases)) {
    it(name, () => {
      const fast = viaParseSeed(value);
      expect(fast).toEqual(zodOnly(value));
      if (fast.ok) expect(JSON.stringify(fast.seed)).toBe(JSON.stringify((zodOnly(value) as { seed: unknown }).seed));
    });
  }

  it('does not change the value it is given', () => {
    const value = cases['all raw'] as { blocks: { transactions: unknown[] }[] };
    const before = JSON.stringify(value);
    const seed = parseSeed(value, 't').seed as { blocks: { transactions: unknown[] }[] };
    expect(JSON.stringify(value)).toBe(before);
    expect(seed.blocks[0]!.transactions[0]).not.toBe(value.blocks[0]!.transactions[0]);
  });
});
