/**
 * geth's testing_buildBlockV1 (eth/catalyst's testing API): a block built on head from payload attributes (time,
 * prevRandao, fee recipient, withdrawals, beacon root), with the given transactions or, without a list, the pool's
 * (those paying geth's miner its default tip floor).
 * It is built for real (system calls, withdrawals, requests, roots, hash) on a copy of head's state, as the pending
 * block is, and never joins the chain: head, pool and state stay as they were, whatever happens.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Address, equalsBytes, hexToBytes, type PrefixedHexString, toChecksumAddress, type WithdrawalData } from '@ethereumjs/util';
import { createVM } from '@ethereumjs/vm';
import { DevgateError } from '../../../errors.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';
import { BlockDraft } from './draft.js';
import { effectiveTip, fillFromPool } from './pool.js';
import { TxRejected } from './txRejected.js';

/** geth's default miner gas ceiling (--miner.gaslimit): the gas limit a built block moves towards. */
export const GETH_GAS_CEIL = 60_000_000n;
/** geth's default miner tip floor (--miner.gasprice, 0.001 gwei): pool transactions paying less stay out. */
export const GETH_MINER_MIN_TIP = 1_000_000n;
/** geth's params.GasLimitBoundDivisor and MinGasLimit. */
const GAS_LIMIT_BOUND_DIVISOR = 1024n;
const MIN_GAS_LIMIT = 5000n;

/** A payload the testing API refuses (JSON-RPC -32000 with geth's message). */
export class PayloadRejected extends DevgateError {
  override name = 'PayloadRejected';
}

/** engine_forkchoiceUpdated's payload attributes (V3). */
export interface PayloadAttributes {
  readonly timestamp: bigint;
  readonly prevRandao: Uint8Array;
  readonly feeRecipient: Address;
  readonly withdrawals?: readonly WithdrawalData[];
  readonly parentBeaconBlockRoot?: Uint8Array;
}

export interface BuiltPayload {
  readonly mined: MinedBlock;
  /** What the block pays its fee recipient (the transactions' tips). */
  readonly blockValue: bigint;
  /** EIP-7685 requests with data, each its type byte then its data (engine_getPayloadV4's executionRequests). */
  readonly requests: readonly Uint8Array[];
  /** The blobs, commitments and proofs of the block's blob transactions that came with them. */
  readonly blobs: { readonly commitments: Uint8Array[]; readonly proofs: Uint8Array[]; readonly blobs: Uint8Array[] };
}

/** geth's core.CalcGasLimit: one step (parent / 1024 - 1) from the parent's limit towards the desired one. */
export function calcGasLimit(parent: bigint, desired: bigint): bigint {
  const delta = parent / GAS_LIMIT_BOUND_DIVISOR - 1n;
  const want = desired < MIN_GAS_LIMIT ? MIN_GAS_LIMIT : desired;
  if (parent < want) return parent + delta > want ? want : parent + delta;
  if (parent > want) return parent - delta < want ? want : parent - delta;
  return parent;
}

/** Builds the payload on head (which `parentHash` must name); `txs` undefined takes the pool's executable transactions. */
export async function buildPayload(
  chain: EthChain,
  parentHash: Uint8Array,
  attrs: PayloadAttributes,
  txs: readonly TypedTransaction[] | undefined,
  extraData: Uint8Array,
): Promise<BuiltPayload> {
  const parent = chain.head();
  if (!equalsBytes(parent.hash, parentHash)) throw new PayloadRejected('parentHash is not current head');
  if (attrs.timestamp <= parent.header.timestamp) throw new PayloadRejected(`invalid timestamp, parent ${parent.header.timestamp} given ${attrs.timestamp}`);
  const common = chain.commonAt(parent.number + 1n, attrs.timestamp);
  if (!common.gteHardfork('paris')) throw new PayloadRejected(`payloads are built after the merge; the next block's hardfork is ${common.hardfork()}`);
  if (common.isActivatedEIP(4788) && attrs.parentBeaconBlockRoot === undefined) {
    throw new PayloadRejected(`payloadAttributes.parentBeaconBlockRoot is required at hardfork ${common.hardfork()}`);
  }
  const vm = await createVM({ common, stateManager: await chain.stateAt(parent), blockchain: chain.view });
  const header = {
    number: parent.number + 1n,
    parentHash: parent.hash,
    timestamp: attrs.timestamp,
    gasLimit: calcGasLimit(parent.header.gasLimit, GETH_GAS_CEIL),
    coinbase: attrs.feeRecipient,
    difficulty: 0n,
    mixHash: attrs.prevRandao,
    extraData,
    ...(common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: attrs.parentBeaconBlockRoot } : {}),
  };
  const draft = await BlockDraft.open(vm, parent, header, attrs.withdrawals ?? []);
  const baseFee = draft.context.header.baseFeePerGas;
  if (txs === undefined)
    await fillFromPool(
      draft,
      chain.pendingTransactions().filter((p) => effectiveTip(p.tx, baseFee) >= GETH_MINER_MIN_TIP),
    );
  else for (const tx of txs) await addForced(draft, tx);
  const { mined, requests } = await draft.sealWithRequests();
  const blobs = { commitments: [] as Uint8Array[], proofs: [] as Uint8Array[], blobs: [] as Uint8Array[] };
  for (const tx of txs ?? chain.pendingTransactions().map((p) => p.tx)) {
    // A blob transaction in its network form carries them (as hex strings in @ethereumjs's object).
    const b = tx as { blobs?: PrefixedHexString[]; kzgCommitments?: PrefixedHexString[]; kzgProofs?: PrefixedHexString[] };
    if (b.blobs === undefined || !mined.block.transactions.some((t) => equalsBytes(t.hash(), tx.hash()))) continue;
    blobs.blobs.push(...b.blobs.map(hexToBytes));
    blobs.commitments.push(...(b.kzgCommitments ?? []).map(hexToBytes));
    blobs.proofs.push(...(b.kzgProofs ?? []).map(hexToBytes));
  }
  return { mined, blockValue: draft.minerValue, requests: requests.filter((r) => r.data.length > 0).map((r) => r.bytes), blobs };
}

/** Adds a transaction the caller asked for: one that does not apply fails the whole request, with geth's words where known. */
async function addForced(draft: BlockDraft, tx: TypedTransaction): Promise<void> {
  let sender: Address;
  try {
    sender = tx.getSenderAddress();
  } catch {
    throw new TxRejected('invalid sender');
  }
  const account = await draft.vm.stateManager.getAccount(sender);
  const nonce = account?.nonce ?? 0n;
  const shown = toChecksumAddress(sender.toString());
  if (tx.nonce > nonce) throw new TxRejected(`nonce too high: address ${shown}, tx: ${tx.nonce} state: ${nonce}`);
  if (tx.nonce < nonce) throw new TxRejected(`nonce too low: address ${shown}, tx: ${tx.nonce} state: ${nonce}`);
  try {
    await draft.add(tx, sender);
  } catch (err) {
    throw new TxRejected(err instanceof Error ? err.message : String(err));
  }
}
