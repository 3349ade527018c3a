/**
 * Otterscan's searches on a fork (docs/fork.md): ots_searchTransactionsBefore/After, ots_getContractCreator and
 * ots_getTransactionBySenderAndNonce answer from the fork's own blocks (after the fork block) and, for the part at or
 * before the fork block, from the upstream's own ots_ answers (through ForkHistory: cached, and never past the fork
 * block: an upstream page's transactions after it are dropped). The two parts are joined as Erigon pages: whole
 * blocks, newest first. An upstream without ots_ methods (most hosted gateways) fails the request with -32000 naming
 * the method and the fork block, unless the fork's own blocks answer it alone. Block numbers and nonces go upstream as
 * JSON numbers, as Otterscan sends them (Erigon's uint64 params take no quantity).
 */
import type { ForkHistory } from '../engine/fork/forkHistory.js';
import { UpstreamError } from '../engine/fork/upstream.js';
import type { RpcResponse } from '../../rpc/envelope.js';
import { RawJson } from '../../rpc/rawJson.js';

/** The methods forkOts answers on a fork. */
export const FORK_OTS = new Set([
  'ots_searchTransactionsBefore',
  'ots_searchTransactionsAfter',
  'ots_getContractCreator',
  'ots_getTransactionBySenderAndNonce',
]);

type Json = Record<string, unknown>;

interface Page {
  txs: Json[];
  receipts: Json[];
  firstPage: boolean;
  lastPage: boolean;
}

/** A local call's error: its response is the request's answer as it is. */
class LocalFailure extends Error {
  constructor(readonly response: RpcResponse) {
    super('local call failed');
  }
}

/** Runs a method on the fork's own chain (its method table), giving its result. */
export type LocalCall = (method: string, params: unknown[]) => Promise<RpcResponse>;

const quantity = (n: bigint) => `0x${n.toString(16)}`;

/** A number param as the ots_ methods take it (a JSON number or a quantity); the local call has validated it. */
function num(v: unknown): bigint {
  return typeof v === 'number' ? BigInt(v) : BigInt(v as string);
}

/** The JSON value of a result (a RawJson parsed back). */
const plain = (v: unknown): unknown => (v instanceof RawJson ? JSON.parse(v.text) : v);

/**
 * The answer of `method` on a fork at `history`'s block, or a local failure's response. `local` runs a call on the
 * fork's own blocks.
 */
export async function forkOts(history: ForkHistory, local: LocalCall, method: string, params: unknown[]): Promise<RpcResponse | { result: unknown }> {
  const mine = async (m: string, p: unknown[]): Promise<unknown> => {
    const r = await local(m, p);
    if ('error' in r) throw new LocalFailure(r);
    return plain(r.result);
  };
  try {
    return { result: await answer(history, mine, method, params) };
  } catch (err) {
    if (err instanceof LocalFailure) return err.response;
    throw err;
  }
}

async function answer(history: ForkHistory, mine: (m: string, p: unknown[]) => Promise<unknown>, method: string, params: unknown[]): Promise<unknown> {
  const forkBlock = history.blockNumber;
  // The local call first: it validates the params and answers the fork's own blocks.
  const own = await mine(method, params);
  const upstream = async <T>(m: string, p: unknown[]): Promise<T> => {
    try {
      return await history.request<T>(m, p);
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      throw new UpstreamError(`${method} needs the fork upstream's history up to the fork block ${forkBlock}, and ${err.message}`);
    }
  };
  const [address] = params as [string];
  if (method === 'ots_getContractCreator') {
    if (own !== null) return own;
    // Created at or before the fork block: the contract has code there (and still at head).
    const at = (await mine('eth_getCode', [address, quantity(forkBlock)])) as string;
    const now = (await mine('eth_getCode', [address, 'latest'])) as string;
    if (at === '0x' || now === '0x') return null;
    const found = await upstream<{ hash: string } | null>(method, [address]);
    if (found === null) return null;
    if ((await history.transaction(found.hash)) === null) {
      throw new UpstreamError(`the fork upstream names ${found.hash} as the creator of ${address}, a transaction after the fork block ${forkBlock}`);
    }
    return found;
  }
  if (method === 'ots_getTransactionBySenderAndNonce') {
    if (own !== null) return own;
    const nonce = num(params[1]);
    const count = BigInt((await mine('eth_getTransactionCount', [address, quantity(forkBlock)])) as string);
    return count > nonce ? upstream(method, [address, Number(nonce)]) : null;
  }
  const size = Number(num(params[2]));
  const page = own as Page;
  if (method === 'ots_searchTransactionsBefore') {
    const before = num(params[1]);
    if (before !== 0n && before <= forkBlock + 1n) return upstream(method, [address, Number(before), size]);
    if (page.txs.length < size) {
      // The page reached the fork block: the upstream's blocks up to it fill the rest.
      const up = await upstream<Page>(method, [address, Number(forkBlock + 1n), size - page.txs.length]);
      return join(page, up, page.firstPage, up.lastPage);
    }
    if (!page.lastPage) return page;
    const probe = await upstream<Page>(method, [address, Number(forkBlock + 1n), 1]).catch(() => undefined);
    return { ...page, lastPage: probe !== undefined && probe.txs.length === 0 };
  }
  // ots_searchTransactionsAfter
  const after = num(params[1]);
  if (after >= forkBlock) return page;
  const pre = await upToFork(upstream, address, after, size, forkBlock);
  if (pre.txs.length < size) {
    // The upstream's part is complete (a page short of `size`, or one holding later blocks than the fork block).
    const rest = pre.txs.length === 0 ? page : ((await mine(method, [address, quantity(forkBlock), size - pre.txs.length])) as Page);
    return join(rest, pre.page, rest.firstPage, after === 0n);
  }
  // A full page from the upstream: anything newer is either the upstream's up to the fork block or the fork's own.
  const newest = pre.txs.reduce((m, t) => (num(t.blockNumber) > m ? num(t.blockNumber) : m), 0n);
  const more = pre.complete ? [] : (await upToFork(upstream, address, newest, 1, forkBlock)).txs;
  return { ...pre.page, firstPage: more.length === 0 && page.txs.length === 0, lastPage: after === 0n };
}

/** The upstream's After page, without its transactions past the fork block; `complete`: nothing else up to it. */
async function upToFork(upstream: <T>(m: string, p: unknown[]) => Promise<T>, address: string, after: bigint, size: number, forkBlock: bigint) {
  const up = await upstream<Page>('ots_searchTransactionsAfter', [address, Number(after), size]);
  const keep = up.txs.map((t) => num(t.blockNumber) <= forkBlock);
  const txs = up.txs.filter((_, i) => keep[i]);
  const receipts = up.receipts.filter((_, i) => keep[i]);
  const complete = up.firstPage || txs.length < up.txs.length;
  return { txs, complete, page: { txs, receipts, firstPage: false, lastPage: false } as Page };
}

/** A newer page and an older one as one page, newest first. */
function join(newer: Page, older: Pick<Page, 'txs' | 'receipts'>, firstPage: boolean, lastPage: boolean): Page {
  return { txs: [...newer.txs, ...older.txs], receipts: [...newer.receipts, ...older.receipts], firstPage, lastPage };
}
