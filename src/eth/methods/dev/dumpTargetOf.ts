/** What dump and load need of a network's context: its chain, miner, snapshots, impersonations and pool settings. */
import type { EthDumpTarget } from '../../engine/persist/dump/ethDump.js';
import type { EthContext } from '../../context.js';

export function dumpTargetOf(ctx: EthContext): EthDumpTarget {
  return { chain: ctx.chain, miner: ctx.miner, snapshots: ctx.snapshots, impersonation: ctx.impersonation, pool: ctx.pool };
}
