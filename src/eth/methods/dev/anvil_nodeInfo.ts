import { quantityHex, bytesHex } from '../../../hex.js';
import { defineMethod } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { suggestGasPrice } from '../../engine/query/fees.js';

/**
 * anvil_nodeInfo: the head, the hardfork, the transaction order and the block environment, in anvil's shape.
 * devgate orders the pool by effective tip (anvil's `fees`) and forks nothing (`forkConfig` all null).
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_nodeInfo","params":[]} -> {"currentBlockNumber":"0x0","hardFork":"Osaka",...}
 */
export const anvil_nodeInfo = defineMethod({
  name: 'anvil_nodeInfo',
  facts: { dev: true },
  params: [],
  handler: (ctx: EthContext) => {
    const head = ctx.chain.head();
    const hardfork = ctx.chain.commonAt(head.number, head.header.timestamp).hardfork();
    return {
      currentBlockNumber: quantityHex(head.number),
      currentBlockTimestamp: Number(head.header.timestamp),
      currentBlockHash: bytesHex(head.hash),
      hardFork: hardfork.charAt(0).toUpperCase() + hardfork.slice(1),
      transactionOrder: 'fees',
      environment: {
        baseFee: quantityHex(head.header.baseFeePerGas ?? 0n),
        chainId: Number(ctx.chain.chainId),
        gasLimit: quantityHex(head.header.gasLimit),
        gasPrice: quantityHex(suggestGasPrice(ctx.chain)),
      },
      forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    };
  },
});
