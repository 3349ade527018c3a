/**
 * The Starknet WebSocket subscriptions (spec 0.8, starknet_ws_api.json) of one connection to a rollup network,
 * fed by the chain's events (src/rollup/engine/events.ts):
 * - newHeads: the BLOCK_HEADER of each block sealed, in chain order;
 * - events: the EMITTED_EVENTs of each sealed block that match the emitting address and keys;
 * - transactionStatus: the status of one transaction, at once if known, then at every change (ACCEPTED_ON_L2 when
 *   it enters the pending block, ACCEPTED_ON_L1, REJECTED);
 * - pendingTransactions: each transaction entering the pending block (its hash, or the whole transaction);
 * - reorg (`…_subscriptionReorg`): when blocks are rejected, to every newHeads, events and transactionStatus
 *   subscription, with the first and last rejected block.
 * A subscription that starts from an older block (`block_id`) first gets what it missed; those notifications, and
 * any that happen meanwhile, are held until `release(id)` (the connection calls it once the answer with the
 * subscription id is sent), so a client always reads the id first and then everything in chain order.
 *
 * Chain events reach the subscriptions through a FanOut (src/subscriptions/fanOut.ts), in order, yielding to the event
 * loop by bytes of notifications made, as eth's do: a block of 10,000 events going to 1,000 events subscriptions is
 * tens of MB of notifications, and other requests (of every network) must not wait for all of them. Small events are
 * still delivered in the emitter's turn. A subscription made after an event was queued does not get it (its
 * catch-up, made from the chain as it is, already has it).
 *
 * Notification methods carry the prefix the subscription was made with (`starknet_subscriptionNewHeads`, or
 * `rollup_subscriptionNewHeads` for `rollup_subscribeNewHeads`). Ids are decimal strings, as starknet-devnet's.
 */
import { LimitExceeded, RollupError } from '../../errors.js';
import type { RollupChain } from '../../rollup/engine/chain.js';
import { contractAddress } from '../../rollup/engine/hash.js';
import type { BlockId, ExecutedTx, Felt, RollupEvent, RollupTransaction, SealedBlock } from '../../rollup/engine/types.js';
import { feltHex } from '../../rollup/format.js';
import { formatHeader, formatTransaction } from '../../rollup/starknet/format.js';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../ethSubscriptions.js';
import { FanOut } from '../fanOut.js';

/** The work of sending one notification beyond its bytes (framing, a socket write), in FanOut units (bytes). */
const NOTIFICATION_WORK = 1024;
/** The work of looking at one event or transaction for one subscription, matched or not, in FanOut units. */
const LOOK_WORK = 16;

/** How far back a subscription may start (spec: TOO_MANY_BLOCKS_BACK, 68). */
export const MAX_BLOCKS_BACK = 1024;
/** Most sender addresses in a pendingTransactions filter (TOO_MANY_ADDRESSES_IN_FILTER, 67). */
export const MAX_SENDER_ADDRESSES = 1024;

export interface EventCriteria {
  readonly address?: Felt;
  /** Per key position, the allowed values (empty: any). */
  readonly keys: readonly (readonly Felt[])[];
}

type Kind =
  | { readonly kind: 'newHeads' }
  | { readonly kind: 'events'; readonly criteria: EventCriteria }
  | { readonly kind: 'transactionStatus'; readonly hash: Felt }
  | { readonly kind: 'pendingTransactions'; readonly details: boolean; readonly senders?: ReadonlySet<Felt> };

type Subscription = Kind & {
  /** The method prefix it was made with (`starknet`, `rollup`): its notifications carry it. */
  readonly prefix: string;
  /** The number of the last chain event queued before it was made: it gets later ones only. */
  readonly since: number;
  /** Notifications held until the answer with the id has gone out (see flush()). */
  held?: string[];
};

const NAMES = { newHeads: 'NewHeads', events: 'Events', transactionStatus: 'TransactionStatus', pendingTransactions: 'PendingTransactions' } as const;

/** Texts made once per sealed block and shared by every connection: its header, and its events. */
const headers = new WeakMap<SealedBlock, string>();
const eventTexts = new WeakMap<SealedBlock, { readonly event: RollupEvent; readonly text: string }[]>();

/** The spec's BLOCK_HEADER of a sealed block (the block object's header fields, without its status). */
export function headerJson(chain: RollupChain, block: SealedBlock): string {
  let text = headers.get(block);
  if (text === undefined) {
    const { status: _status, ...header } = formatHeader(block, { chain, networkName: '' });
    headers.set(block, (text = JSON.stringify(header)));
  }
  return text;
}

