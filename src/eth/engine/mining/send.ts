/**
 * A transaction sent to an eth network: admitted to the pool (or refused, leaving nothing behind), and with
 * automine mined into a block before the send is answered. Runs on the chain's writer, so sends, mining and
 * reverts never interleave.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import { bytesToHex } from '@ethereumjs/util';
import { TxRejected } from './txRejected.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock, PendingTx } from '../chain/types.js';
import { checkTransaction } from './pool.js';
import { checkTxFee } from './txFeeCap.js';
import type { Miner } from './miner.js';

export { TxRejected } from './txRejected.js';

/** Checks a transaction before it enters the pool; throws TxRejected with the reason; answers the pool entry it replaces. */
export type Admission = (chain: EthChain, tx: TypedTransaction, sender: Address) => Promise<PendingTx | undefined>;

/** What the pool accepts beyond geth's rules (anvil_setMinGasPrice, --allow-unprotected-txs). */
export interface PoolSettings {
  minTip: bigint;
  allowUnprotected: boolean;
  /** geth's --rpc.txfeecap in ether (txFeeCap.ts); 0 or undefined: none. */
  txFeeCap?: number;
}

/** geth's txpool checks (pool.ts) at head, for the next block the miner would seal. */
export function poolAdmission(miner: Miner, settings: PoolSettings = { minTip: 0n, allowUnprotected: false }): Admission {
  return async (chain, tx, sender) => {
    checkTxFee(tx, settings.txFeeCap ?? 0);
    const account = await chain.getAccount(sender, chain.head());
    return checkTransaction(tx, sender, chain.pendingTransactions(), {
      chainId: chain.chainId,
      nonce: account?.nonce ?? 0n,
      balance: account?.balance ?? 0n,
      baseFee: miner.nextBaseFee(),
      blockGasLimit: miner.nextGasLimit(),
      minTip: settings.minTip,
      allowUnprotected: settings.allowUnprotected,
    });
  };
}

/** The sender of a signed transaction, or TxRejected('invalid sender'). */
export function senderOf(tx: TypedTransaction): Address {
  try {
    return tx.getSenderAddress();
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
 * Sends a transaction: admitted, pooled, and with automine mined at once (with every other executable pool
 * transaction). A transaction the automined block cannot take for a reason other than a nonce gap is taken
 * out of the pool again and refused with that reason; one waiting behind a nonce gap stays queued, as in geth.
 */
export function sendTransaction(chain: EthChain, miner: Miner, tx: TypedTransaction, admit?: Admission, knownSender?: Address): Promise<SendOutcome> {
  return chain.writer.run(() => sendNow(chain, miner, tx, admit, knownSender));
}

/** sendTransaction's work, for a job already on the chain's writer. */
export async function sendNow(
  chain: EthChain,
  miner: Miner,
  tx: TypedTransaction,
  admit: Admission = poolAdmission(miner),
  knownSender?: Address,
): Promise<SendOutcome> {
  const sender = knownSender ?? senderOf(tx);
  if (chain.transaction(tx.hash())?.kind === 'mined') throw new TxRejected('already known');
  const replaced = await admit(chain, tx, sender);
  if (replaced !== undefined) chain.dropPending([replaced.tx.hash()], 'replaced');
  const entry = await chain.addPending(tx, sender);
  if (!miner.mode().automine) return { hash: tx.hash() };
  const { block, skipped } = await miner.mineOne();
  const mine = skipped.find((s) => s.pending === entry);
  if (mine === undefined) return { hash: tx.hash(), block };
  const next = (await chain.getAccount(sender, chain.head()))?.nonce ?? 0n;
  if (tx.nonce > next) return { hash: tx.hash() };
  chain.dropPending([tx.hash()], 'invalid');
  throw new TxRejected(mine.error);
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
