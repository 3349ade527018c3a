/**
 * devgate's one RLP reader: items located in their bytes (views, no copies), for the trie walker (state/trieRead.ts),
 * the trie writer's node decoder (state/trieWriter.ts), restored blocks (chain/rawBlock.ts, image/chainImage.ts) and
 * chain files (build/rlp.ts). Malformed input (a truncated item, a length with a leading zero byte) throws RlpError,
 * and only that. Encoding stays with @ethereumjs/rlp and the trie writer.
 */

/** Malformed RLP: names what was being read and where it broke. */
export class RlpError extends RangeError {
  override name = 'RlpError';
}

/**
 * Where one RLP item's payload starts and ends (`end` is where the next item begins) and whether it is a list,
 * reused across parses: the trie walk reads millions of items and allocates nothing per item.
 */
export class RlpCursor {
  start = 0;
  end = 0;
  isList = false;

  /** Reads the item at `b[at]` into this cursor; throws RlpError when it runs past `b`. */
  parse(b: Uint8Array, at: number, what = 'an RLP item'): this {
    const prefix = b[at];
    if (prefix === undefined) throw new RlpError(`${what} is truncated (byte ${at} of ${b.length})`);
    if (prefix < 0x80) {
      this.start = at;
      this.end = at + 1;
      this.isList = false;
      return this;
    }
    if (prefix < 0xb8) {
      this.start = at + 1;
      this.end = this.start + prefix - 0x80;
      this.isList = false;
    } else if (prefix < 0xc0) {
      this.start = at + 1 + (prefix - 0xb7);
      this.end = this.start + readLength(b, at + 1, prefix - 0xb7, what);
      this.isList = false;
    } else if (prefix < 0xf8) {
      this.start = at + 1;
      this.end = this.start + prefix - 0xc0;
      this.isList = true;
    } else {
      this.start = at + 1 + (prefix - 0xf7);
      this.end = this.start + readLength(b, at + 1, prefix - 0xf7, what);
      this.isList = true;
    }
    if (this.end > b.length) throw new RlpError(`${what} is truncated (needs ${this.end - at} bytes at byte ${at}, ${b.length - at} left)`);
    return this;
  }
}

/** A big-endian length of `n` bytes at `at` (canonical: no leading zero byte). */
function readLength(b: Uint8Array, at: number, n: number, what: string): number {
  if (at + n > b.length) throw new RlpError(`${what} is truncated (its length at byte ${at})`);
  if (b[at] === 0) throw new RlpError(`${what} has a length with a leading zero byte (byte ${at})`);
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + b[at + i]!;
  return length;
}

/** A decoded item: byte strings are views of the input, lists arrays of items. */
export type Nested = Uint8Array | Nested[];

/** The RLP item at `at` of `b`: where its payload starts, how long it is, where the next item starts. */
export function rlpItem(b: Uint8Array, at: number, what = 'an RLP item'): { start: number; length: number; end: number; isList: boolean } {
  const c = new RlpCursor().parse(b, at, what);
  return { start: c.start, length: c.end - c.start, end: c.end, isList: c.isList };
}

/** The RLP item at `at` of `b` decoded into views of `b` (no copies, unlike RLP.decode), and where the next item starts. */
export function rlpViews(b: Uint8Array, at: number, what = 'an RLP item'): { value: Nested; end: number } {
  const c = new RlpCursor().parse(b, at, what);
  if (!c.isList) return { value: b.subarray(c.start, c.end), end: c.end };
  const end = c.end;
  const list: Nested[] = [];
  for (let p = c.start; p < end; ) {
    const child = rlpViews(b, p, what);
    if (child.end > end) throw new RlpError(`${what}: an item runs past the end of its list (byte ${p})`);
    list.push(child.value);
    p = child.end;
  }
  return { value: list, end };
}

/** The items of the RLP list at `at` of `b`, each as [start, end] of its whole encoding. */
export function listSpans(b: Uint8Array, at: number, what = 'an RLP list'): [number, number][] {
  const c = new RlpCursor().parse(b, at, what);
  if (!c.isList) throw new RlpError(`${what} was expected at byte ${at}`);
  const end = c.end;
  const spans: [number, number][] = [];
  for (let p = c.start; p < end; ) {
    const next = c.parse(b, p, what).end;
    if (next > end) throw new RlpError(`${what}: an item runs past the end of its list (byte ${p})`);
    spans.push([p, next]);
    p = next;
  }
  return spans;
}
