/** L1 acceptance of a rollup chain's blocks: a block moves to ACCEPTED_ON_L1 with every ancestor not yet there. */
import type { SealedBlock } from './types.js';

/** Marks blocks[index] and its ancestors down to the last ACCEPTED_ON_L1 one as accepted; answers them, oldest first. */
export function acceptUpTo(blocks: readonly SealedBlock[], index: number): SealedBlock[] {
  const accepted: SealedBlock[] = [];
  for (let i = index; i >= 0 && blocks[i]!.status !== 'ACCEPTED_ON_L1'; i--) {
    blocks[i]!.status = 'ACCEPTED_ON_L1';
    accepted.unshift(blocks[i]!);
  }
  return accepted;
}

/** Accepts the newest ACCEPTED_ON_L2 block that `ready` holds for (and so its ancestors); answers the accepted ones. */
export function acceptNewestReady(blocks: readonly SealedBlock[], ready: (b: SealedBlock) => boolean): SealedBlock[] {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (b.status === 'ACCEPTED_ON_L1') return [];
    if (ready(b)) return acceptUpTo(blocks, i);
  }
  return [];
}
