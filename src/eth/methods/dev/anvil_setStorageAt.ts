import { InvalidArgument } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import { hexData, quantity } from '../../../rpc/params.js';
import { setStorageAt } from '../../engine/control/stateEdits.js';
import type { EthContext } from '../../context.js';
import { addressParam } from '../../params.js';
import { addressAt } from '../reveals.js';

/** A storage slot as a quantity or up to 32 bytes of hex (test tools send both). */
const slotParam = (value: unknown): Uint8Array => {
  const bytes = typeof value === 'string' && /^0x0[0-9a-fA-F]/.test(value) ? hexData(value) : bigintBytes(quantity(value));
  if (bytes.length > 32) throw new InvalidArgument('a storage slot is at most 32 bytes');
  return bytes;
};
/** A 32-byte value (shorter is padded on the left). */
const valueParam = (value: unknown): Uint8Array => {
  const bytes = hexData(value);
  if (bytes.length > 32) throw new InvalidArgument(`a storage value is at most 32 bytes, got ${bytes.length}`);
  return bytes;
};
const bigintBytes = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

/**
 * anvil_setStorageAt (also hardhat_setStorageAt): sets one storage slot of an address to a 32-byte value.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_setStorageAt","params":["0x5fbdb2315678afecb367f032d93f642f64180aa3","0x0","0x0000000000000000000000000000000000000000000000000000000000000001"]} -> true
 */
export const anvil_setStorageAt = defineMethod({
  name: 'anvil_setStorageAt',
  facts: { dev: true, persists: true, reveals: addressAt(0) },
  params: [required('address', addressParam), required('slot', slotParam), required('value', valueParam)],
  handler: async (ctx: EthContext, address, slot, value) => {
    await ctx.node.editState(setStorageAt(address, slot, value));
    return true;
  },
});

/** hardhat_setStorageAt: the same as anvil_setStorageAt. */
export const hardhat_setStorageAt = { ...anvil_setStorageAt, name: 'hardhat_setStorageAt' };
