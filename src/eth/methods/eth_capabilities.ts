import { bytesHex, quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';

/**
 * eth_capabilities (geth; execution-apis PR 755): which history the node serves, for RPC routers. devgate keeps
 * everything from genesis (every block, receipt, log and state root; nothing pruned or deleted), so each resource
 * is `{"disabled": false, "oldestBlock": "0x0"}` with no deleteStrategy, as geth answers for an archive node
 * with full history and unbounded indexes.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_capabilities","params":[]}
 */
export const eth_capabilities = defineMethod({
  name: 'eth_capabilities',
  params: [],
  handler: (ctx: EthContext) => {
    const head = ctx.chain.head();
    const all = () => ({ disabled: false, oldestBlock: quantityHex(0) });
    return {
      head: { number: quantityHex(head.number), hash: bytesHex(head.hash) },
      state: all(),
      tx: all(),
      logs: all(),
      receipts: all(),
      blocks: all(),
      stateproofs: all(),
    };
  },
});
