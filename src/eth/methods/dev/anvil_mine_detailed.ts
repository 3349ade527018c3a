import { bytesHex } from '../../../hex.js';
import { InvalidArgument } from '../../../errors.js';
import { defineMethod, optional } from '../../../rpc/method.js';
import type { MinedBlock } from '../../engine/chain/types.js';
import { TRACE_TIMEOUT_MS, traceBlock } from '../../engine/trace/run.js';
import { decodeGethRevert } from '../../engine/trace/revert.js';
import { formatBlock } from '../../format/block.js';
import type { EthContext } from '../../context.js';
import { mineOptions } from './params.js';

/** Most blocks one call mines and answers in full (anvil_mine mines up to 1,000,000 answering null; an answer that size is not). */
export const MAX_DETAILED_BLOCKS = 1_000n;

/** Top call only: the output (and revert reason) of each transaction, as anvil adds them. */
const TOP_CALL = { spec: { kind: 'callTracer', opts: { onlyTopCall: true, withLog: false } }, timeoutMs: TRACE_TIMEOUT_MS } as const;

/** A mined block with full transactions, each with anvil's `output` and, when it reverted with a reason, `revertReason`. */
async function detailed(ctx: EthContext, mined: MinedBlock): Promise<Record<string, unknown>> {
  const block = formatBlock(mined, { fullTransactions: true });
  if (mined.txHashes.length === 0) return block;
  const traces = await traceBlock(ctx.chain, mined, TOP_CALL);
  const txs = block.transactions as Record<string, unknown>[];
  traces.forEach((t, i) => {
    if (t.result.kind !== 'callTracer') return;
    const output = t.result.top.output ?? new Uint8Array();
    txs[i]!.output = bytesHex(output);
    if (t.result.top.error !== undefined) {
      const reason = decodeGethRevert(output);
      if (reason !== undefined) txs[i]!.revertReason = reason;
    }
  });
  return block;
}

/**
 * evm_mine_detailed (also anvil_mine_detailed): mines as evm_mine does (one block, a timestamp, or anvil's
 * `{ timestamp, blocks }`, at most 1,000 blocks) and answers the mined blocks with full transactions, each with the `output` its run
 * returned (and `revertReason` when it reverted with one), as anvil does. The outputs come from running each mined
 * transaction again under callTracer's top call (devgate's receipts keep no output): a dev method, heavy.
 * @example {"jsonrpc":"2.0","id":1,"method":"evm_mine_detailed","params":[]} -> [{ "number": "0x1", "transactions": [{ ..., "output": "0x" }], ... }]
 */
export const evm_mine_detailed = defineMethod({
  name: 'evm_mine_detailed',
  facts: { dev: true, persists: true, heavy: true },
  params: [optional('options', mineOptions)],
  handler: async (ctx: EthContext, options) => {
    const blocks = options?.blocks ?? 1n;
    if (blocks > MAX_DETAILED_BLOCKS)
      throw new InvalidArgument(`at most ${MAX_DETAILED_BLOCKS} blocks are answered in detail, got ${blocks}: mine the rest with evm_mine`);
    const results = await ctx.node.mine(blocks, undefined, options?.timestamp);
    const out: Record<string, unknown>[] = [];
    for (const r of results) out.push(await detailed(ctx, r.block));
    return out;
  },
});

/** anvil_mine_detailed: the same as evm_mine_detailed. */
export const anvil_mine_detailed = { ...evm_mine_detailed, name: 'anvil_mine_detailed' };
