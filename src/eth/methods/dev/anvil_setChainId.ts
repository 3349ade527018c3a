import { DevgateError } from '../../../errors.js';
import { defineMethod, optional } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';

/**
 * anvil_setChainId: refused. The gateway's networks keep the chain ids of the networks they emulate; a seed file
 * sets another (`chainId`).
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setChainId","params":[1337]} -> error -32000
 */
export const anvil_setChainId = defineMethod({
  name: 'anvil_setChainId',
  facts: { dev: true, persists: true },
  params: [optional('chainId', (v: unknown) => v)],
  handler: (ctx: EthContext, _chainId) => {
    throw new DevgateError(`the chain id of ${ctx.networkName} is fixed (${ctx.chain.chainId}); give a seed file with another chainId to serve another`);
  },
});
