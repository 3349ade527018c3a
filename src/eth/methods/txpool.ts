/** What the txpool_ methods share: the pool split into pending and queued (geth's view), keyed as geth keys it. */
import { toChecksumAddress, type Address } from '@ethereumjs/util';
import type { PendingTx } from '../engine/chain/types.js';
import { poolView, type PoolView } from '../engine/mining/pool.js';
import type { EthContext } from '../context.js';

/** The pool split as geth shows it, from head's account nonces. */
export function viewOf(ctx: EthContext): Promise<PoolView> {
  const head = ctx.chain.head();
  return poolView(ctx.chain.pendingTransactions(), async (sender: Address) => (await ctx.chain.getAccount(sender, head))?.nonce ?? 0n);
}

/** geth's keying: EIP-55 address -> decimal nonce -> value. */
export function byAddressAndNonce<T>(groups: Map<string, PendingTx[]>, value: (p: PendingTx) => T): Record<string, Record<string, T>> {
  const out: Record<string, Record<string, T>> = {};
  for (const [address, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const nonces: Record<string, T> = {};
    for (const p of list) nonces[p.tx.nonce.toString(10)] = value(p);
    out[toChecksumAddress(address)] = nonces;
  }
  return out;
}
