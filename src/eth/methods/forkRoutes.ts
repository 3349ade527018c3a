/**
 * A fork's history at the JSON-RPC methods (docs/fork.md): blocks, transactions, receipts and logs up to the fork
 * block, and state at blocks before it, are the upstream's answers (through the fork's ForkHistory: cached, never
 * past the fork block); everything later is the fork's own and answered by its method table. Wraps the table's
 * `execute`, as the data directory's durability hook does (network.ts).
 */
import type { EthChain } from '../engine/chain/chain.js';
import type { ForkHistory, LogFilter } from '../engine/fork/forkHistory.js';
import { failure, type RpcCall, success } from '../../rpc/envelope.js';
import type { MethodTable } from '../../rpc/dispatch.js';
import { toRpcError } from '../../rpc/errors.js';
import { RawJson } from '../../rpc/rawJson.js';
import type { EthContext } from '../context.js';
import { FORK_OTS, forkOts } from './forkOts.js';

/** Methods whose block (by number, param index) at or before the fork block the upstream answers. */
const BY_NUMBER: Record<string, number> = {
  eth_getBlockByNumber: 0,
  eth_getBlockReceipts: 0,
  eth_getBlockTransactionCountByNumber: 0,
  eth_getTransactionByBlockNumberAndIndex: 0,
  eth_getRawTransactionByBlockNumberAndIndex: 0,
  eth_getUncleCountByBlockNumber: 0,
  eth_getUncleByBlockNumberAndIndex: 0,
  eth_getHeaderByNumber: 0,
  ots_getBlockDetails: 0,
  ots_getBlockTransactions: 0,
  debug_traceBlockByNumber: 0,
  trace_block: 0,
};

/** Methods whose block (by hash, param 0) the upstream answers when it is not one of the fork's own. */
const BY_HASH = new Set([
  'eth_getBlockByHash',
  'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getRawTransactionByBlockHashAndIndex',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getHeaderByHash',
  'ots_getBlockDetailsByHash',
  'debug_traceBlockByHash',
]);

/** Transaction lookups the upstream answers when the fork has no such transaction. */
const BY_TX = new Set([
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getRawTransactionByHash',
  'ots_traceTransaction',
  'ots_getTransactionError',
  'ots_getInternalOperations',
  'debug_traceTransaction',
  'trace_transaction',
]);

/** State reads (block param index) the upstream answers for a block before the fork block (the fork block's own state is local). */
const STATE_AT: Record<string, number> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
  eth_call: 1,
  eth_getAccount: 1,
  ots_hasCode: 1,
};

const quantity = (n: bigint) => `0x${n.toString(16)}`;

/** A block parameter's number when it names one by number (or `earliest`); undefined for tags, hashes, junk. */
function numberOf(id: unknown): bigint | undefined {
  if (id === 'earliest') return 0n;
  if (typeof id === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(id)) return BigInt(id);
  if (typeof id === 'object' && id !== null && typeof (id as { blockNumber?: unknown }).blockNumber === 'string') {
    return numberOf((id as { blockNumber: string }).blockNumber);
  }
  return undefined;
}

const bytes = (hex: string) => Buffer.from(hex.slice(2), 'hex');
const isHash = (v: unknown): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]{64}$/.test(v);

/** True for a block of the fork's own (after the fork block), by hash. */
function isOwnBlock(chain: EthChain, forkBlock: bigint, hash: string): boolean {
  const block = chain.blockByHash(bytes(hash));
  return block !== undefined && block.number > forkBlock;
}

