/**
 * Signing by the chain's dev accounts: EIP-191 messages (eth_sign, personal_sign) and EIP-712 typed data
 * (eth_signTypedData_v4), deterministic (RFC 6979, no extra entropy), so byte-identical to viem's and ethers'
 * local signers. micro-eth-signer loads on first use.
 */
import { bytesToHex, type Address } from '@ethereumjs/util';
import { DevgateError, InvalidArgument } from '../../../errors.js';
import type { EthChain } from '../chain/chain.js';

/** The private key of a dev account, or a clear error. */
export function devKey(chain: EthChain, address: Address): Uint8Array {
  const account = chain.devAccounts().find((a) => a.address.equals(address));
  if (account === undefined)
    throw new DevgateError(`unknown account ${address.toString()}: devgate signs only for its dev accounts (eth_accounts); impersonate it to send from it`);
  return account.privateKey;
}

/** An EIP-191 signature ("\x19Ethereum Signed Message:\n" + length + message) of `message` by a dev account. */
export async function signMessage(chain: EthChain, address: Address, message: Uint8Array): Promise<string> {
  const { eip191Signer } = await import('micro-eth-signer');
  return eip191Signer.sign(message, bytesToHex(devKey(chain, address)), false);
}

/** An EIP-712 signature of typed data (`{ types, primaryType, domain, message }`) by a dev account. */
export async function signTypedData(chain: EthChain, address: Address, typed: unknown): Promise<string> {
  const { signTyped } = await import('micro-eth-signer');
  const key = devKey(chain, address);
  try {
    return signTyped(typed as never, bytesToHex(key), false);
  } catch (err) {
    throw new InvalidArgument(`invalid typed data: ${(err as Error).message}`);
  }
}