/** The address a pending transaction comes from: its sender, the account a DEPLOY_ACCOUNT deploys, an L1 handler's contract. */
function senderOf(tx: RollupTransaction): Felt {
  switch (tx.kind) {
    case 'DEPLOY_ACCOUNT':
      return contractAddress(tx.contractAddressSalt, tx.classHash, tx.constructorCalldata);
    case 'L1_HANDLER':
      return tx.contractAddress;
    default:
      return tx.senderAddress;
  }
}

/** Whether an event's keys match a filter's (per position, any of the listed values; an empty list: any). */
export function keysMatch(filter: readonly (readonly Felt[])[], keys: readonly Felt[]): boolean {
  return filter.every((allowed, i) => allowed.length === 0 || (i < keys.length && allowed.includes(keys[i]!)));
}

/** Every EMITTED_EVENT of a sealed block, in order, with its JSON text. */
function allEvents(block: SealedBlock): { readonly event: RollupEvent; readonly text: string }[] {
  let all = eventTexts.get(block);
  if (all !== undefined) return all;
  all = [];
  for (const tx of block.transactions) {
    for (const e of tx.outcome.events) {
      const text = JSON.stringify({
        from_address: feltHex(e.fromAddress),
        keys: e.keys.map(feltHex),
        data: e.data.map(feltHex),
        block_hash: feltHex(block.hash),
        block_number: Number(block.number),
        transaction_hash: feltHex(tx.hash),
      });
      all.push({ event: e, text });
    }
  }
  eventTexts.set(block, all);
  return all;
}

/** The EMITTED_EVENTs of a sealed block that match a filter, as JSON texts. */
function blockEvents(block: SealedBlock, c: EventCriteria): string[] {
  const out: string[] = [];
  for (const { event: e, text } of allEvents(block)) if ((c.address === undefined || e.fromAddress === c.address) && keysMatch(c.keys, e.keys)) out.push(text);
  return out;
}

/**
 * A transactionStatus notification: the hash and the spec's TXN_STATUS_RESULT, as starknet_getTransactionStatus
 * answers it: a REJECTED one without execution status, a reverted one REVERTED with its failure_reason.
 */
export const statusJson = (tx: ExecutedTx, status: 'ACCEPTED_ON_L2' | 'ACCEPTED_ON_L1' | 'REJECTED') =>
  JSON.stringify({
    transaction_hash: feltHex(tx.hash),
    status:
      status === 'REJECTED'
        ? { finality_status: status }
        : tx.revertReason === undefined
          ? { finality_status: status, execution_status: 'SUCCEEDED' }
          : { finality_status: status, execution_status: 'REVERTED', failure_reason: tx.revertReason },
  });

/** A chain event as the subscriptions take it, numbered. */
type Event =
  | { readonly seq: number; readonly kind: 'sealed'; readonly block: SealedBlock }
  | { readonly seq: number; readonly kind: 'added'; readonly tx: ExecutedTx }
  | { readonly seq: number; readonly kind: 'accepted' | 'rejected' | 'reverted'; readonly blocks: readonly SealedBlock[] };

/** Work done so far by a delivery: the units each step yields (see StarknetSubscriptions.run). */
type Work = Generator<number, void, undefined>;

export class StarknetSubscriptions {
  private readonly subs = new Map<string, Subscription>();
  private nextId = 1;
  private seq = 0;
  private closed = false;
  private readonly fan: FanOut<Event>;
  private readonly off: (() => void)[];

  constructor(
    private readonly chain: RollupChain,
    /** Sends a text on the connection; false: the connection is gone (nothing more is made for it). */
    private readonly push: (text: string) => unknown,
    private readonly max = MAX_SUBSCRIPTIONS_PER_CONNECTION,
  ) {
    this.fan = new FanOut((e) => this.run(this.deliver(e)));
    this.off = [
      chain.events.on('blockSealed', (block) => this.queue({ seq: ++this.seq, kind: 'sealed', block })),
      chain.events.on('txAdded', (tx) => this.queue({ seq: ++this.seq, kind: 'added', tx })),
      chain.events.on('statusChanged', (blocks) => this.queue({ seq: ++this.seq, kind: 'accepted', blocks })),
      chain.events.on('blocksRejected', (blocks) => this.queue({ seq: ++this.seq, kind: 'rejected', blocks })),
      // A snapshot revert or restart (devnet_revert, devnet_restart): the blocks are gone, not REJECTED.
      chain.events.on('blocksReverted', (blocks) => this.queue({ seq: ++this.seq, kind: 'reverted', blocks })),
    ];
  }

