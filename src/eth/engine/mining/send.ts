/**
 * The checks of a transaction sent to an eth network: admitted to the pool (or refused, leaving nothing behind), with
 * the pool entries it replaces or evicts. Pure checks: the node (src/eth/node/) pools, mines and drops, on its writer.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex } from '@ethereumjs/util';
import { TxRejected } from './txRejected.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock, PendingTx } from '../chain/types.js';
import { checkTransaction, poolView } from './pool.js';
import { checkTxSize, GETH_POOL_LIMITS, makeRoom, type PoolEntry, type PoolLimits } from './poolLimits.js';
import { checkTxFee } from './txFeeCap.js';
import type { Miner } from './miner.js';

export { TxRejected } from './txRejected.js';

/** What admitting a transaction takes out of the pool: the entry it replaces (same sender and nonce), or those evicted to make room. */
export interface Admitted {
  readonly replaced?: PendingTx;
  readonly evict: readonly PendingTx[];
}

/** Checks a transaction before it enters the pool; throws TxRejected with the reason; changes nothing. */
export type Admission = (chain: EthChain, tx: TypedTransaction, sender: Address) => Promise<Admitted>;

/** What the pool accepts beyond geth's rules (anvil_setMinGasPrice, --allow-unprotected-txs). */
export interface PoolSettings {
  minTip: bigint;
  allowUnprotected: boolean;
  /** geth's --rpc.txfeecap in ether (txFeeCap.ts); 0 or undefined: none. */
  txFeeCap?: number;
  /** The pool's size limits (poolLimits.ts); undefined: geth's. */
  limits?: () => PoolLimits;
}

/**
 * geth's txpool checks (pool.ts) at head, for the next block the miner would seal, and its size limits
 * (poolLimits.ts): a new transaction that needs room evicts the cheapest of other senders' (dropped, and said so).
 */
export function poolAdmission(
  miner: Miner,
  settings: PoolSettings = { minTip: 0n, allowUnprotected: false },
  limits: () => PoolLimits = settings.limits ?? (() => GETH_POOL_LIMITS),
): Admission {
  return async (chain, tx, sender) => {
    // geth's SubmitTransaction checks the fee cap before the pool sees the transaction.
    checkTxFee(tx, settings.txFeeCap ?? 0);
    checkTxSize(tx, limits());
    const account = await chain.getAccount(sender, chain.head());
    const replaced = checkTransaction(tx, sender, chain.pendingTransactions(), {
      chainId: chain.chainId,
      nonce: account?.nonce ?? 0n,
      balance: account?.balance ?? 0n,
      baseFee: miner.nextBaseFee(),
      blockGasLimit: miner.nextGasLimit(),
      minTip: settings.minTip,
      allowUnprotected: settings.allowUnprotected,
    });
    if (replaced !== undefined) return { replaced, evict: [] };
    return { evict: await roomFor(chain, tx, sender, limits()) };
  };
}

/** The pool entries to evict to make room for a new transaction within the pool's limits (or TxRejected). */
async function roomFor(chain: EthChain, tx: TypedTransaction, sender: Address, limits: PoolLimits): Promise<readonly PendingTx[]> {
  const pool = chain.pendingTransactions();
  if (pool.length === 0) return [];
  const nonceOf = async (a: Address) => (await chain.getAccount(a, chain.head()))?.nonce ?? 0n;
  const { pending, queued } = await poolView(pool, nonceOf);
  const entries: PoolEntry[] = [];
  for (const list of pending.values()) for (const p of list) entries.push({ pending: p, queued: false });
  for (const list of queued.values()) for (const p of list) entries.push({ pending: p, queued: true });
  const own = pending.get(sender.toString());
  const next = own === undefined ? await nonceOf(sender) : own[own.length - 1]!.tx.nonce + 1n;
  return makeRoom(tx, sender, tx.nonce > next, entries, limits);
}

/**
 * The sender of a signed transaction, or TxRejected('invalid sender'). The address is the last 20 bytes of the public
 * key's keccak-256 made with the Common's hash (native): @ethereumjs's getSenderAddress hashes it with @noble's, ~7x
 * slower (tmpbench under load: ~45 us against ~7 us per send). The public key is the tx's own, cached by it.
 */
export function senderOf(tx: TypedTransaction): Address {
  try {
    const keccak = tx.common.customCrypto.keccak256;
    if (keccak === undefined) return tx.getSenderAddress();
    return new Address(keccak(tx.getSenderPublicKey()).slice(12));
  } catch {
    throw new TxRejected('invalid sender');
  }
}

export interface SendOutcome {
  readonly hash: Uint8Array;
  /** The block that mined it (automine), if it was mined before the answer. */
  readonly block?: MinedBlock;
}

/**
 * Resolves with the block that mines the transaction `hash`, or undefined once `timeoutMs` passed (wall time).
 * Already mined: at once.
 */
export function waitForMined(chain: EthChain, hash: Uint8Array, timeoutMs: number): Promise<MinedBlock | undefined> {
  const found = chain.transaction(hash);
  if (found?.kind === 'mined') return Promise.resolve(found.block);
  const key = bytesToHex(hash);
  return new Promise((resolve) => {
    const off = chain.events.on('blockSealed', (block) => {
      if (!block.txHashes.some((h) => bytesToHex(h) === key)) return;
      clearTimeout(timer);
      off();
      resolve(block);
    });
    const timer = setTimeout(() => {
      off();
      resolve(undefined);
    }, timeoutMs);
  });
}
