/**
 * The trie node store of a chain kept in a data directory: the Map the state trie's MapDB reads and writes
 * (by unprefixed hex key), over the network's LMDB database. A node not in the Map is read from the store on
 * first use (LMDB reads are synchronous memory-map reads) and kept; every node written is also noted as
 * dirty until the next commit writes it to the store with its block. Nodes are never deleted from the store
 * (the trie does not prune: every historical root stays readable, before and after a restart).
 */
import { nodeHex, nodeKey, NODE_RANGE, plain } from './codec.js';
import type { NetworkDb } from '../../../../persist/store.js';
import { LazyNodeMap } from '../../image/lazyNodeMap.js';
import { plainHexView } from '../../../../hex.js';

export class DurableNodes extends LazyNodeMap {
  private dirty = new Set<string>();
  /** True once every stored node was read into the Map (iteration and size need them all). */
  private complete = false;

  constructor(private readonly db: NetworkDb) {
    super();
  }

  override get(hex: string): Uint8Array | undefined {
    const v = super.get(hex);
    if (v !== undefined || this.complete) return v;
    const stored = this.db.get(nodeKey(hex));
    if (stored === undefined) return undefined;
    const bytes = plain(stored);
    super.set(hex, bytes);
    return bytes;
  }

  override has(hex: string): boolean {
    return this.get(hex) !== undefined;
  }

  override set(hex: string, value: Uint8Array): this {
    this.dirty?.add(hex);
    return super.set(hex, value);
  }

  /** Hands over the nodes written since the last call (their keys; values are read from the Map at commit). */
  takeDirty(): Set<string> {
    const out = this.dirty;
    this.dirty = new Set();
    return out;
  }

  /** Puts back nodes a failed commit did not write. */
  giveBack(keys: Iterable<string>): void {
    for (const k of keys) this.dirty.add(k);
  }

  /** The value to store of a dirty node: bytes (a trie writing hex strings is read back as the same bytes). */
  storedValue(hex: string): Uint8Array | undefined {
    const v = super.get(hex) as Uint8Array | string | undefined;
    return typeof v === 'string' ? plainHexView(v) : v;
  }

  /** Reads every stored node into the Map (for a whole-store walk: chain.parts(), a dump). */
  protected override materialize(): void {
    if (this.complete) return;
    for (const { key, value } of this.db.getRange(NODE_RANGE)) {
      const hex = nodeHex(key);
      if (!super.has(hex)) super.set(hex, plain(value));
    }
    this.complete = true;
  }
}
