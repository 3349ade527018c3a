import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { addressParam, stateBlock } from '../params.js';
import { addressAt } from './reveals.js';

/**
 * ots_hasCode: whether an address has code at a block (default latest).
 * @example {"jsonrpc":"2.0","id":1,"method":"ots_hasCode","params":["0x5fbdb2315678afecb367f032d93f642f64180aa3","latest"]} -> true
 */
export const ots_hasCode = defineMethod({
  name: 'ots_hasCode',
  facts: { reveals: addressAt(0) },
  params: [required('address', addressParam), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, sel) => (await ctx.chain.getCode(address, await stateBlock(ctx.node, sel))).length > 0,
});
