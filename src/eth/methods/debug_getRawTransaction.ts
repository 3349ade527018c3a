import { bytesHex } from '../../hex.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { pooledTxBytes, txBytesAt } from '../engine/chain/rawBytes.js';
import { gethHash } from '../gethParams.js';

/**
 * debug_getRawTransaction: a transaction's bytes by hash (a legacy one's RLP, a typed one's type byte and RLP):
 * a mined one as its block carries it, a pooled one as geth's pool gives it (a blob transaction with its blobs);
 * null when unknown (SPEC 7; geth answers `"0x"`, an artefact of Go's nil slice that geth PR 35227 removes).
 * @example {"jsonrpc":"2.0","id":1,"method":"debug_getRawTransaction","params":["0xc1d605c6612a5fe84dc95810030bfe5b1d327652b381bc695e28f50d13b2b09e"]}
 */
export const debug_getRawTransaction = defineMethod({
  name: 'debug_getRawTransaction',
  params: [required('transactionHash', gethHash)],
  handler: (ctx: EthContext, hash) => {
    const found = ctx.chain.transaction(hash);
    if (found === undefined) return null;
    if (found.kind === 'pending') return bytesHex(pooledTxBytes(found.pending.tx));
    return bytesHex(txBytesAt(found.block, found.index)!);
  },
});
