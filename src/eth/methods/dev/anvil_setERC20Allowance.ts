import { hexToBytes } from '@ethereumjs/util';
import { defineMethod, required } from '../../../rpc/method.js';
import { quantity } from '../../../rpc/params.js';
import { setStorageAt } from '../../engine/control/stateEdits.js';
import { findUintSlot, uintWord } from '../../engine/query/erc20Slot.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';
import { addressesAt } from './anvil_dealERC20.js';

const ALLOWANCE = '0xdd62ed3e';
const pad = (hex: string) => hex.slice(2).padStart(64, '0');

/**
 * anvil_setERC20Allowance: sets what `spender` may take of `owner`'s ERC-20 tokens, found as anvil_dealERC20 finds a
 * balance (allowance(owner, spender) traced, its slots tried with overrides), then set on head's state.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setERC20Allowance","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","0x70997970c51812dc3a010c7d01b50e0d17dc79c8","0x5fbdb2315678afecb367f032d93f642f64180aa3","0x64"]} -> null
 */
export const anvil_setERC20Allowance = defineMethod({
  name: 'anvil_setERC20Allowance',
  facts: { dev: true, persists: true, heavy: true, reveals: addressesAt(0, 1, 2) },
  params: [required('owner', addressParam), required('spender', addressParam), required('token', addressParam), required('amount', quantity)],
  handler: async (ctx: EthContext, owner, spender, token, amount) => {
    const value = uintWord(amount);
    const data = hexToBytes(`${ALLOWANCE}${pad(owner.toString())}${pad(spender.toString())}`);
    const slot = await findUintSlot(ctx.chain, ctx.chain.head(), token, data, `allowance(${owner.toString()}, ${spender.toString()})`);
    await ctx.node.editState(setStorageAt(token, slot, value));
    return null;
  },
});
