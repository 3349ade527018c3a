import { defineMethod } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { eth_accounts } from './eth_accounts.js';

/**
 * eth_requestAccounts (EIP-1102): what a wallet answers once the user connects, here at once: the chain's dev
 * accounts, as eth_accounts (anvil answers it so).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_requestAccounts","params":[]} -> ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", ...]
 */
export const eth_requestAccounts = defineMethod({
  name: 'eth_requestAccounts',
  params: [],
  handler: (ctx: EthContext) => eth_accounts.handler(ctx),
});