/** Makes a network's table answer history up to the fork block from the upstream, while it serves a fork (`historyNow`). */
export function routeForkHistory(table: MethodTable<EthContext>, chain: EthChain, historyNow: () => ForkHistory | undefined): void {
  const execute = table.execute.bind(table);

  const upstream = async (history: ForkHistory, call: RpcCall, params: unknown[]): Promise<unknown> => {
    const forkBlock = history.blockNumber;
    const ownBlock = (hash: string) => isOwnBlock(chain, forkBlock, hash);
    const { method } = call;
    if (method in BY_NUMBER) {
      const n = numberOf(params[BY_NUMBER[method]!]);
      if (n === undefined || n > forkBlock) return undefined;
      return method === 'eth_getBlockByNumber' ? history.blockByNumber(n, params[1] === true) : history.request(method, params);
    }
    if (BY_HASH.has(method)) {
      if (!isHash(params[0]) || ownBlock(params[0])) return undefined;
      const block = await history.blockByHash(params[0], false);
      if (block === null) return undefined;
      return method === 'eth_getBlockByHash' ? history.blockByHash(params[0], params[1] === true) : history.request(method, params);
    }
    if (BY_TX.has(method)) {
      if (!isHash(params[0]) || chain.transaction(bytes(params[0])) !== undefined) return undefined;
      const tx = await history.transaction(params[0]);
      if (tx === null) return undefined;
      return method === 'eth_getTransactionByHash' ? tx : history.request(method, params);
    }
    if (method in STATE_AT) {
      const n = numberOf(params[STATE_AT[method]!]);
      if (n === undefined || n >= forkBlock) return undefined;
      return history.request(method, params);
    }
    return undefined;
  };

  table.execute = async (ctx, call) => {
    // The fork served now (anvil_reset with `forking` changes it; on a plain chain there is none).
    const history = historyNow();
    if (history === undefined) return execute(ctx, call);
    const id = call.id ?? null;
    const params = Array.isArray(call.params) ? (call.params as unknown[]) : [];
    try {
      if (call.method === 'eth_getLogs') return await logs(history, ctx, call, params);
      if (FORK_OTS.has(call.method)) {
        const answer = await forkOts(history, (method, p) => execute(ctx, { ...call, method, params: p }), call.method, params);
        return 'jsonrpc' in answer ? answer : success(id, answer.result);
      }
      const answer = await upstream(history, call, params);
      return answer === undefined ? execute(ctx, call) : success(id, answer);
    } catch (err) {
      return failure(id, toRpcError(err));
    }
  };

  /** eth_getLogs: the part of the range up to the fork block from the upstream, the rest from the fork. */
  async function logs(history: ForkHistory, ctx: EthContext, call: RpcCall, params: unknown[]) {
    const id = call.id ?? null;
    const forkBlock = history.blockNumber;
    const ownBlock = (hash: string) => isOwnBlock(chain, forkBlock, hash);
    const filter = (params[0] ?? {}) as LogFilter;
    if (typeof filter !== 'object' || filter === null) return execute(ctx, call);
    if (filter.blockHash !== undefined) {
      if (!isHash(filter.blockHash) || ownBlock(filter.blockHash)) return execute(ctx, call);
      return success(id, await history.logs(filter, 0n, forkBlock));
    }
    const head = chain.head().number;
    const from = filter.fromBlock === undefined ? head : (numberOf(filter.fromBlock) ?? head);
    const to = filter.toBlock === undefined ? head : (numberOf(filter.toBlock) ?? head);
    if (from > forkBlock || from > to) return execute(ctx, call);
    const older = await history.logs(filter, from, to);
    if (to <= forkBlock) return success(id, older);
    const newer = await execute(ctx, { ...call, params: [{ ...filter, fromBlock: quantity(forkBlock + 1n) }, ...params.slice(1)] });
    if ('error' in newer) return newer;
    const own = newer.result instanceof RawJson ? newer.result.text : JSON.stringify(newer.result);
    const upstreamText = JSON.stringify(older);
    // Both are JSON arrays: joined as text (the fork's own part stays as its method serialized it).
    if (older.length === 0) return newer;
    return success(id, new RawJson(own === '[]' ? upstreamText : `${upstreamText.slice(0, -1)},${own.slice(1)}`));
  }
}
