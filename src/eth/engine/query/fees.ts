/**
 * Fee reads as geth computes them: the gas price oracle behind eth_maxPriorityFeePerGas and
 * eth_gasPrice (60th percentile of the 3 lowest tips of each of the last 20 blocks, ignoring tips under
 * 2 wei and the coinbase's own txs; an empty block counts with the last price), and eth_feeHistory.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';

const CHECK_BLOCKS = 20;
const SAMPLES_PER_BLOCK = 3;
const PERCENTILE = 60;
const IGNORE_UNDER = 2n;
const MAX_PRICE = 500_000_000_000n;
/** The price an empty history answers with (1 gwei). */
export const DEFAULT_TIP = 1_000_000_000n;

/** What a tx pays the block producer per gas over the base fee. */
export function effectiveTip(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  const base = baseFee ?? 0n;
  if ('maxFeePerGas' in tx) {
    const room = tx.maxFeePerGas - base;
    return room < tx.maxPriorityFeePerGas ? room : tx.maxPriorityFeePerGas;
  }
  return tx.gasPrice - base;
}

/** The lowest tips of a block (up to `limit`), ascending, without the coinbase's own txs. */
function lowestTips(block: MinedBlock, limit: number): bigint[] {
  const baseFee = block.block.header.baseFeePerGas;
  const coinbase = block.block.header.coinbase;
  const sorted = block.block.transactions
    .map((tx, i) => ({ tip: effectiveTip(tx, baseFee), sender: block.senders[i]! }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  const out: bigint[] = [];
  for (const { tip, sender } of sorted) {
    if (tip < IGNORE_UNDER || sender.equals(coinbase)) continue;
    out.push(tip);
    if (out.length >= limit) break;
  }
  return out;
}

/** The suggested priority fee (geth's SuggestGasTipCap). */
export function suggestTip(chain: EthChain): bigint {
  const head = chain.head().number;
  const results: bigint[] = [];
  let n = head;
  let expected = CHECK_BLOCKS;
  for (let seen = 0; seen < expected && n >= 0n; seen++, n--) {
    const block = chain.blockByNumber(n);
    if (block === undefined) break;
    let values = lowestTips(block, SAMPLES_PER_BLOCK);
    if (values.length === 0) values = [DEFAULT_TIP];
    // Like geth, a block with one sample or none makes the oracle look one block further (at most 2x).
    if (values.length === 1 && expected < CHECK_BLOCKS * 2 && n > 0n) expected++;
    results.push(...values);
  }
  if (results.length === 0) return DEFAULT_TIP;
  results.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const price = results[Math.floor(((results.length - 1) * PERCENTILE) / 100)]!;
  return price > MAX_PRICE ? MAX_PRICE : price;
}

/** eth_gasPrice: the suggested tip plus head's base fee. */
export function suggestGasPrice(chain: EthChain): bigint {
  return suggestTip(chain) + (chain.head().block.header.baseFeePerGas ?? 0n);
}

/** eth_feeHistory's answer, engine side. */
export interface FeeHistory {
  readonly oldestBlock: bigint;
  /** One per block plus the next block's. */
  readonly baseFeePerGas: bigint[];
  readonly gasUsedRatio: number[];
  /** Per block, the tip at each requested percentile (absent when none were requested). */
  readonly reward?: bigint[][];
  /** The blob base fee per block plus the next one's, and blob gas used / the fork's max; 0 before Cancun (as geth). */
  readonly baseFeePerBlobGas: bigint[];
  readonly blobGasUsedRatio: number[];
}

/** The most blocks one eth_feeHistory may cover (geth's default maxBlockHistory / maxHeaderHistory). */
export const MAX_FEE_HISTORY = 1024n;

/** Fee history of consecutive blocks (the newest may be the pending block). */
export function feeHistory(blocks: readonly MinedBlock[], percentiles: readonly number[] | undefined): FeeHistory {
  const baseFees: bigint[] = [];
  const ratios: number[] = [];
  const rewards: bigint[][] = [];
  const blobFees: bigint[] = [];
  const blobRatios: number[] = [];
  for (const b of blocks) {
    const h = b.block.header;
    baseFees.push(h.baseFeePerGas ?? 0n);
    ratios.push(Number(h.gasUsed) / Number(h.gasLimit));
    if (percentiles !== undefined) rewards.push(blockRewards(b, percentiles));
    // geth answers the blob fields for every block: zeros before Cancun. The max is the block's fork's (bpo forks
    // raise it: @ethereumjs keeps theirs apart from maxBlobGasPerBlock, getBlobGasSchedule reads both).
    blobFees.push(h.excessBlobGas !== undefined ? h.getBlobGasPrice() : 0n);
    const max = h.excessBlobGas !== undefined ? h.common.getBlobGasSchedule().maxBlobGasPerBlock : 0n;
    blobRatios.push(max > 0n ? Number(h.blobGasUsed ?? 0n) / Number(max) : 0);
  }
  const last = blocks[blocks.length - 1];
  if (last !== undefined) {
    const h = last.block.header;
    baseFees.push(h.baseFeePerGas !== undefined ? h.calcNextBaseFee() : 0n);
    blobFees.push(h.excessBlobGas !== undefined ? h.calcNextBlobGasPrice(h.common) : 0n);
  }
  return {
    oldestBlock: blocks[0]?.number ?? 0n,
    baseFeePerGas: baseFees,
    gasUsedRatio: ratios,
    reward: percentiles === undefined ? undefined : rewards,
    baseFeePerBlobGas: blobFees,
    blobGasUsedRatio: blobRatios,
  };
}

/** The tips at the given gas-weighted percentiles of a block (geth's processBlock). */
function blockRewards(b: MinedBlock, percentiles: readonly number[]): bigint[] {
  const txs = b.block.transactions;
  if (txs.length === 0) return percentiles.map(() => 0n);
  const baseFee = b.block.header.baseFeePerGas;
  const sorted = txs
    .map((tx, i) => ({ reward: effectiveTip(tx, baseFee), gasUsed: b.receipts[i]!.gasUsed }))
    .sort((x, y) => (x.reward < y.reward ? -1 : x.reward > y.reward ? 1 : 0));
  const gasUsed = Number(b.block.header.gasUsed);
  let i = 0;
  let sum = sorted[0]!.gasUsed;
  return percentiles.map((p) => {
    const threshold = BigInt(Math.floor((gasUsed * p) / 100));
    while (sum < threshold && i < sorted.length - 1) {
      i++;
      sum += sorted[i]!.gasUsed;
    }
    return sorted[i]!.reward;
  });
}