  /** newHeads; from an older block (hash or number), its header and every later one come first. */
  subscribeNewHeads(prefix: string, from: BlockId | undefined): string {
    const missed = this.missedBlocks(from, false);
    const id = this.add({ kind: 'newHeads', prefix });
    for (const b of missed) this.notify(id, this.subs.get(id)!, headerJson(this.chain, b));
    return id;
  }

  /** events by emitting address and keys; from a block (default latest), that block's events and later ones come first. */
  subscribeEvents(prefix: string, criteria: EventCriteria, from: BlockId | undefined): string {
    const missed = this.missedBlocks(from, true);
    const id = this.add({ kind: 'events', criteria, prefix });
    const sub = this.subs.get(id)!;
    for (const b of missed) for (const e of blockEvents(b, criteria)) this.notify(id, sub, e);
    return id;
  }

  /** The status of one transaction: at once when it is known, then at each change. */
  subscribeTransactionStatus(prefix: string, hash: Felt): string {
    const found = this.chain.transaction(hash);
    const id = this.add({ kind: 'transactionStatus', hash, prefix });
    if (found !== undefined) {
      // In the pending block: executed by the sequencer, ACCEPTED_ON_L2 (spec 0.8); else its block's status.
      const status = found.block === undefined || found.block.status === 'PENDING' ? 'ACCEPTED_ON_L2' : found.block.status;
      this.notify(id, this.subs.get(id)!, statusJson(found.tx, status));
    }
    return id;
  }

  /** Transactions entering the pending block (those already in it come first), by sender when `senders` is given. */
  subscribePendingTransactions(prefix: string, details: boolean, senders: readonly Felt[] | undefined): string {
    if (senders !== undefined && senders.length > MAX_SENDER_ADDRESSES) throw new RollupError(67, 'Too many addresses in filter sender_address filter');
    const pending = this.chain.pending().transactions;
    const sub = {
      kind: 'pendingTransactions',
      details,
      senders: senders === undefined || senders.length === 0 ? undefined : new Set(senders),
      prefix,
    } as const;
    const id = this.add(sub);
    for (const tx of pending) this.notifyPending(id, this.subs.get(id) as Subscription & typeof sub, tx);
    return id;
  }

  /** Ends a subscription of this connection; error 66 when the id is not one. */
  unsubscribe(id: string): true {
    if (!this.subs.delete(id)) throw new RollupError(66, 'Invalid subscription id');
    return true;
  }

  /** Sends what a new subscription holds (its catch-up, and what happened meanwhile); from now on it sends at once. */
  release(id: string): void {
    const sub = this.subs.get(id);
    if (sub?.held === undefined) return;
    const held = sub.held;
    sub.held = undefined;
    for (const text of held) {
      if (this.push(text) !== false) continue;
      this.close();
      return;
    }
  }

  /** Releases every subscription that holds notifications. */
  flush(): void {
    for (const id of this.subs.keys()) this.release(id);
  }

