/**
 * Loading a dumped rollup chain in place of a network's (devnet_load): the dump's blocks, statuses, transactions,
 * states, pending block, chain time and gas prices, already executed and hashed (nothing is re-run, so every hash is
 * the dump's). Blocks the two chains share (the same hash at the same height) stay; the network's others leave and are
 * reported as on a revert, the dump's others are reported as sealed. Every snapshot is forgotten (devnet_restart
 * still goes back to the chain as served at start).
 */
import type { RollupChain, RollupChainParts } from './chain.js';
import { RollupControls } from './controls.js';
import type { SealedBlock } from './types.js';

export interface LoadedChain {
  /** The network's blocks that left (above the blocks both chains share). */
  readonly left: readonly SealedBlock[];
  /** The dump's blocks that came in. */
  readonly added: readonly SealedBlock[];
}

/** Puts `parts` (a decoded, checked dump of this chain's genesis) in place of `chain`'s contents. */
export function loadRollupParts(chain: RollupChain, parts: RollupChainParts): LoadedChain {
  const before = [...chain.parts().blocks];
  chain.adopt(parts);
  const after = chain.parts().blocks;
  let shared = 0;
  while (shared < before.length && shared < after.length && before[shared]!.hash === after[shared]!.hash) shared++;
  const left = before.slice(shared);
  const added = after.slice(shared);
  RollupControls.of(chain).snapshots.forget();
  if (left.length > 0) chain.events.emit('blocksReverted', left);
  for (const b of added) chain.events.emit('blockSealed', b);
  return { left, added };
}
