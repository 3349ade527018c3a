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

/**
 * What is wrong with a decoded dump's chain, or undefined: the chain's blocks are numbered from 0, each the child of the
 * one before and none rejected, and the indexes by hash and by transaction point where they say. Block contents,
 * transaction hashes and state roots are taken as dumped (the dump is checksummed against damage): hashing every block
 * again costs ~9 ms of Poseidon per block (9 s for 1,000 blocks at load average 9), which a load must not pay.
 */
export function findDumpFlaw(parts: RollupChainParts): string | undefined {
  const hex = (n: bigint) => '0x' + n.toString(16);
  const { blocks, byHash, txs } = parts;
  if (blocks.length === 0) return 'the dump holds no block';
  for (const [i, b] of blocks.entries()) {
    if (b.number !== BigInt(i)) return `block ${i} of the dump carries number ${b.number}`;
    if (i > 0 && b.parentHash !== blocks[i - 1]!.hash) return `block ${i} of the dump is not the child of block ${i - 1}`;
    if (b.status === 'REJECTED') return `block ${i} of the dump's chain is REJECTED`;
    if (byHash.get(b.hash) !== b) return `block ${i} of the dump is missing from its index by hash`;
  }
  for (const [hash, b] of byHash) {
    if (b.hash !== hash) return `the dump's index by hash puts block ${hex(b.hash)} under ${hex(hash)}`;
  }
  for (const [hash, loc] of txs) {
    const tx = 'block' in loc ? loc.block.transactions[loc.index] : parts.pendingTxs[loc.pendingIndex];
    if (tx?.hash !== hash) return `the dump's index of transactions does not find ${hex(hash)} where it says`;
  }
  return undefined;
}
