/**
 * eth_subscribe over one WebSocket connection, as geth: `newHeads` (the header of each new block), `logs` (address
 * and topics as eth_getLogs), `newPendingTransactions` (hashes, or whole transactions with `true`), `syncing`
 * (never notified: devgate does not sync). Fed by the chain's events, in chain order, one notification per block,
 * also for a burst (anvil_mine 1000). When blocks leave the chain (evm_revert, anvil_reset), `logs` subscribers get
 * their logs again with `removed: true` and `newHeads` subscribers the new head, as on a reorg.
 *
 * The engine knows nothing of this: the connection's `push` sends a text, and `close` unhooks everything.
 */
import { bytesHex, quantityHex } from '../hex.js';
import { DevgateError, InvalidArgument } from '../errors.js';
import type { EthChain } from '../eth/engine/chain/chain.js';
import type { MinedBlock, PendingTx } from '../eth/engine/chain/types.js';
import { BlockScan, keysOf, type FoundLog, type KeyFilter } from '../eth/engine/query/logs.js';
import { blockLogIndexSliced } from '../eth/engine/query/logIndex.js';
import { formatBlock } from '../eth/format/block.js';
import { formatTransaction } from '../eth/format/transaction.js';
import { minedLogJson } from '../eth/format/log.js';
import { bool } from '../rpc/params.js';
import { logFilterParam } from '../eth/params.js';
import { FanOut, LOG_LOOK_WORK, LOOK_WORK, manyLogs, TurnBudget } from './fanOut.js';
import { SCAN_SLICE } from './sharedLogs.js';

/** The work of sending one notification beyond its bytes (framing, a socket write), in FanOut units (bytes). */
const NOTIFICATION_WORK = 1024;

/**
 * Every connection's notifications share one slice of work per turn (#25): 48 readers of newHeads during anvil_mine
 * are 48 fan-outs, and each doing its own slice in the same turn made that turn 48 slices long.
 */
const NOTIFY_TURNS = new TurnBudget();

/** Subscriptions one connection may hold at once. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1000;

type Subscription = { kind: 'newHeads' } | { kind: 'logs'; keys: KeyFilter } | { kind: 'newPendingTransactions'; full: boolean } | { kind: 'syncing' };

/**
 * Texts made once per block and shared by every connection (a sealed block never changes): its header, and each of
 * its logs by position. Kept while the block object lives.
 */
const headers = new WeakMap<MinedBlock, string>();
const logTexts = new WeakMap<MinedBlock, Map<number, string>>();

/** The header object geth sends to newHeads subscribers: the block object without body fields, size and totalDifficulty. */
export function headerJson(block: MinedBlock): string {
  let text = headers.get(block);
  if (text === undefined) {
    const o = formatBlock(block, { fullTransactions: false });
    for (const field of ['transactions', 'uncles', 'withdrawals', 'size', 'totalDifficulty']) delete o[field];
    headers.set(block, (text = JSON.stringify(o)));
  }
  return text;
}

/** A log of a block as eth_getLogs writes it (removed: false). */
function logJson(l: FoundLog): string {
  let byPosition = logTexts.get(l.block);
  if (byPosition === undefined) logTexts.set(l.block, (byPosition = new Map()));
  let text = byPosition.get(l.position);
  if (text === undefined) byPosition.set(l.position, (text = minedLogJson(l.block, l.position, l.txIndex, l.log)));
  return text;
}

/** A chain event as a connection's subscriptions take it, numbered (with the head after a removal, as it was then). */
type Event =
  | { readonly seq: number; readonly kind: 'sealed'; readonly block: MinedBlock }
  | { readonly seq: number; readonly kind: 'removed'; readonly blocks: readonly MinedBlock[]; readonly head: MinedBlock }
  | { readonly seq: number; readonly kind: 'pooled'; readonly txs: readonly PendingTx[] };

/** One key's subscriptions over all its connections to a network (maxSubscriptionsPerKey). */
export interface SubscriptionQuota {
  /** Takes a place, or throws -32005 naming the limit. */
  take(): void;
  give(): void;
}

/**
 * Events reach the subscriptions through a FanOut, in order, yielding by bytes of notifications made; a subscription
 * made after an event was queued does not get it. `push` answers false once the connection is gone: then nothing
 * more is made.
 */
export class EthSubscriptions {
  private readonly subs = new Map<string, Subscription & { since: number }>();
  private nextId = 1n;
  private seq = 0;
  private readonly fan: FanOut<Event>;
  private readonly off: (() => void)[];

  constructor(
    chain: EthChain,
    private readonly push: (text: string) => unknown,
    private readonly max = MAX_SUBSCRIPTIONS_PER_CONNECTION,
    private readonly quota?: SubscriptionQuota,
  ) {
    this.fan = new FanOut((e) => this.deliver(e), undefined, NOTIFY_TURNS);
    this.off = [
      chain.events.on('blockSealed', (block) => this.queue({ seq: ++this.seq, kind: 'sealed', block })),
      chain.events.on('blocksRemoved', (blocks) => this.queue({ seq: ++this.seq, kind: 'removed', blocks, head: chain.head() })),
      chain.events.on('txPooled', (txs) => this.queue({ seq: ++this.seq, kind: 'pooled', txs })),
    ];
  }

