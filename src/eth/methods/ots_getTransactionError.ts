import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import { hash32 } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { callTreeOf } from '../engine/query/otsTraces.js';
import { minedTx } from './otsParams.js';
import { revealsAny } from './reveals.js';

/**
 * ots_getTransactionError: the revert data of a mined transaction that failed (what Otterscan decodes into its
 * reason), `0x` when it succeeded or failed without data. Unknown transaction: -32000 "transaction not found".
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_getTransactionError","params":["0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b"]}
 */
export const ots_getTransactionError = defineMethod({
  name: 'ots_getTransactionError',
  facts: { heavy: true, reveals: revealsAny },
  params: [required('transactionHash', hash32)],
  handler: async (ctx: EthContext, hash) => {
    const { block, index } = minedTx(ctx, hash);
    const receipt = block.receiptAt?.(index) ?? block.receipts[index]!;
    if (receipt.status !== 0) return '0x';
    const top = await callTreeOf(ctx.chain, block, index);
    return top.error === undefined ? '0x' : bytesHex(top.output ?? new Uint8Array());
  },
});
