/** OverlayNodes: a copy's trie-node store reads its parent's nodes, keeps its own writes, and never changes the parent. */
import { describe, expect, it } from 'vitest';
import { OverlayNodes } from '../../../src/eth/isolate/overlayNodes.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('OverlayNodes', () => {
  it('reads through to the parent, writes its own, and counts only what it wrote', () => {
    const parent = new Map<string, Uint8Array | string>([
      ['aa', bytes(1)],
      ['bb', bytes(2, 2)],
    ]);
    const copy = new OverlayNodes(parent);
    expect(copy.get('aa')).toEqual(bytes(1));
    expect(copy.has('bb')).toBe(true);
    expect(copy.ownNodes).toBe(0);
    copy.set('cc', bytes(3, 3, 3));
    expect(parent.has('cc')).toBe(false);
    expect(copy.ownNodes).toBe(1);
    expect(copy.ownBytes).toBe(1 + 3);
    // The parent's later nodes are visible too (content-addressed: harmless).
    parent.set('dd', bytes(4));
    expect(copy.get('dd')).toEqual(bytes(4));
    expect(copy.size).toBe(4);
    expect(new Map(copy)).toEqual(
      new Map([
        ['cc', bytes(3, 3, 3)],
        ['aa', bytes(1)],
        ['bb', bytes(2, 2)],
        ['dd', bytes(4)],
      ]),
    );
  });

  it('hides a deleted parent node from the copy only', () => {
    const parent = new Map<string, Uint8Array | string>([['aa', bytes(1)]]);
    const copy = new OverlayNodes(parent);
    expect(copy.delete('aa')).toBe(true);
    expect(copy.get('aa')).toBeUndefined();
    expect(parent.get('aa')).toEqual(bytes(1));
    expect([...copy.keys()]).toEqual([]);
    copy.set('aa', bytes(9));
    expect(copy.get('aa')).toEqual(bytes(9));
    expect(copy.size).toBe(1);
  });
});