  /** eth_subscribe's params: the kind, and its options; answers the subscription id. */
  subscribe(params: unknown): string {
    if (!Array.isArray(params) || typeof params[0] !== 'string')
      throw new InvalidArgument('expected params [kind, options?], kind one of newHeads, logs, newPendingTransactions, syncing');
    const [kind, options] = params as [string, unknown];
    let sub: Subscription;
    switch (kind) {
      case 'newHeads':
      case 'syncing':
        sub = { kind };
        break;
      case 'logs':
        sub = { kind, keys: keysOf(logFilterParam(options ?? {}).filter) };
        break;
      case 'newPendingTransactions':
        sub = { kind, full: options === undefined || options === null ? false : bool(options) };
        break;
      default:
        throw new InvalidArgument(`no "${kind.slice(0, 40)}" subscription in eth namespace`);
    }
    if (this.subs.size >= this.max) throw new DevgateError(`too many subscriptions on this connection (at most ${this.max}); eth_unsubscribe some first`);
    this.quota?.take();
    const id = quantityHex(this.nextId++);
    this.subs.set(id, { ...sub, since: this.seq });
    return id;
  }

  /** eth_unsubscribe: whether the id was a subscription of this connection. */
  unsubscribe(id: unknown): boolean {
    if (typeof id !== 'string') throw new InvalidArgument('expected a subscription id');
    if (!this.subs.delete(id)) return false;
    this.quota?.give();
    return true;
  }

  get size(): number {
    return this.subs.size;
  }

  close(): void {
    for (const off of this.off) off();
    this.fan.close();
    for (let n = this.subs.size; n > 0; n--) this.quota?.give();
    this.subs.clear();
  }

  private queue(e: Event): void {
    if (this.subs.size === 0) return;
    // A block of many logs: not in the seal's turn (only logs subscriptions look at them).
    this.fan.push(e, e.kind !== 'pooled' && manyLogs(e.kind === 'sealed' ? [e.block] : e.blocks) && this.hasLogs());
  }

  private hasLogs(): boolean {
    for (const sub of this.subs.values()) if (sub.kind === 'logs') return true;
    return false;
  }

  /** Sends one notification; a pause to await when a slice of work is used up. */
  private notify(id: string, resultJson: string): Promise<void> | undefined {
    const text = `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${resultJson}}}`;
    if (this.push(text) === false) {
      // The connection is gone: nothing more to make for it.
      this.close();
      return undefined;
    }
    return this.fan.spend(NOTIFICATION_WORK + text.length);
  }

  private async deliver(e: Event): Promise<void> {
    if (e.kind === 'pooled') return this.pooled(e);
    // The blocks' log indexes, built a slice at a time before any logs subscription is matched.
    for (const sub of this.subs.values()) {
      if (sub.kind !== 'logs' || sub.since >= e.seq) continue;
      for (const block of e.kind === 'sealed' ? [e.block] : e.blocks) await blockLogIndexSliced(block);
      break;
    }
    let header: string | undefined;
    for (const [id, sub] of this.subs) {
      if (sub.since >= e.seq) continue;
      // A pause is awaited only when one is due: small events are sent in the emitter's turn, as before.
      let pause: Promise<void> | undefined;
      if (sub.kind === 'logs') {
        // The logs looked at count, matched or not: subscriptions that match nothing of a large block still yield; a
        // block is matched a slice of logs at a time (one subscription against 36,000 logs is not one turn).
        for (const block of e.kind === 'sealed' ? [e.block] : e.blocks) {
          const found = new BlockScan(block, sub.keys);
          while (!found.done) if ((pause = this.fan.spend(LOG_LOOK_WORK * found.step(SCAN_SLICE))) !== undefined) await pause;
          if ((pause = this.fan.spend(LOOK_WORK)) !== undefined) await pause;
          // Unsubscribed meanwhile: nothing more for it.
          if (!this.subs.has(id)) break;
          for (const l of found.logs) {
            const text = e.kind === 'sealed' ? logJson(l) : logJson(l).replace(/"removed":false}$/, '"removed":true}');
            if ((pause = this.notify(id, text)) !== undefined) await pause;
          }
        }
        continue;
      }
      if (e.kind === 'sealed' && sub.kind === 'newHeads') pause = this.notify(id, (header ??= headerJson(e.block)));
      else pause = this.fan.spend(LOOK_WORK);
      if (pause !== undefined) await pause;
    }
    if (e.kind !== 'removed') return;
    // The new head, as after a reorg.
    for (const [id, sub] of this.subs) {
      if (sub.kind !== 'newHeads' || sub.since >= e.seq) continue;
      const pause = this.notify(id, (header ??= headerJson(e.head)));
      if (pause !== undefined) await pause;
    }
  }

  private async pooled(e: Extract<Event, { kind: 'pooled' }>): Promise<void> {
    const texts = new Map<PendingTx, string>();
    for (const [id, sub] of this.subs) {
      if (sub.kind !== 'newPendingTransactions' || sub.since >= e.seq) continue;
      for (const p of e.txs) {
        let text = sub.full ? texts.get(p) : `"${bytesHex(p.tx.hash())}"`;
        if (text === undefined) texts.set(p, (text = JSON.stringify(formatTransaction(p.tx, p.sender, { kind: 'pending' }))));
        const pause = this.notify(id, text);
        if (pause !== undefined) await pause;
      }
    }
  }
}
