import { quantityHex } from '../../hex.js';
import { InvalidArgument, LimitExceeded, ResourceNotFound } from '../../errors.js';
import { defineMethod, required } from '../../rpc/method.js';
import type { RawJson } from '../../rpc/rawJson.js';
import { logsText } from './logsText.js';
import type { BlockRef } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import type { EthChain } from '../engine/chain/chain.js';
import { blockLogs, rangeLogs, type FoundLog } from '../engine/query/logs.js';
import type { MinedBlock } from '../engine/chain/types.js';
import { minedLogJson } from '../format/log.js';
import { logFilterParam } from '../params.js';
import { logQueryReveals } from './reveals.js';

/**
 * eth_getLogs: the logs matching an address (or addresses) and topic filters, in a block range
 * (fromBlock/toBlock, default latest; `pending` reads as latest; a numbered end past head: -32602 `block range
 * extends beyond current head block`, as geth) or one block (blockHash). Over 10,000
 * results: -32005 `query returned more than 10000 results` with a range that fits in `data`.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x1","toBlock":"latest","address":"0x5fbdb2315678afecb367f032d93f642f64180aa3","topics":["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"]}]}
 */
export const eth_getLogs = defineMethod({
  name: 'eth_getLogs',
  facts: { heavy: true, reveals: logQueryReveals },
  params: [required('filter', logFilterParam)],
  handler: (ctx: EthContext, q) => {
    if (q.blockHash !== undefined) {
      const block = ctx.chain.blockByHash(q.blockHash);
      if (block === undefined) throw new ResourceNotFound('unknown block');
      return logsJson(blockLogs(block, q.filter));
    }
    const head = ctx.chain.head().number;
    const from = rangeEnd(ctx.chain, q.fromBlock, head);
    const to = rangeEnd(ctx.chain, q.toBlock, head);
    if (from > to) throw new InvalidArgument('invalid block range params');
    // geth: a numbered end past head is an error, not an empty answer.
    if (to > head) throw new InvalidArgument('block range extends beyond current head block');
    const result = rangeLogs(blocksBetween(ctx.chain, from, to > head ? head : to), q.filter);
    if ('tooMany' in result) {
      const { from: f, to: t, limit } = result.tooMany;
      throw new LimitExceeded(`query returned more than ${limit} results`, { from: quantityHex(f), to: quantityHex(t), limit });
    }
    return logsJson(result.logs);
  },
});

/** A range end as a number (absent and `pending` read as head). */
function rangeEnd(chain: EthChain, ref: BlockRef | undefined, head: bigint): bigint {
  if (ref === undefined) return head;
  return 'number' in ref ? ref.number : chain.resolveMined(ref.tag === 'pending' ? 'latest' : ref.tag)!.number;
}

/** The mined blocks from `from` to `to` (both at most head), in order. */
function* blocksBetween(chain: EthChain, from: bigint, to: bigint): Generator<MinedBlock> {
  for (const block of chain.blocks(from)) {
    if (block.number > to) return;
    yield block;
  }
}

/** The answer as JSON text: each log's text is made once per block, then spliced in, a slice at a time (logsText). */
function logsJson(found: readonly FoundLog[]): Promise<RawJson> {
  return logsText(found, (f) => minedLogJson(f.block, f.position, f.txIndex, f.log));
}
