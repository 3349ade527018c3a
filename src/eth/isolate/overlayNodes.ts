/**
 * The trie-node store of an isolated copy: its own writes over its parent's nodes, read through. Trie nodes are
 * content-addressed (a node's key is the hash of its bytes), so a copy may read any node its parent holds, now or
 * later, and write its own without the parent seeing them. A copy costs what it writes, not what it shares.
 */

/** A Map of trie nodes (unprefixed hex keys) whose misses are answered from `parent`. */
export class OverlayNodes extends Map<string, Uint8Array | string> {
  /** Keys deleted here that the parent may still hold (@ethereumjs deletes only with node pruning, off here). */
  private readonly hidden = new Set<string>();
  /** Bytes of the nodes written here (keys as bytes, values), for the copy's memory figure. */
  private written = 0;

  constructor(private readonly parent: ReadonlyMap<string, Uint8Array | string>) {
    super();
  }

  /** Bytes of the nodes this copy wrote (key and value), not counting what it reads of its parent. */
  get ownBytes(): number {
    return this.written;
  }

  /** How many nodes this copy wrote. */
  get ownNodes(): number {
    return super.size;
  }

  override get(hex: string): Uint8Array | string | undefined {
    const own = super.get(hex);
    if (own !== undefined || this.hidden.has(hex)) return own;
    return this.parent.get(hex);
  }

  override has(hex: string): boolean {
    return this.get(hex) !== undefined;
  }

  override set(hex: string, value: Uint8Array | string): this {
    const before = super.get(hex);
    if (before === undefined) this.written += (hex.length >> 1) + value.length;
    else this.written += value.length - before.length;
    this.hidden.delete(hex);
    return super.set(hex, value);
  }

  override delete(hex: string): boolean {
    const had = this.has(hex);
    const before = super.get(hex);
    if (before !== undefined) this.written -= (hex.length >> 1) + before.length;
    super.delete(hex);
    if (this.parent.has(hex)) this.hidden.add(hex);
    return had;
  }

  override clear(): void {
    for (const k of this.parent.keys()) this.hidden.add(k);
    this.written = 0;
    super.clear();
  }

  // Whatever reads the whole map (a dump of the copy, a chain image) sees the union, without copying the parent in.

  override get size(): number {
    let n = super.size;
    for (const k of this.parent.keys()) if (!super.has(k) && !this.hidden.has(k)) n++;
    return n;
  }

  override *entries(): MapIterator<[string, Uint8Array | string]> {
    yield* super.entries();
    for (const [k, v] of this.parent) if (!super.has(k) && !this.hidden.has(k)) yield [k, v];
  }

  override *keys(): MapIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  override *values(): MapIterator<Uint8Array | string> {
    for (const [, v] of this.entries()) yield v;
  }

  override [Symbol.iterator](): MapIterator<[string, Uint8Array | string]> {
    return this.entries();
  }

  override forEach(fn: (value: Uint8Array | string, key: string, map: Map<string, Uint8Array | string>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
}
