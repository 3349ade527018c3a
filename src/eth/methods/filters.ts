/** What the filter methods share: the network's filter store, a filter id param, and the JSON of filter logs. */
import { DevgateError } from '../../errors.js';
import { quantityOf, type BlockRef, type Decoder } from '../../rpc/params.js';
import type { FilterLog, FilterStore } from '../../subscriptions/ethFilters.js';
import type { EthContext } from '../context.js';
import type { EthChain } from '../engine/chain/chain.js';
import { minedLogJson } from '../format/log.js';

/** The network's filters as the caller sees them: a key's own (at most its limit), or all without a gateway caller. */
export function filtersOf(ctx: EthContext): FilterStore {
  if (ctx.filters === undefined) throw new DevgateError('filters are not available on this network');
  return ctx.origin === undefined ? ctx.filters : ctx.filters.of(ctx.origin);
}

/** A filter id: the quantity eth_new*Filter answered. */
export const filterId: Decoder<bigint> = quantityOf(128);

/** A filter's range end as a block number; latest and pending (and absent) leave it open. */
export function rangeBound(chain: EthChain, ref: BlockRef | undefined): bigint | undefined {
  if (ref === undefined) return undefined;
  if ('number' in ref) return ref.number;
  if (ref.tag === 'latest' || ref.tag === 'pending') return undefined;
  return chain.resolveMined(ref.tag)!.number;
}

const REMOVED_FALSE = '"removed":false}';

/** The JSON text of a filter log: the log as eth_getLogs writes it, with `removed: true` for a log whose block left the chain. */
export function filterLogJson(l: FilterLog): string {
  const text = minedLogJson(l.block, l.position, l.txIndex, l.log);
  if (!l.removed) return text;
  if (!text.endsWith(REMOVED_FALSE)) throw new Error('a log text does not end with its removed field');
  return text.slice(0, -REMOVED_FALSE.length) + '"removed":true}';
}
