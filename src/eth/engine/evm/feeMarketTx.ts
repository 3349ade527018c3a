/**
 * An EIP-1559 transaction made without @ethereumjs's constructor where that constructor surely accepts the fields:
 * the same own fields, in the same order, on the same prototype (`tx/dist/esm/1559/tx.js`'s constructor and
 * `util/internal.js`'s sharedConstructor, pinned by the fence test). The constructor copies the Common and merges the
 * transaction params into it (JSON round trips), turns every bigint into bytes and back, and checks each bound; a
 * call's estimate makes one transaction per run and a fill one more (~4% of an eth_fillTransaction's CPU each).
 * Anything the checks might refuse (a creation, an access list, a value near a bound, a chain id other than the
 * Common's, a gas limit over EIP-7825's cap) goes to the stock constructor, so its errors are unchanged; so does
 * everything while the fast path is off (gate.ts).
 */
import type { Common } from '@ethereumjs/common';
import { createFeeMarket1559Tx, FeeMarket1559Tx, paramsTx, TransactionType, type TxOptions } from '@ethereumjs/tx';
import { Address, MAX_INTEGER, MAX_UINT64 } from '@ethereumjs/util';
import { gate } from './gate.js';

/** What a light transaction may be made of (a message call: `to` set; no access list, signature or authorizations). */
export interface FeeMarketFields {
  readonly nonce: bigint;
  readonly gasLimit: bigint;
  readonly to: Address | undefined;
  readonly value: bigint;
  readonly data: Uint8Array;
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
  readonly accessList: readonly unknown[];
  readonly chainId?: bigint;
}

/** Each Common's copy with the transaction params merged, as the constructor makes one per transaction (by hardfork). */
const txCommons = new WeakMap<Common, { hardfork: string; common: Common }>();

function txCommon(common: Common): Common {
  const hardfork = common.hardfork();
  const known = txCommons.get(common);
  if (known !== undefined && known.hardfork === hardfork) return known.common;
  const copy = common.copy();
  copy.updateParams(paramsTx);
  txCommons.set(common, { hardfork, common: copy });
  return copy;
}

/** Whether the stock constructor surely accepts these fields (so the light one makes the same object). */
function accepted(f: FeeMarketFields, common: Common): boolean {
  // Off with the fast path (an untested @ethereumjs version, DEVGATE_EVM_FAST_PATH=0): every transaction stock.
  if (!gate.on) return false;
  if (f.to === undefined || f.accessList.length !== 0 || !common.isActivatedEIP(1559)) return false;
  if (f.chainId !== undefined && f.chainId !== common.chainId()) return false;
  if (f.nonce < 0n || f.nonce >= MAX_UINT64 || f.gasLimit < 0n || f.gasLimit > MAX_UINT64) return false;
  if (f.value < 0n || f.value > MAX_INTEGER || f.maxPriorityFeePerGas < 0n || f.maxFeePerGas < f.maxPriorityFeePerGas) return false;
  if (f.maxFeePerGas > MAX_INTEGER || f.gasLimit * f.maxFeePerGas > MAX_INTEGER) return false;
  // The cap is a transaction param: read on the copy that has them merged, as the constructor reads it.
  if (common.isActivatedEIP(7825) && !common.isActivatedEIP(8037) && f.gasLimit > txCommon(common).param('maxTransactionGasLimit')) return false;
  return true;
}

/**
 * `createFeeMarket1559Tx(fields, opts)`, lighter where it surely succeeds (see the module comment). The
 * transaction's Common is shared by the light transactions of the same Common and hardfork: never change it.
 */
export function feeMarketTx(f: FeeMarketFields, opts: TxOptions & { common: Common }): FeeMarket1559Tx {
  const common = opts.common;
  if (!accepted(f, common)) return createFeeMarket1559Tx(f as never, opts);
  const tx = Object.create(FeeMarket1559Tx.prototype) as Record<string, unknown>;
  // The constructor's assignments, in its order (one hidden class with the stock objects).
  tx.type = TransactionType.FeeMarketEIP1559;
  tx.cache = {};
  tx.activeCapabilities = [];
  tx.common = txCommon(common);
  tx.txOptions = opts;
  tx.to = new Address(f.to!.toBytes());
  tx.nonce = f.nonce;
  tx.gasLimit = f.gasLimit;
  tx.value = f.value;
  tx.data = f.data;
  tx.v = undefined;
  tx.r = undefined;
  tx.s = undefined;
  tx.chainId = common.chainId();
  tx.activeCapabilities = [1559, 2718, 2930];
  tx.accessList = [];
  tx.maxFeePerGas = f.maxFeePerGas;
  tx.maxPriorityFeePerGas = f.maxPriorityFeePerGas;
  if (opts.freeze ?? true) Object.freeze(tx);
  return tx as unknown as FeeMarket1559Tx;
}
