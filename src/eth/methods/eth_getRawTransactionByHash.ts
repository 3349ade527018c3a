import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { pooledTxBytes, txBytesAt } from '../engine/chain/rawBytes.js';
import { gethHash } from '../gethParams.js';

/**
 * eth_getRawTransactionByHash: a transaction's bytes by hash, as debug_getRawTransaction (a mined one as its block
 * carries it, a pooled one as geth's pool gives it); null when unknown (SPEC 7; geth answers `"0x"`).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getRawTransactionByHash","params":["0xc1d605c6612a5fe84dc95810030bfe5b1d327652b381bc695e28f50d13b2b09e"]}
 */
export const eth_getRawTransactionByHash = defineMethod({
  name: 'eth_getRawTransactionByHash',
  params: [required('transactionHash', gethHash)],
  handler: (ctx: EthContext, hash) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined) return null;
    if (found.kind === 'pending') return bytesHex(pooledTxBytes(found.pending.tx));
    return bytesHex(txBytesAt(found.block, found.index)!);
  },
});
