/**
 * The trie node store of a restored chain image: a Map (what MapDB and the head state expect) whose
 * entries stay in the chain image's bytes until read. A start builds only a hash index over the node
 * section (typed arrays, no string or view per node: a 1,000 x 10 chain has ~125,000 nodes); a read
 * keeps the node (a view of the bytes) in the Map; writes go to the Map, deletes are remembered. Sizing or iterating
 * (encoding a chain image) first moves every remaining node into the Map.
 */
import { LazyNodeMap } from './lazyNodeMap.js';
import { plainHex } from '../../../hex.js';

/** A 32-bit hash of a key from its first 4 bytes (node keys are hashes, or start with one) and its length. */
function hashBytes(buf: Uint8Array, at: number, length: number): number {
  let h = 0;
  for (let i = 0; i < Math.min(4, length); i++) h = (h << 8) | buf[at + i]!;
  return Math.imul((h ^ length) >>> 0, 0x9e3779b1) >>> 0;
}

function hashHex(hex: string): number {
  const length = hex.length >> 1;
  const h = length === 0 ? 0 : parseInt(hex.slice(0, Math.min(8, length * 2)), 16);
  return Math.imul((h ^ length) >>> 0, 0x9e3779b1) >>> 0;
}

export class ImageNodes extends LazyNodeMap {
  private readonly keyAt: Uint32Array;
  private readonly keyLength: Uint8Array;
  private readonly valueAt: Uint32Array;
  private readonly valueLength: Uint32Array;
  /** Open addressing: node index + 1 per slot, 0 for an empty slot. */
  private readonly slots: Uint32Array;
  private readonly mask: number;
  /** Nodes of the file that were deleted (a later read must not find the file's value). */
  private readonly deleted = new Set<string>();
  /** True once every node of the file is in the Map (then it is a plain Map). */
  private complete = false;
  /** True once a write gave a node of the file other bytes (then byBytes stands aside). */
  private shadowed = false;

  /** Where the node section ends in `buf`. */
  readonly end: number;

  /**
   * Indexes `count` nodes of `buf` from `start`, each: u8 key length, key (the bytes of its unprefixed
   * hex key), u32 little-endian value length, value. Throws if they run past the end of `buf`.
   */
  constructor(
    private readonly buf: Uint8Array,
    start: number,
    count: number,
  ) {
    super();
    this.keyAt = new Uint32Array(count);
    this.keyLength = new Uint8Array(count);
    this.valueAt = new Uint32Array(count);
    this.valueLength = new Uint32Array(count);
    let size = 16;
    while (size < count * 2) size *= 2;
    this.slots = new Uint32Array(size);
    this.mask = size - 1;
    let at = start;
    for (let i = 0; i < count; i++) {
      if (at + 1 > buf.length) throw new RangeError('node store truncated');
      const keyLength = buf[at]!;
      const keyAt = at + 1;
      at = keyAt + keyLength;
      if (at + 4 > buf.length) throw new RangeError('node store truncated');
      const valueLength = (buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16) | (buf[at + 3]! << 24)) >>> 0;
      this.keyAt[i] = keyAt;
      this.keyLength[i] = keyLength;
      this.valueAt[i] = at + 4;
      this.valueLength[i] = valueLength;
      at += 4 + valueLength;
      if (at > buf.length) throw new RangeError('node store truncated');
      let s = hashBytes(buf, keyAt, keyLength) & this.mask;
      while (this.slots[s] !== 0) s = (s + 1) & this.mask;
      this.slots[s] = i + 1;
    }
    this.end = at;
  }

  /** The file's value of a node (a view of the chain image's bytes), or undefined. */
  private fromFile(hex: string): Uint8Array | undefined {
    if (this.complete || this.deleted.has(hex)) return undefined;
    const length = hex.length >> 1;
    let s = hashHex(hex) & this.mask;
    for (let slot = this.slots[s]!; slot !== 0; s = (s + 1) & this.mask, slot = this.slots[s]!) {
      const i = slot - 1;
      if (this.keyLength[i] === length && this.keyIs(this.keyAt[i]!, hex)) {
        return new Uint8Array(this.buf.buffer, this.buf.byteOffset + this.valueAt[i]!, this.valueLength[i]!);
      }
    }
    return undefined;
  }

  /**
   * What `get(hex(key))` answers, found by the key's bytes (no hex key, no Map entry), or undefined
   * when only `get` can tell: a node not in the file, or once a node of the file was deleted or
   * written with other bytes, or the file was moved into the Map.
   */
  byBytes(key: Uint8Array): Uint8Array | undefined {
    if (this.complete || this.shadowed || this.deleted.size !== 0) return undefined;
    const buf = this.buf;
    const length = key.length;
    let s = hashBytes(key, 0, length) & this.mask;
    for (let slot = this.slots[s]!; slot !== 0; s = (s + 1) & this.mask, slot = this.slots[s]!) {
      const i = slot - 1;
      if (this.keyLength[i] !== length) continue;
      const at = this.keyAt[i]!;
      let j = 0;
      while (j < length && buf[at + j] === key[j]) j++;
      if (j === length) return new Uint8Array(buf.buffer, buf.byteOffset + this.valueAt[i]!, this.valueLength[i]!);
    }
    return undefined;
  }

  override set(hex: string, value: Uint8Array): this {
    if (!this.complete && !this.shadowed) {
      const stored = this.fromFile(hex);
      if (stored !== undefined && Buffer.compare(stored, value) !== 0) this.shadowed = true;
    }
    return super.set(hex, value);
  }

  /** Whether the key bytes at `at` spell `hex` (lowercase, as node keys are). */
  private keyIs(at: number, hex: string): boolean {
    const digit = (c: number) => (c <= 57 ? c - 48 : c - 87);
    for (let j = 0; j < hex.length; j += 2) {
      if (((digit(hex.charCodeAt(j)) << 4) | digit(hex.charCodeAt(j + 1))) !== this.buf[at + (j >> 1)]) return false;
    }
    return true;
  }

  /**
   * A node from the Map, else from the file, then kept in the Map: a Map hit is cheaper than a probe
   * (eth_getProof ~1.5 -> ~0.9 ms CPU), and the Map never holds more than the file's nodes and the writes.
   */
  override get(hex: string): Uint8Array | undefined {
    const v = super.get(hex);
    if (v !== undefined || this.complete) return v;
    const stored = this.fromFile(hex);
    if (stored !== undefined) super.set(hex, stored);
    return stored;
  }

  override has(hex: string): boolean {
    return this.get(hex) !== undefined;
  }

  override delete(hex: string): boolean {
    const had = this.has(hex);
    if (!this.complete) this.deleted.add(hex);
    return super.delete(hex) || had;
  }

  override clear(): void {
    this.complete = true;
    super.clear();
  }

  /** Moves every node of the file not read yet into the Map. */
  protected override materialize(): void {
    if (this.complete) return;
    for (let i = 0; i < this.keyAt.length; i++) {
      const hex = plainHex(new Uint8Array(this.buf.buffer, this.buf.byteOffset + this.keyAt[i]!, this.keyLength[i]!));
      if (!this.deleted.has(hex) && !super.has(hex))
        super.set(hex, new Uint8Array(this.buf.buffer, this.buf.byteOffset + this.valueAt[i]!, this.valueLength[i]!));
    }
    this.complete = true;
    this.deleted.clear();
  }
}
