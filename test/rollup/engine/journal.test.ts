/** The journaled map under the rollup's indexes: undo back to a mark, nested marks, clear, replace, stop. */
import { describe, expect, it } from 'vitest';
import { JournaledMap } from '../../../src/rollup/engine/journal.js';

const entries = (m: Map<unknown, unknown>) => [...m];

describe('JournaledMap', () => {
  it('undoes sets, overwrites and deletes made after a mark, in order, and answers the removed values', () => {
    const m = new JournaledMap<string, number>([['a', 1]]);
    m.set('b', 2);
    const p = m.mark();
    m.set('c', 3);
    m.set('a', 10);
    m.delete('b');
    m.set('c', 30);
    m.set('d', 4);
    expect(m.undo(p)).toEqual([3, 4]); // a key's value when it goes is the one it was first set to
    expect(entries(m)).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('keeps nested marks: undo to the later one, then to the earlier one', () => {
    const m = new JournaledMap<string, number>();
    const p1 = m.mark();
    m.set('x', 1);
    const p2 = m.mark();
    m.set('y', 2);
    m.set('x', 5);
    expect(m.undo(p2)).toEqual([2]);
    expect(entries(m)).toEqual([['x', 1]]);
    m.set('z', 3);
    expect(m.undo(p1)).toEqual([1, 3]);
    expect(m.size).toBe(0);
  });

  it('undoes a clear; records nothing before the first mark or after stop', () => {
    const m = new JournaledMap<string, number>();
    m.set('a', 1);
    m.set('b', 2);
    const p = m.mark();
    m.clear();
    m.set('c', 3);
    expect(m.undo(p)).toEqual([3]);
    expect(entries(m)).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    m.stop();
    m.set('d', 4);
    expect(() => m.undo(0)).toThrow(/no journal position/);
    expect(m.mark()).toBe(0);
  });

  it('replaceWith becomes a copy, answers the values the copy lacks and stops recording', () => {
    const m = new JournaledMap<string, number>([
      ['a', 1],
      ['b', 2],
    ]);
    m.mark();
    expect(
      m.replaceWith(
        new Map([
          ['a', 1],
          ['c', 3],
        ]),
      ),
    ).toEqual([2]);
    expect(entries(m)).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
    expect(() => m.undo(0)).toThrow();
  });
});
