/**
 * What a rollup chain tells its listeners (Starknet WebSocket subscriptions, and whoever else listens): typed
 * events emitted by the engine, which knows nothing of sockets or JSON-RPC. A listener that throws is reported on
 * devgate's stderr and never breaks the chain or the other listeners.
 *
 * Events are emitted synchronously from inside the chain's own work (a seal may happen inside `sync()`, which
 * every read runs first): a listener gets everything it needs in the event and must not call back into the
 * chain's syncing methods (head(), block(), pending(), ...) while it runs.
 */
import type { ExecutedTx, SealedBlock } from './types.js';

export interface RollupEventMap {
  /** A block was sealed onto the chain (in chain order, one event per block); it is ACCEPTED_ON_L2. */
  blockSealed: SealedBlock;
  /** A transaction entered the pending block (it is ACCEPTED_ON_L2, executed by the sequencer). */
  txAdded: ExecutedTx;
  /** Blocks moved to ACCEPTED_ON_L1 (oldest first); each carries its new status. */
  statusChanged: readonly SealedBlock[];
  /**
   * Blocks were rejected (oldest first, all now REJECTED): they left the chain, which continues from the parent of
   * the first. Their transactions are REJECTED.
   */
  blocksRejected: readonly SealedBlock[];
  /**
   * Blocks left the chain by a snapshot revert or a restart (oldest first; none was REJECTED before): the chain
   * continues from the parent of the first, and they and their transactions are unknown from now on.
   */
  blocksReverted: readonly SealedBlock[];
}

export type RollupEventName = keyof RollupEventMap;
type Listener<K extends RollupEventName> = (event: RollupEventMap[K]) => void;

export class RollupEvents {
  private readonly listeners = new Map<RollupEventName, Set<Listener<never>>>();

  /** Adds a listener; the function returned removes it. */
  on<K extends RollupEventName>(name: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (set === undefined) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** How many listeners an event has. */
  count(name: RollupEventName): number {
    return this.listeners.get(name)?.size ?? 0;
  }

  emit<K extends RollupEventName>(name: K, event: RollupEventMap[K]): void {
    const set = this.listeners.get(name);
    if (set === undefined || set.size === 0) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<K>)(event);
      } catch (err) {
        console.error(`devgate: a rollup ${name} listener failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }
  }
}
