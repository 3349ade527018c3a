/** The rollup networks' views: blocks with their statuses (moving live), transactions with receipts, events, messages. */
import { fields, h, link, short, table, time, units } from './dom.js';
import { overviewCalls } from './overview.js';
import { batch, call, knownHeads, type NetworkMeta } from './rpc.js';

const base = (n: string) => `/explorer/${n}`;
const blockLink = (n: string, number: number | undefined) => (number === undefined ? 'pending' : link(`${base(n)}/block/${number}`, String(number)));
const txLink = (n: string, hash: string) => link(`${base(n)}/tx/${hash}`, short(hash), 'tx');
const addrLink = (n: string, a: string | undefined) => (a ? link(`${base(n)}/address/${a}`, short(a, 12)) : '');
const status = (s: string) => h('span', { class: `status ${s}`, 'data-field': 'status' }, s);
const fee = (f: { amount: string; unit: string } | undefined) => (f ? `${units(BigInt(f.amount))} ${f.unit === 'FRI' ? 'STRK' : 'ETH'}` : '');

/** Transactions whose status changes the page wants to hear of (blocks not yet final), by network. */
export const watching = new Map<string, Set<string>>();

function watch(n: string, blocks: readonly any[]): void {
  const set = watching.get(n) ?? new Set<string>();
  watching.set(n, set);
  for (const b of blocks)
    if (b.status === 'ACCEPTED_ON_L2' || b.status === 'PENDING')
      for (const t of b.transactions) set.add(t.transaction_hash ?? t.transaction?.transaction_hash ?? t);
}

/**
 * Rejected blocks the page heard of, by network, oldest first (at most MAX_REJECTED each): they left the chain, so no
 * read by number finds them; the overview lists them beside the chain's blocks. Read once, by hash: REJECTED is final.
 */
const rejected = new Map<string, any[]>();
const MAX_REJECTED = 25;
/** Reorgs already read (each subscription of a network hears of one), by their last block's hash. */
const reorgsSeen = new Set<string>();
/** The reads of rejected blocks under way: an overview drawn meanwhile waits for them. */
let learning: Promise<void> = Promise.resolve();

export interface Reorg {
  starting_block_hash: string;
  starting_block_number: number;
  ending_block_hash: string;
  ending_block_number: number;
}

/**
 * A reorg notification (blocks left the chain): its blocks are read by hash, from the last back through their parents
 * (at most MAX_REJECTED), and those now REJECTED kept. A snapshot revert's blocks are gone, not REJECTED: not kept.
 */
export function learnReorg(n: string, reorg: Reorg): Promise<void> {
  if (typeof reorg?.ending_block_hash !== 'string' || reorgsSeen.has(`${n} ${reorg.ending_block_hash}`)) return learning;
  reorgsSeen.add(`${n} ${reorg.ending_block_hash}`);
  const read = async () => {
    const found: any[] = [];
    let hash = reorg.ending_block_hash;
    const count = Math.min(MAX_REJECTED, reorg.ending_block_number - reorg.starting_block_number + 1);
    for (let i = 0; i < count; i++) {
      const b = await call(n, 'starknet_getBlockWithTxHashes', [{ block_hash: hash }]).catch(() => undefined);
      if (b?.status !== 'REJECTED') break;
      found.unshift(b);
      if (hash === reorg.starting_block_hash) break;
      hash = b.parent_hash;
    }
    const list = [...(rejected.get(n) ?? []), ...found];
    rejected.set(n, list.slice(-MAX_REJECTED));
  };
  learning = learning.then(read, read);
  return learning;
}

/** The chain's blocks (newest first) and the rejected ones of their numbers or later, each after the chain's block of its number. */
function withRejected(n: string, blocks: readonly any[]): { block: any; rejected: boolean }[] {
  const lowest = blocks.at(-1)?.block_number ?? 0;
  const gone = (rejected.get(n) ?? []).filter((b) => b.block_number >= lowest);
  const rows = [
    ...blocks.map((block) => ({ block, rejected: false, order: -1 })),
    ...gone.map((block, i) => ({ block, rejected: true, order: gone.length - i })),
  ];
  rows.sort((a, b) => b.block.block_number - a.block.block_number || a.order - b.order);
  return rows;
}

