import { defineMethod } from '../../rpc/method.js';
import { toChecksumAddress } from '@ethereumjs/util';
import type { EthContext } from '../context.js';
import type { PendingTx } from '../engine/chain/types.js';
import { feeCaps } from '../engine/mining/pool.js';
import { byAddressAndNonce, viewOf } from './txpool.js';

/**
 * txpool_inspect: a one-line summary of each pool transaction, as geth: "<to>: <value> wei + <gas> gas × <fee cap> wei"
 * ("contract creation: ..." without a recipient).
 * @example {"jsonrpc":"2.0","id":1,"method":"txpool_inspect","params":[]} -> {"pending":{"0xf39F...":{"5":"0x0000...00c1: 1 wei + 21000 gas × 2000000000 wei"}},"queued":{}}
 */
export const txpool_inspect = defineMethod({
  name: 'txpool_inspect',
  params: [],
  handler: async (ctx: EthContext) => {
    const view = await viewOf(ctx);
    const line = (p: PendingTx) =>
      `${p.tx.to === undefined ? 'contract creation' : toChecksumAddress(p.tx.to.toString())}: ${p.tx.value} wei + ${p.tx.gasLimit} gas × ${feeCaps(p.tx).feeCap} wei`;
    return { pending: byAddressAndNonce(view.pending, line), queued: byAddressAndNonce(view.queued, line) };
  },
});
