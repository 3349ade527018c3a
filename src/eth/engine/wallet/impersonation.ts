/**
 * Impersonation (anvil_impersonateAccount, hardhat_impersonateAccount, anvil_autoImpersonateAccount): eth_sendTransaction
 * from an address devgate holds no key for. Such a transaction carries a stand-in signature (r = the sender's
 * address + 1, s = 1, y-parity 0), so its hash is stable and distinct (it covers sender and nonce), and answers
 * the impersonated sender instead of recovering one from that signature. It is mined as any other.
 */
import type { Common } from '@ethereumjs/common';
import { createTx, type TxData, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt, type Address } from '@ethereumjs/util';

export class Impersonation {
  private readonly addresses = new Set<string>();
  /** anvil_autoImpersonateAccount: every address may send. */
  auto = false;

  start(address: Address): void {
    this.addresses.add(address.toString());
  }

  /** Ends impersonating an address; whether it was impersonated. */
  stop(address: Address): boolean {
    return this.addresses.delete(address.toString());
  }

  has(address: Address): boolean {
    return this.auto || this.addresses.has(address.toString());
  }

  /** For a snapshot: the impersonated addresses and the auto flag. */
  state(): { readonly addresses: readonly string[]; readonly auto: boolean } {
    return { addresses: [...this.addresses], auto: this.auto };
  }

  restore(state: { readonly addresses: readonly string[]; readonly auto: boolean }): void {
    this.addresses.clear();
    for (const a of state.addresses) this.addresses.add(a);
    this.auto = state.auto;
  }
}

/** A transaction from `sender` with the stand-in signature; it answers `sender` as its sender. */
export function impersonatedTx(data: TxData[keyof TxData], common: Common, sender: Address): TypedTransaction {
  const r = bytesToBigInt(sender.bytes) + 1n;
  const legacyV = (data as { type?: number }).type === undefined || Number((data as { type?: unknown }).type ?? 0) === 0 ? common.chainId() * 2n + 35n : 0n;
  return asImpersonated(createTx({ ...(data as object), v: legacyV, r, s: 1n } as never, { common, freeze: false }), sender);
}

/** Whether `tx` carries the stand-in signature of an impersonated `sender` (e.g. a pooled transaction read back from a dump). */
export function hasStandInSignature(tx: TypedTransaction, sender: Address): boolean {
  return tx.s === 1n && tx.r === bytesToBigInt(sender.bytes) + 1n;
}

/** Makes an unfrozen `tx` with the stand-in signature answer `sender` as its sender. */
export function asImpersonated(tx: TypedTransaction, sender: Address): TypedTransaction {
  Object.defineProperty(tx, 'getSenderAddress', { value: () => sender });
  Object.defineProperty(tx, 'getSenderPublicKey', {
    value: () => {
      throw new Error(`transaction from impersonated ${sender.toString()} has no recoverable signature`);
    },
  });
  return tx;
}
