import { Account } from '@ethereumjs/util';
import { InvalidArgument } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import { quantity } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';
import { addressAt } from '../reveals.js';

const MAX_BALANCE = (1n << 256n) - 1n;

/**
 * anvil_addBalance: adds wei to an address's balance (creating the account), on the writer as anvil_setBalance
 * edits it: reads at latest see it at once, the next block commits it. A sum past 2^256-1 is refused and changes
 * nothing. Answers null, as anvil.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_addBalance","params":["0x00000000000000000000000000000000000000c1","0xde0b6b3a7640000"]} -> null
 */
export const anvil_addBalance = defineMethod({
  name: 'anvil_addBalance',
  facts: { dev: true, persists: true, reveals: addressAt(0) },
  params: [required('address', addressParam), required('amount', quantity)],
  handler: async (ctx: EthContext, address, wei) => {
    await ctx.node.editState(async (state) => {
      const account = (await state.getAccount(address)) ?? new Account();
      const sum = account.balance + wei;
      if (sum > MAX_BALANCE) throw new InvalidArgument(`balance overflow: ${account.balance} + ${wei} is past 2^256-1`);
      account.balance = sum;
      await state.putAccount(address, account);
    });
    return null;
  },
});
