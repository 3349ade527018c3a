/** Block tags to blocks: latest, earliest, and safe / finalized at their distance below head. */
import type { BlockId, MinedBlock } from './types.js';

export function resolveTag(
  id: Exclude<BlockId, 'pending'>,
  head: bigint,
  byNumber: (n: bigint) => MinedBlock | undefined,
  depth: { readonly safe: bigint; readonly finalized: bigint },
): MinedBlock | undefined {
  switch (id) {
    case 'latest':
      return byNumber(head);
    case 'earliest':
      return byNumber(0n);
    case 'safe':
      return byNumber(head > depth.safe ? head - depth.safe : 0n);
    case 'finalized':
      return byNumber(head > depth.finalized ? head - depth.finalized : 0n);
    default:
      return byNumber(id);
  }
}
