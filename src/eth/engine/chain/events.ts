/**
 * What a chain tells its listeners (subscriptions, filters, the rollup's L1 link, a data directory): typed
 * events, emitted by the engine, which knows nothing of sockets. A listener that throws is reported on
 * devgate's stderr and never breaks the chain or the other listeners.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { MinedBlock, PendingTx } from './types.js';

/** Why a transaction left the pool without being mined. */
export type DropReason = 'replaced' | 'dropped' | 'invalid' | 'reverted';

export interface ChainEventMap {
  /** A block was sealed onto the chain (in chain order, one event per block). */
  blockSealed: MinedBlock;
  /** Blocks left the chain (a revert or reset), oldest first; the head is then the block before the first. */
  blocksRemoved: readonly MinedBlock[];
  /** Transactions entered the pool. */
  txPooled: readonly PendingTx[];
  /** Transactions left the pool without being mined, and why. */
  txDropped: readonly { readonly tx: TypedTransaction; readonly reason: DropReason; readonly error?: string }[];
}

export type ChainEventName = keyof ChainEventMap;
type Listener<K extends ChainEventName> = (event: ChainEventMap[K]) => void;

export class ChainEvents {
  private readonly listeners = new Map<ChainEventName, Set<Listener<never>>>();

  /** Adds a listener; the function returned removes it. */
  on<K extends ChainEventName>(name: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (set === undefined) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** How many listeners an event has (emitters skip work nobody listens to). */
  count(name: ChainEventName): number {
    return this.listeners.get(name)?.size ?? 0;
  }

  emit<K extends ChainEventName>(name: K, event: ChainEventMap[K]): void {
    const set = this.listeners.get(name);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<K>)(event);
      } catch (err) {
        console.error(`devgate: a ${name} listener failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }
  }
}
