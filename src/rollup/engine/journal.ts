/**
 * A Map that can record its changes and undo them back to a mark: the rollup chain's block and
 * transaction indexes are such maps, so a snapshot is a position in their logs and a revert undoes
 * only what changed since (no copy of an index, whatever the chain's length). Recording starts at the
 * first mark and stops (the log is dropped) when no snapshot needs it any more.
 */
type Change<K, V> =
  /** One key set or deleted: whether it was there before, and its value then. */
  | { readonly key: K; readonly had: boolean; readonly before: V | undefined }
  /** A clear: every entry before it, in order. */
  | { readonly cleared: readonly (readonly [K, V])[] };

export class JournaledMap<K, V> extends Map<K, V> {
  private log: Change<K, V>[] | undefined;

  override set(key: K, value: V): this {
    this.log?.push({ key, had: super.has(key), before: super.get(key) });
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    if (this.log !== undefined && super.has(key)) this.log.push({ key, had: true, before: super.get(key) });
    return super.delete(key);
  }

  override clear(): void {
    this.log?.push({ cleared: [...this] });
    super.clear();
  }

  /** Starts recording if it has not yet; answers the position to undo back to. */
  mark(): number {
    this.log ??= [];
    return this.log.length;
  }

  /**
   * Undoes every change recorded after `position`, newest first; answers the values of the keys it removed, oldest
   * first. Keys keep their order, but a key deleted and put back by the undo goes last (the chain never deletes).
   */
  undo(position: number): V[] {
    const log = this.log;
    if (log === undefined || position > log.length) throw new Error(`no journal position ${position}`);
    const removed: V[] = [];
    while (log.length > position) {
      const c = log.pop()!;
      if ('cleared' in c) for (const [key, value] of c.cleared) super.set(key, value);
      else if (c.had) super.set(c.key, c.before as V);
      else {
        removed.push(super.get(c.key) as V);
        super.delete(c.key);
      }
    }
    return removed.reverse();
  }

  /** Becomes a copy of `next` and stops recording; answers the values of the keys `next` lacks. */
  replaceWith(next: ReadonlyMap<K, V>): V[] {
    const removed = [...this].filter(([key]) => !next.has(key)).map(([, value]) => value);
    this.stop();
    super.clear();
    for (const [key, value] of next) super.set(key, value);
    return removed;
  }

  /** Stops recording and drops the log. */
  stop(): void {
    this.log = undefined;
  }
}