export async function rollupOverview(net: NetworkMeta, count = 10): Promise<HTMLElement> {
  const n = net.name;
  await learning;
  let head = knownHeads.get(n) ?? (await call<number>(n, 'starknet_blockNumber'));
  let answers: Awaited<ReturnType<typeof batch>> = [];
  // One round trip from a known head; again from the head the answer gives should the chain have moved meanwhile.
  for (let tries = 0; tries < 2; tries++) {
    answers = await batch(n, overviewCalls('rollup', head, count));
    const now = answers.at(-1)?.result ?? head;
    knownHeads.set(n, now);
    if (now === head) break;
    head = now;
  }
  answers = answers.slice(0, -1);
  const pending = answers[0]?.result;
  const blocks = answers
    .slice(1)
    .map((a) => a.result)
    .filter((b) => b);
  watch(n, blocks);
  return h(
    'section',
    { class: 'net', 'data-network': n },
    h(
      'h2',
      {},
      link(base(n), n),
      h('span', { class: 'muted' }, ` rollup · chain id ${net.chainId}${net.l1 ? ` · settles on ${net.l1}` : ''} · head `),
      h('span', { 'data-field': 'head' }, String(head)),
    ),
    h('h3', {}, 'Latest blocks'),
    table(
      ['Block', 'Hash', 'Status', 'Txs', 'Time'],
      [
        ...(pending && pending.block_hash === undefined && pending.transactions.length > 0
          ? [[h('span', {}, 'pending'), '', status('PENDING'), pending.transactions.length, time(pending.timestamp).split(' ')[0]]]
          : []),
        ...withRejected(n, blocks).map(({ block: b, rejected }) => [
          // A rejected block's number names another block (or none) now: it is linked by its hash.
          rejected ? link(`${base(n)}/block/${b.block_hash}`, String(b.block_number)) : blockLink(n, b.block_number),
          short(b.block_hash),
          status(b.status),
          b.transactions.length,
          time(b.timestamp).split(' ')[0],
        ]),
      ],
    ),
  );
}

/** The block page drawn last: the number it was opened by and the hash it showed. */
let shown: { n: string; id: string; hash: string } | undefined;

/**
 * A block's page. `redraw`: a live redraw of the page in view; opened by number, it keeps showing the block it showed
 * if that block was rejected meanwhile (its number now names the block sealed after, or none), with status REJECTED.
 */
export async function rollupBlock(net: NetworkMeta, id: string, redraw = false): Promise<HTMLElement> {
  const n = net.name;
  const byNumber = /^\d+$/.test(id);
  const blockId = byNumber ? { block_number: Number(id) } : id === 'pending' || id === 'latest' ? id : { block_hash: id };
  const before = redraw && byNumber && shown?.n === n && shown.id === id ? shown.hash : undefined;
  const [now, then] = await batch(n, [
    ['starknet_getBlockWithReceipts', [blockId]],
    ...(before === undefined ? [] : [['starknet_getBlockWithReceipts', [{ block_hash: before }]] as [string, unknown]]),
  ]);
  const b = then?.result?.status === 'REJECTED' ? then.result : (now?.result ?? null);
  shown = b?.block_hash === undefined ? undefined : { n, id, hash: b.block_hash };
  if (b === null) return h('p', { class: 'error' }, `no block ${id} on ${n}`);
  // After the block's read, which has the rollup see its L1 network's head first.
  const accepted = net.l1 !== undefined && b.block_number !== undefined ? await l1Block(n, String(b.block_number)) : undefined;
  watch(n, [{ status: b.status, transactions: b.transactions.map((t: any) => t.transaction.transaction_hash) }]);
  return h(
    'section',
    {},
    h('h2', {}, `Block ${b.block_number ?? 'pending'} `, h('span', { class: 'muted' }, `on ${n}`)),
    fields([
      ['Number', 'number', String(b.block_number ?? 'pending')],
      ['Hash', 'hash', b.block_hash ?? ''],
      ['Status', 'blockStatus', status(b.status ?? 'PENDING')],
      ['Parent', 'parentHash', link(`${base(n)}/block/${b.parent_hash}`, b.parent_hash)],
      ['Time', 'timestamp', time(b.timestamp)],
      ['Sequencer', 'sequencer', addrLink(n, b.sequencer_address)],
      ['L1 gas price', 'l1GasPrice', `${BigInt(b.l1_gas_price?.price_in_fri ?? '0x0')} fri`],
      ['Starknet version', 'version', b.starknet_version ?? ''],
      ['Settles on', 'l1', net.l1 ? link(`/explorer/${net.l1}`, net.l1) : 'L1 by time (no eth network of this gateway)'],
      ...(net.l1 === undefined ? [] : [['Accepted on L1 by', 'l1Block', acceptedBy(net.l1, b.status, accepted)] as const]),
    ]),
    h('h3', {}, 'Transactions'),
    table(
      ['Tx', 'Type', 'Sender', 'Execution', 'Fee', 'Events', 'Messages'],
      b.transactions.map(({ transaction: t, receipt: r }: any) => [
        txLink(n, t.transaction_hash),
        t.type,
        addrLink(n, t.sender_address ?? t.contract_address),
        r.execution_status,
        fee(r.actual_fee),
        r.events.length,
        r.messages_sent.length,
      ]),
    ),
  );
}

