/**
 * geth's RPC fee cap (`--rpc.txfeecap`, 1 ether by default; internal/ethapi/api.go checkTxFee): a transaction sent
 * over RPC whose fee (its gas price, or fee cap, times its gas limit) is over the cap is refused before the pool
 * sees it, `tx fee (2.00 ether) exceeds the configured cap (1.00 ether)`. 0 turns it off.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { feeCaps } from './pool.js';
import { TxRejected } from './txRejected.js';

const ETHER = 10n ** 18n;

/** Go's `%.2f` of a float64: the nearest two-decimal value, a tie (exact in binary) to the even one. */
export function goFixed2(x: number): string {
  const scaled = x * 100;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5 && Number.isSafeInteger(floor)) return ((floor % 2 === 0 ? floor : floor + 1) / 100).toFixed(2);
  return x.toFixed(2);
}

/** Throws geth's refusal when `tx`'s fee is over `capEther` (a float, as geth's flag); nothing with cap 0. */
export function checkTxFee(tx: TypedTransaction, capEther: number): void {
  checkFee(feeCaps(tx).feeCap, tx.gasLimit, capEther);
}

/** checkTxFee of a gas price (or fee cap) and a gas limit. */
export function checkFee(gasPrice: bigint, gas: bigint, capEther: number): void {
  if (capEther === 0) return;
  const fee = gasPrice * gas;
  // As geth: the fee in ether as a float64, compared with the float cap.
  const whole = fee / ETHER;
  const feeEther = Number(whole) + Number(fee - whole * ETHER) / 1e18;
  if (feeEther > capEther) throw new TxRejected(`tx fee (${goFixed2(feeEther)} ether) exceeds the configured cap (${goFixed2(capEther)} ether)`);
}
