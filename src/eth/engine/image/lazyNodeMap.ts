/**
 * A Map of trie nodes whose entries stay where they are stored (a chain image's buffer, a data directory) until they
 * are asked for. Lookups are the subclass's own; whatever reads the whole map (size, iteration: a dump, a copy)
 * first has every entry copied in by `materialize()`.
 */
export abstract class LazyNodeMap extends Map<string, Uint8Array> {
  /** Copies every stored entry not yet in the map into it (once). */
  protected abstract materialize(): void;

  override get size(): number {
    this.materialize();
    return super.size;
  }

  override forEach(fn: (value: Uint8Array, key: string, map: Map<string, Uint8Array>) => void, thisArg?: unknown): void {
    this.materialize();
    super.forEach(fn, thisArg);
  }

  override entries(): MapIterator<[string, Uint8Array]> {
    this.materialize();
    return super.entries();
  }

  override keys(): MapIterator<string> {
    this.materialize();
    return super.keys();
  }

  override values(): MapIterator<Uint8Array> {
    this.materialize();
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[string, Uint8Array]> {
    return this.entries();
  }
}
