/**
 * A send, as the node runs it on its writer: admitted to the pool (or refused, leaving nothing behind), pooled, and
 * with automine mined into a block before it is answered.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { EthChain } from '../engine/chain/chain.js';
import type { DropReason } from '../engine/chain/events.js';
import type { MinedBlock, MineResult, PendingTx } from '../engine/chain/types.js';
import type { Miner } from '../engine/mining/miner.js';
import { senderOf, TxRejected, type Admission } from '../engine/mining/send.js';

export interface SendResult {
  readonly hash: Uint8Array;
  /** The block that mined it (automine), if it was mined before the answer. */
  readonly block?: MinedBlock;
}

/** What a send needs of its node (the node's own writes, lent to the command running). */
export interface SendSteps {
  readonly chain: EthChain;
  readonly miner: Miner;
  readonly admission: Admission;
  pool(entry: PendingTx): void;
  drop(hashes: readonly Uint8Array[], reason: DropReason): PendingTx[];
  mine(): Promise<MineResult>;
}

/**
 * Sends `tx`: admitted, pooled, and with automine mined at once (with every other executable pool transaction). A
 * transaction the automined block cannot take for a reason other than a nonce gap is taken out of the pool again and
 * refused with that reason; one waiting behind a nonce gap stays queued, as in geth. Only on the node's writer.
 */
export async function sendNow(steps: SendSteps, tx: TypedTransaction, knownSender?: Address): Promise<SendResult> {
  const { chain, miner } = steps;
  const sender = knownSender ?? senderOf(tx);
  if (chain.transaction(tx.hash())?.kind === 'mined') throw new TxRejected('already known');
  const { replaced, evict } = await steps.admission(chain, tx, sender);
  if (replaced !== undefined) steps.drop([replaced.tx.hash()], 'replaced');
  if (evict.length > 0)
    steps.drop(
      evict.map((p) => p.tx.hash()),
      'dropped',
    );
  const entry: PendingTx = { tx, sender };
  steps.pool(entry);
  if (!miner.mode().automine) return { hash: tx.hash() };
  let mined: MineResult;
  try {
    mined = await steps.mine();
  } catch (err) {
    // The block itself failed (a fork's upstream down, ...): head is as it was, and the send is refused with that
    // error like any other refused send, so it does not stay behind to fail every later automined block.
    steps.drop([tx.hash()], 'invalid');
    throw err;
  }
  const { block, skipped } = mined;
  const mine = skipped.find((s) => s.pending.tx === tx);
  if (mine === undefined) return { hash: tx.hash(), block };
  const next = (await chain.getAccount(sender, chain.head()))?.nonce ?? 0n;
  if (tx.nonce > next) return { hash: tx.hash() };
  steps.drop([tx.hash()], 'invalid');
  throw new TxRejected(mine.error);
}
