import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';

/**
 * eth_accounts: the addresses of the chain's dev accounts (as anvil and hardhat list theirs).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_accounts","params":[]} -> ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", ...]
 */
export const eth_accounts = defineMethod({
  name: 'eth_accounts',
  params: [],
  handler: (ctx: EthContext) => ctx.chain.devAccounts().map((a) => a.address.toString()),
});
