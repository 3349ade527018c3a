import { quantityHex } from '../../hex.js';
import { InvalidArgument } from '../../errors.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { arrayOf, blockNumberOrTag, describe, uint64, type Decoder } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { feeHistory, MAX_FEE_HISTORY } from '../engine/query/fees.js';
import type { MinedBlock } from '../engine/chain/types.js';

/** A block count: a quantity or a non-negative JSON integer. */
const blockCount: Decoder<bigint> = (value) => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new InvalidArgument(`expected a block count, got ${describe(value)}`);
    return BigInt(value);
  }
  return uint64(value);
};

/** A reward percentile: a number from 0 to 100. */
const percentile: Decoder<number> = (value) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidArgument(`expected a percentile number, got ${describe(value)}`);
  if (value < 0 || value > 100) throw new InvalidArgument(`invalid reward percentile: ${value}`);
  return value;
};

/**
 * eth_feeHistory: base fees (one more than blocks: the next block's), gas used ratios, the tips at the
 * requested percentiles, blob base fees and blob gas used / the fork's max (zeros before Cancun, as geth), for up to 1024 blocks
 * ending at the given one. The block count may be a quantity or a decimal number, as geth reads it.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_feeHistory","params":["0x4","latest",[25,75]]}
 */
export const eth_feeHistory = defineMethod({
  name: 'eth_feeHistory',
  params: [
    required('blockCount', blockCount),
    required('newestBlock', blockNumberOrTag),
    optional('rewardPercentiles', arrayOf(percentile, 'an array of percentiles')),
  ],
  handler: async (ctx: EthContext, count, ref, percentiles) => {
    percentiles?.forEach((p, i) => {
      if (i > 0 && p < percentiles[i - 1]!)
        throw new InvalidArgument(`invalid argument 2: invalid reward percentile: #${i - 1}:${percentiles[i - 1]} > #${i}:${p}`);
    });
    const newest = await ctx.node.resolveBlock('tag' in ref ? ref.tag : ref.number);
    if (newest === undefined)
      throw new InvalidArgument(`request beyond head block: requested ${'number' in ref ? ref.number : ref.tag}, head ${ctx.chain.head().number}`);
    if (count === 0n) return { oldestBlock: '0x0', gasUsedRatio: null };
    const n = count > MAX_FEE_HISTORY ? MAX_FEE_HISTORY : count;
    const blocks: MinedBlock[] = [];
    for (let num = newest.number; blocks.length < Number(n) && num >= 0n; num--) {
      blocks.unshift(num === newest.number ? newest : ctx.chain.blockByNumber(num)!);
    }
    const h = feeHistory(blocks, percentiles !== undefined && percentiles.length > 0 ? percentiles : undefined);
    const out: Record<string, unknown> = { oldestBlock: quantityHex(h.oldestBlock) };
    if (h.reward !== undefined) out.reward = h.reward.map((r) => r.map(quantityHex));
    out.baseFeePerGas = h.baseFeePerGas.map(quantityHex);
    out.gasUsedRatio = h.gasUsedRatio;
    out.baseFeePerBlobGas = h.baseFeePerBlobGas.map(quantityHex);
    out.blobGasUsedRatio = h.blobGasUsedRatio;
    return out;
  },
});
