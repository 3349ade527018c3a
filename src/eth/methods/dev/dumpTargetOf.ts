/** What dump and load need of a network's context: its node (chain, miner, snapshots, impersonations, pool settings, and the commands that run them). */
import type { EthDumpTarget } from '../../../persist/target.js';
import type { EthContext } from '../../context.js';

export function dumpTargetOf(ctx: EthContext): EthDumpTarget {
  return ctx.node;
}
