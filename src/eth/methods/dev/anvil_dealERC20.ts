import { hexToBytes } from '@ethereumjs/util';
import { ANY_ACCOUNT, defineMethod, required, type Revealed } from '../../../rpc/method.js';
import { quantity } from '../../../rpc/params.js';
import { setStorageAt } from '../../engine/control/stateEdits.js';
import { findUintSlot, uintWord } from '../../engine/query/erc20Slot.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';

/** The address strings at these positions (the accounts named and the token whose code runs). */
export const addressesAt =
  (...positions: number[]) =>
  (params: unknown): Revealed => {
    if (!Array.isArray(params)) return ANY_ACCOUNT;
    const out: string[] = [];
    for (const i of positions) {
      if (typeof params[i] !== 'string') return ANY_ACCOUNT;
      out.push(params[i]);
    }
    return out;
  };

const BALANCE_OF = '0x70a08231';
const pad = (hex: string) => hex.slice(2).padStart(64, '0');

/**
 * anvil_dealERC20: sets an account's balance of an ERC-20 token, as anvil does: `balanceOf(account)` runs under
 * prestateTracer to list the token's slots it reads, each is tried with a state override, and the one that moves the
 * answer is set (an edit of head's state, as anvil_setStorageAt: the next block commits it). A token that keeps
 * balances otherwise (rebasing shares): -32000 naming it, and nothing changes. The total supply is not touched, as anvil.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_dealERC20","params":["0x70997970c51812dc3a010c7d01b50e0d17dc79c8","0x5fbdb2315678afecb367f032d93f642f64180aa3","0xde0b6b3a7640000"]} -> null
 */
export const anvil_dealERC20 = defineMethod({
  name: 'anvil_dealERC20',
  facts: { dev: true, persists: true, heavy: true, reveals: addressesAt(0, 1) },
  params: [required('address', addressParam), required('token', addressParam), required('balance', quantity)],
  handler: async (ctx: EthContext, account, token, amount) => {
    const value = uintWord(amount);
    const data = hexToBytes(`${BALANCE_OF}${pad(account.toString())}`);
    const slot = await findUintSlot(ctx.chain, ctx.chain.head(), token, data, `balanceOf(${account.toString()})`);
    await ctx.node.editState(setStorageAt(token, slot, value));
    return null;
  },
});
