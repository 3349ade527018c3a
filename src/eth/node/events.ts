/**
 * The events of a node's command, held until its commit: the store writes first, then listeners hear (a block
 * announced is a block kept). A block sealed flushes what came before it, so listeners hear in the order things happened.
 */
import type { ChainEventMap, ChainEventName, ChainEvents } from '../engine/chain/events.js';

type Queued = { [K in ChainEventName]: { name: K; event: ChainEventMap[K] } }[ChainEventName];

export class NodeEvents {
  private queued: Queued[] = [];

  constructor(private readonly out: ChainEvents) {}

  queue<K extends ChainEventName>(name: K, event: ChainEventMap[K]): void {
    this.queued.push({ name, event } as Queued);
  }

  /** Emits what was queued, in order. */
  flush(): void {
    if (this.queued.length === 0) return;
    const all = this.queued;
    this.queued = [];
    for (const q of all) this.out.emit(q.name, q.event as never);
  }
}