/** The eth block that accepted a rollup block on L1 (the server knows it; JSON-RPC does not say), null when none did. */
async function l1Block(n: string, number: string): Promise<number | null> {
  const res = await fetch(`/explorer/api/l1/${encodeURIComponent(n)}/${number}`).catch(() => undefined);
  if (res?.ok !== true) return null;
  return ((await res.json()) as { block: number | null }).block;
}

function acceptedBy(l1: string, blockStatus: string | undefined, block: number | null | undefined): HTMLElement | string {
  if (block !== null && block !== undefined) return link(`/explorer/${l1}/block/${block}`, `${l1} block ${block}`);
  return blockStatus === 'ACCEPTED_ON_L1' ? 'accepted by hand, before an L1 block did' : 'not yet';
}

export async function rollupTx(net: NetworkMeta, hash: string): Promise<HTMLElement> {
  const n = net.name;
  const [tx, receipt, st] = await batch(n, [
    ['starknet_getTransactionByHash', [hash]],
    ['starknet_getTransactionReceipt', [hash]],
    ['starknet_getTransactionStatus', [hash]],
  ]);
  const t = tx?.result;
  // A rejected block's transaction is no longer served (error 29), but its status is: REJECTED.
  if (!t && st?.result?.finality_status === 'REJECTED')
    return h(
      'section',
      {},
      h('h2', {}, 'Transaction ', h('span', { class: 'muted' }, `on ${n}`)),
      fields([
        ['Hash', 'hash', hash],
        ['Status', 'finality', status('REJECTED')],
        ['Block', 'block', 'rejected with its block: the node serves neither its body nor its receipt'],
      ]),
    );
  if (!t) return h('p', { class: 'error' }, `no transaction ${hash} on ${n}`);
  const r = receipt?.result;
  const s = st?.result;
  if (s?.finality_status === 'ACCEPTED_ON_L2') watching.get(n)?.add(hash) ?? watching.set(n, new Set([hash]));
  return h(
    'section',
    {},
    h('h2', {}, 'Transaction ', h('span', { class: 'muted' }, `on ${n}`)),
    fields([
      ['Hash', 'hash', t.transaction_hash],
      ['Status', 'finality', status(s?.finality_status ?? 'unknown')],
      ['Execution', 'execution', r?.execution_status ?? ''],
      ['Revert reason', 'revert', r?.revert_reason ?? ''],
      ['Block', 'block', blockLink(n, r?.block_number)],
      ['Type', 'type', `${t.type} v${Number(BigInt(t.version ?? '0x0'))}`],
      ['Sender', 'sender', addrLink(n, t.sender_address ?? t.contract_address)],
      ['Nonce', 'nonce', t.nonce === undefined ? '' : String(BigInt(t.nonce))],
      ['Fee', 'fee', fee(r?.actual_fee)],
      ['Calldata', 'calldata', h('pre', { class: 'hex' }, (t.calldata ?? t.constructor_calldata ?? []).join('\n'))],
    ]),
    h('h3', {}, `Events (${r?.events.length ?? 0})`),
    table(
      ['From', 'Keys', 'Data'],
      (r?.events ?? []).map((e: any) => [
        addrLink(n, e.from_address),
        e.keys.map((k: string) => short(k)).join(' '),
        e.data.map((k: string) => short(k)).join(' '),
      ]),
    ),
    h('h3', {}, `Messages to L1 (${r?.messages_sent.length ?? 0})`),
    table(
      ['From', 'To', 'Payload'],
      (r?.messages_sent ?? []).map((m: any) => [short(m.from_address), m.to_address, m.payload.join(' ')]),
    ),
  );
}

export async function rollupAddress(net: NetworkMeta, addr: string): Promise<HTMLElement> {
  const n = net.name;
  const [nonce, cls] = await batch(n, [
    ['starknet_getNonce', ['latest', addr]],
    ['starknet_getClassHashAt', ['latest', addr]],
  ]);
  return h(
    'section',
    {},
    h('h2', {}, 'Contract ', h('span', { class: 'muted' }, `on ${n}`)),
    fields([
      ['Address', 'address', addr],
      ['Class hash', 'classHash', cls?.result ?? cls?.error?.message ?? ''],
      ['Nonce', 'nonce', nonce?.result === undefined ? (nonce?.error?.message ?? '') : String(BigInt(nonce.result))],
    ]),
  );
}