  get size(): number {
    return this.subs.size;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const off of this.off) off();
    this.fan.close();
    this.subs.clear();
  }

  /** The sealed blocks a subscription from `from` missed (none from a tag, unless `latestToo`). */
  private missedBlocks(from: BlockId | undefined, latestToo: boolean): SealedBlock[] {
    const head = this.chain.head();
    if (from === undefined || 'tag' in from) return latestToo ? [head] : [];
    const start = this.chain.block(from);
    if (start === undefined || !('hash' in start) || start.status === 'REJECTED') throw new RollupError(24, 'Block not found');
    if (head.number - start.number > BigInt(MAX_BLOCKS_BACK)) throw new RollupError(68, `Cannot go back more than ${MAX_BLOCKS_BACK} blocks`);
    const out: SealedBlock[] = [];
    for (let n = start.number; n <= head.number; n++) out.push(this.chain.block({ number: n }) as SealedBlock);
    return out;
  }

  private add(kind: Kind & { prefix: string }): string {
    if (this.subs.size >= this.max)
      throw new LimitExceeded(`too many subscriptions on this connection (at most ${this.max}); unsubscribe some first`, { limit: this.max });
    const id = String(this.nextId++);
    this.subs.set(id, { ...kind, since: this.seq, held: [] });
    return id;
  }

  /** Sends (or holds) one notification; answers its work. */
  private notify(id: string, sub: Subscription, resultJson: string, name: string = NAMES[sub.kind]): number {
    const text = `{"jsonrpc":"2.0","method":"${sub.prefix}_subscription${name}","params":{"subscription_id":"${id}","result":${resultJson}}}`;
    if (sub.held !== undefined) sub.held.push(text);
    else if (this.push(text) === false) this.close();
    return NOTIFICATION_WORK + text.length;
  }

  private notifyPending(
    id: string,
    sub: Subscription & { readonly kind: 'pendingTransactions'; readonly details: boolean; readonly senders?: ReadonlySet<Felt> },
    tx: ExecutedTx,
  ): number {
    if (sub.senders !== undefined && !sub.senders.has(senderOf(tx.tx))) return LOOK_WORK;
    return this.notify(id, sub, sub.details ? JSON.stringify(formatTransaction(tx)) : `"${feltHex(tx.hash)}"`);
  }

  private queue(e: Event): void {
    if (this.subs.size > 0) this.fan.push(e);
  }

  /**
   * Runs a delivery in the caller's turn while its work fits the fan-out's slice; past it, resumes after a yield
   * (the promise FanOut awaits). Small events are thus delivered at once, as before.
   */
  private run(work: Work): Promise<void> | undefined {
    for (let step = work.next(); step.done !== true && !this.closed; step = work.next()) {
      const pause = this.fan.spend(step.value);
      if (pause !== undefined) return pause.then(() => this.run(work));
    }
    return undefined;
  }

  /** The subscriptions that take event `e` (made before it was queued), while the connection is open. */
  private *takers(e: Event): Generator<[string, Subscription], void, undefined> {
    for (const entry of this.subs) if (entry[1].since < e.seq) yield entry;
  }

  private *deliver(e: Event): Work {
    switch (e.kind) {
      case 'sealed':
        return yield* this.sealed(e);
      case 'added':
        return yield* this.added(e);
      case 'accepted':
        return yield* this.statuses(e, 'ACCEPTED_ON_L1');
      case 'rejected':
        yield* this.reorg(e);
        return yield* this.statuses(e, 'REJECTED');
      case 'reverted':
        return yield* this.reorg(e);
    }
  }

  private *sealed(e: Extract<Event, { kind: 'sealed' }>): Work {
    let header: string | undefined;
    for (const [id, sub] of this.takers(e)) {
      if (sub.kind === 'newHeads') yield this.notify(id, sub, (header ??= headerJson(this.chain, e.block)));
      else if (sub.kind === 'events') {
        const all = allEvents(e.block);
        yield LOOK_WORK * all.length;
        for (const text of blockEvents(e.block, sub.criteria)) yield this.notify(id, sub, text);
      }
    }
  }

  private *added(e: Extract<Event, { kind: 'added' }>): Work {
    for (const [id, sub] of this.takers(e)) {
      if (sub.kind === 'pendingTransactions') yield this.notifyPending(id, sub, e.tx);
      else if (sub.kind === 'transactionStatus' && sub.hash === e.tx.hash) yield this.notify(id, sub, statusJson(e.tx, 'ACCEPTED_ON_L2'));
    }
  }

  /** The spec's reorg notification of blocks that left the chain, to every subscription but pending transactions'. */
  private *reorg(e: Extract<Event, { blocks: readonly SealedBlock[] }>): Work {
    const blocks = e.blocks;
    const first = blocks[0]!;
    const last = blocks.at(-1)!;
    const reorg = JSON.stringify({
      starting_block_hash: feltHex(first.hash),
      starting_block_number: Number(first.number),
      ending_block_hash: feltHex(last.hash),
      ending_block_number: Number(last.number),
    });
    for (const [id, sub] of this.takers(e)) if (sub.kind !== 'pendingTransactions') yield this.notify(id, sub, reorg, 'Reorg');
  }

  /** Tells transactionStatus subscribers of the transactions of `blocks` their new status. */
  private *statuses(e: Extract<Event, { blocks: readonly SealedBlock[] }>, status: 'ACCEPTED_ON_L1' | 'REJECTED'): Work {
    const watched = new Map<Felt, [string, Subscription][]>();
    for (const [id, sub] of this.takers(e)) {
      if (sub.kind !== 'transactionStatus') continue;
      const list = watched.get(sub.hash);
      if (list === undefined) watched.set(sub.hash, [[id, sub]]);
      else list.push([id, sub]);
    }
    if (watched.size === 0) return;
    for (const b of e.blocks) {
      yield LOOK_WORK * b.transactions.length;
      for (const tx of b.transactions) for (const [id, sub] of watched.get(tx.hash) ?? []) yield this.notify(id, sub, statusJson(tx, status));
    }
  }
}
