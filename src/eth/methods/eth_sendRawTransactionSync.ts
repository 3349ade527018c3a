import { bytesHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { gethBytes } from '../gethParams.js';
import { RpcError } from '../../rpc/errors.js';
import { waitForMined } from '../engine/mining/send.js';
import type { EthContext } from '../context.js';
import { receiptJson } from '../format/receipt.js';
import { numberOrQuantity } from './dev/params.js';

/** How long a sync send waits by default, and at most (EIP-7966 recommends 2 s). */
export const SYNC_SEND_DEFAULT_MS = 2_000;
export const SYNC_SEND_MAX_MS = 60_000;

/**
 * eth_sendRawTransactionSync (EIP-7966): sends a signed transaction and answers its receipt once it is mined,
 * waiting at most `timeout` milliseconds (default 2,000, at most 60,000); past that, error 4 with the hash in
 * `data`. With automine the receipt comes at once.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransactionSync","params":["0x02f8...", 5000]}
 */
export const eth_sendRawTransactionSync = defineMethod({
  name: 'eth_sendRawTransactionSync',
  params: [required('transaction', gethBytes), optional('timeout', numberOrQuantity)],
  handler: async (ctx: EthContext, raw, timeout) => {
    const ms = timeout === undefined || timeout <= 0n || timeout > BigInt(SYNC_SEND_MAX_MS) ? SYNC_SEND_DEFAULT_MS : Number(timeout);
    const sent = await ctx.node.sendRaw(raw);
    const block = sent.block ?? (await waitForMined(ctx.chain, sent.hash, ms));
    const found = block === undefined ? undefined : ctx.chain.transaction(sent.hash);
    if (found?.kind !== 'mined') throw new RpcError(4, `The transaction was added to the mempool but wasn't processed in ${ms}ms.`, bytesHex(sent.hash));
    return receiptJson(found.block, found.index);
  },
});
