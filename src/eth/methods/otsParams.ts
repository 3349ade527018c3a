/** What the ots_ methods share: finding a mined transaction by hash, and the page sizes they accept. */
import { InvalidArgument, ResourceNotFound } from '../../errors.js';
import type { Decoder } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import type { TxAt } from '../engine/query/otsSearch.js';
import { numberOrQuantity } from './dev/params.js';

/** The largest page an ots_ call answers (Otterscan asks for 25). */
export const MAX_OTS_PAGE = 100;

/** A page size: 1 to MAX_OTS_PAGE, as a JSON number (Otterscan) or a quantity. */
export const pageSize: Decoder<number> = (value) => {
  const n = numberOrQuantity(value);
  if (n < 1n || n > BigInt(MAX_OTS_PAGE)) throw new InvalidArgument(`page size must be between 1 and ${MAX_OTS_PAGE}, got ${n}`);
  return Number(n);
};

/** A block number or other count as a JSON number (Otterscan) or a quantity. */
export const otsNumber: Decoder<bigint> = numberOrQuantity;

/** The mined transaction with this hash; -32000 "transaction not found" otherwise (as debug_traceTransaction). */
export function minedTx(ctx: EthContext, hash: Uint8Array): TxAt {
  const found = ctx.chain.transaction(hash);
  if (found === undefined || found.kind !== 'mined') throw new ResourceNotFound('transaction not found');
  return { block: found.block, index: found.index };
}
