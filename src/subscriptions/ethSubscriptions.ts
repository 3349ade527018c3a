/**
 * eth_subscribe over one WebSocket connection, as geth: `newHeads` (the header of each new block), `logs` (address
 * and topics as eth_getLogs), `newPendingTransactions` (hashes, or whole transactions with `true`), `syncing`
 * (never notified: devgate does not sync). Fed by the chain's events, in chain order, one notification per block,
 * also for a burst (anvil_mine 1000). When blocks leave the chain (evm_revert, anvil_reset), `logs` subscribers get
 * their logs again with `removed: true` and `newHeads` subscribers the new head, as on a reorg.
 *
 * The engine knows nothing of this: the connection's `push` sends a text, and `close` unhooks everything.
 */
import { quantityHex } from '../hex.js';
import { DevgateError, InvalidArgument } from '../errors.js';
import type { EthChain } from '../eth/engine/chain/chain.js';
import type { MinedBlock, PendingTx } from '../eth/engine/chain/types.js';
import { blockLogs, type FoundLog, type LogFilter } from '../eth/engine/query/logs.js';
import { formatBlock } from '../eth/format/block.js';
import { formatTransaction } from '../eth/format/transaction.js';
import { minedLogJson } from '../eth/format/log.js';
import { bool } from '../rpc/params.js';
import { logFilterParam } from '../eth/params.js';

/** Subscriptions one connection may hold at once. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1000;

type Subscription = { kind: 'newHeads' } | { kind: 'logs'; filter: LogFilter } | { kind: 'newPendingTransactions'; full: boolean } | { kind: 'syncing' };

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

export class EthSubscriptions {
  private readonly subs = new Map<string, Subscription>();
  private nextId = 1n;
  private readonly off: (() => void)[];

  constructor(
    private readonly chain: EthChain,
    private readonly push: (text: string) => void,
    private readonly max = MAX_SUBSCRIPTIONS_PER_CONNECTION,
  ) {
    this.off = [
      chain.events.on('blockSealed', (block) => this.sealed(block)),
      chain.events.on('blocksRemoved', (blocks) => this.removed(blocks)),
      chain.events.on('txPooled', (txs) => this.pooled(txs)),
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
        sub = { kind, filter: logFilterParam(options ?? {}).filter };
        break;
      case 'newPendingTransactions':
        sub = { kind, full: options === undefined || options === null ? false : bool(options) };
        break;
      default:
        throw new InvalidArgument(`no "${kind.slice(0, 40)}" subscription in eth namespace`);
    }
    if (this.subs.size >= this.max) throw new DevgateError(`too many subscriptions on this connection (at most ${this.max}); eth_unsubscribe some first`);
    const id = quantityHex(this.nextId++);
    this.subs.set(id, sub);
    return id;
  }

  /** eth_unsubscribe: whether the id was a subscription of this connection. */
  unsubscribe(id: unknown): boolean {
    if (typeof id !== 'string') throw new InvalidArgument('expected a subscription id');
    return this.subs.delete(id);
  }

  get size(): number {
    return this.subs.size;
  }

  close(): void {
    for (const off of this.off) off();
    this.subs.clear();
  }

  private notify(id: string, resultJson: string): void {
    this.push(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${resultJson}}}`);
  }

  private sealed(block: MinedBlock): void {
    let header: string | undefined;
    for (const [id, sub] of this.subs) {
      if (sub.kind === 'newHeads') this.notify(id, (header ??= headerJson(block)));
      else if (sub.kind === 'logs') for (const l of blockLogs(block, sub.filter)) this.notify(id, logJson(l));
    }
  }

  private removed(blocks: readonly MinedBlock[]): void {
    for (const [id, sub] of this.subs) {
      if (sub.kind !== 'logs') continue;
      for (const block of blocks) {
        for (const l of blockLogs(block, sub.filter)) this.notify(id, logJson(l).replace(/"removed":false}$/, '"removed":true}'));
      }
    }
    // The new head, as after a reorg.
    let header: string | undefined;
    for (const [id, sub] of this.subs) if (sub.kind === 'newHeads') this.notify(id, (header ??= headerJson(this.chain.head())));
  }

  private pooled(txs: readonly PendingTx[]): void {
    for (const [id, sub] of this.subs) {
      if (sub.kind !== 'newPendingTransactions') continue;
      for (const p of txs)
        this.notify(id, sub.full ? JSON.stringify(formatTransaction(p.tx, p.sender, { kind: 'pending' })) : `"0x${Buffer.from(p.tx.hash()).toString('hex')}"`);
    }
  }
}
