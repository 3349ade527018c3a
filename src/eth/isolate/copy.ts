/**
 * An eth chain's starting state, and copy-on-write copies of it. The start is taken once (after seeding and the
 * start's state file): the list of its blocks, its pool, head's edited root and its trie-node store. A copy is a new
 * EthChain over the same block objects (shared, not copied: a copy only appends its own) and an OverlayNodes over the
 * start's node store, so making one executes nothing and copies no state.
 */
import { equalsBytes } from '@ethereumjs/util';
import { EthChain, type ChainParts, type EthChainOptions } from '../engine/chain/chain.js';
import { hasSchedule } from '../engine/chain/create.js';
import { OverlayNodes } from './overlayNodes.js';

/** What every copy starts from. */
export interface ChainStart {
  readonly parts: ChainParts;
  /** Head's root with unmined edits at start (a loaded state file's), else undefined. */
  readonly editedRoot: Uint8Array | undefined;
  readonly opts: EthChainOptions;
}

/**
 * The start of `chain` as it is now. Its node store is the live one: the shared chain keeps writing to it, which a
 * copy may see but never needs (content-addressed: a copy reaches only nodes of its own roots).
 */
export function chainStart(chain: EthChain, opts: EthChainOptions): ChainStart {
  const parts = chain.parts();
  const head = chain.head();
  const root = chain.stateRootOf(head);
  const headRoot = (head.raw?.header ?? head.header).stateRoot;
  return {
    parts: { ...parts, blocks: [...parts.blocks], pool: [...parts.pool] },
    editedRoot: equalsBytes(root, headRoot) ? undefined : root,
    opts,
  };
}

/** A copy of the start: its own chain, and its own node writes (for the copy's memory figure). */
export async function copyChain(start: ChainStart): Promise<{ chain: EthChain; nodes: OverlayNodes }> {
  const nodes = new OverlayNodes(start.parts.nodes as ReadonlyMap<string, Uint8Array | string>);
  // A chain with a hardfork schedule sets its Common's hardfork as it goes: a copy has a Common of its own.
  const common = hasSchedule(start.parts.common) ? start.parts.common.copy() : start.parts.common;
  const chain = await EthChain.restore({ ...start.parts, common, nodes: nodes as Map<string, Uint8Array> }, start.opts);
  if (start.editedRoot !== undefined) await chain.truncate(chain.head().number, start.editedRoot);
  return { chain, nodes };
}
