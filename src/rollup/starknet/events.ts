/**
 * The event filter of starknet_getEvents and its paging: events of the blocks from `from_block` to
 * `to_block` (inclusive; the pending block too when `to_block` is pending), by emitting address and
 * keys, in chain order. A continuation token is the decimal position of the next matching event.
 */
import { InvalidArgument, RollupError } from '../../errors.js';
import { describe, type Decoder } from '../../rpc/params.js';
import type { RollupChain } from '../engine/chain.js';
import { isV09, type RollupContext } from '../context.js';
import type { Felt, PendingBlock, SealedBlock } from '../engine/types.js';
import { feltHex } from '../format.js';
import { felt } from '../params.js';
import { resolveBlock, starknetBlockId, type StarknetBlockId } from './params.js';

/** Most events one page holds (error 31 above it), and most key positions in a filter (error 34). */
export const MAX_CHUNK_SIZE = 1024;
export const MAX_KEYS = 16;

export interface EventFilter {
  readonly from?: StarknetBlockId;
  readonly to?: StarknetBlockId;
  readonly address?: Felt;
  /** Per key position, the allowed values (empty: any). */
  readonly keys: readonly (readonly Felt[])[];
  readonly chunkSize: number;
  readonly token: number;
}

const field = (o: Record<string, unknown>, k: string) => (Object.hasOwn(o, k) && o[k] !== null ? o[k] : undefined);

export const eventFilter: Decoder<EventFilter> = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidArgument(`expected an event filter object, got ${describe(value)}`);
  const o = value as Record<string, unknown>;
  const known = new Set(['from_block', 'to_block', 'address', 'keys', 'chunk_size', 'continuation_token']);
  const extra = Object.keys(o).find((k) => !known.has(k));
  if (extra !== undefined) throw new InvalidArgument(`unknown filter member ${JSON.stringify(extra.slice(0, 40))}`);
  const named = <T>(k: string, d: Decoder<T>): T | undefined => {
    const v = field(o, k);
    if (v === undefined) return undefined;
    try {
      return d(v);
    } catch (err) {
      if (err instanceof RollupError) throw err;
      throw new InvalidArgument(`"${k}": ${(err as Error).message}`);
    }
  };
  const rawKeys = field(o, 'keys') ?? [];
  if (!Array.isArray(rawKeys) || !rawKeys.every(Array.isArray))
    throw new InvalidArgument(`"keys": expected an array of arrays of felts, got ${describe(rawKeys)}`);
  if (rawKeys.length > MAX_KEYS) throw new RollupError(34, 'Too many keys provided in a filter');
  const keys = rawKeys.map((ks: unknown[], i) =>
    ks.map((k, j) => {
      try {
        return felt(k);
      } catch (err) {
        throw new InvalidArgument(`"keys": ${i}: ${j}: ${(err as Error).message}`);
      }
    }),
  );
  const chunkSize = named('chunk_size', (v) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new InvalidArgument(`expected a positive JSON integer, got ${describe(v)}`);
    return v;
  });
  if (chunkSize === undefined) throw new InvalidArgument('missing value for required argument "chunk_size"');
  if (chunkSize > MAX_CHUNK_SIZE) throw new RollupError(31, 'Requested page size is too big');
  const token = named('continuation_token', (v) => {
    if (typeof v !== 'string' || !/^(0|[1-9][0-9]{0,14})$/.test(v)) throw new RollupError(33, 'The supplied continuation token is invalid or unknown');
    return Number(v);
  });
  return {
    from: named('from_block', starknetBlockId),
    to: named('to_block', starknetBlockId),
    address: named('address', felt),
    keys,
    chunkSize,
    token: token ?? 0,
  };
};

/** The blocks a filter covers, oldest first. */
function blocksOf(ctx: RollupContext, f: EventFilter): (SealedBlock | PendingBlock)[] {
  const chain = ctx.chain;
  const from = f.from === undefined ? 0n : numberOf(chain, resolveBlock(ctx, f.from));
  const toBlock = f.to === undefined ? chain.head() : resolveBlock(ctx, f.to);
  const to = numberOf(chain, toBlock);
  const out: (SealedBlock | PendingBlock)[] = [];
  for (let n = from; n <= to && n <= chain.head().number; n++) out.push(chain.block({ number: n })!);
  if (!('hash' in toBlock)) out.push(toBlock);
  return out;
}

/** A block's number; the pending block's is one past the head. */
function numberOf(chain: RollupChain, b: SealedBlock | PendingBlock): bigint {
  return 'hash' in b ? b.number : chain.head().number + 1n;
}

/** One page of matching events and the token of the next page, if any. */
export function findEvents(ctx: RollupContext, f: EventFilter): { events: Record<string, unknown>[]; continuation_token?: string } {
  const matches = (keys: readonly Felt[]) => f.keys.every((allowed, i) => allowed.length === 0 || (i < keys.length && allowed.includes(keys[i]!)));
  const events: Record<string, unknown>[] = [];
  let seen = 0;
  for (const b of blocksOf(ctx, f)) {
    // A pending event has no block in 0.8; a pre-confirmed one (0.9) has its block's number.
    const where =
      'hash' in b ? { block_hash: feltHex(b.hash), block_number: Number(b.number) } : isV09(ctx) ? { block_number: Number(numberOf(ctx.chain, b)) } : {};
    for (const tx of b.transactions) {
      for (const e of tx.outcome.events) {
        if ((f.address !== undefined && e.fromAddress !== f.address) || !matches(e.keys)) continue;
        if (seen++ < f.token) continue;
        if (events.length === f.chunkSize) return { events, continuation_token: String(f.token + events.length) };
        events.push({
          from_address: feltHex(e.fromAddress),
          keys: e.keys.map(feltHex),
          data: e.data.map(feltHex),
          ...where,
          transaction_hash: feltHex(tx.hash),
        });
      }
    }
  }
  return { events };
}
