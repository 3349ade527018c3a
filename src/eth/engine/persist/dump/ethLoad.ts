/**
 * Loading an eth dump into a running network (the node runs it on its writer, EthNode.loadDump): the blocks the network shares with the dump stay
 * (a dump of the same seed shares its seeded blocks), the rest leave as on a revert (filters see their logs
 * removed) and the dump's blocks follow, already executed; their trie nodes join the node store. Then head's
 * unmined edits, the pool, the miner's mode and time controls, coinbase, impersonations and the pool's minimum tip
 * are the dump's, and every snapshot is forgotten. Everything is checked before anything changes.
 */
import { equalsBytes } from '@ethereumjs/util';
import { plainHex } from '../../../../hex.js';
import { DumpError } from '../../../../persist/dumpError.js';
import type { EthDump, EthDumpSource } from './ethDump.js';

/** What a load did: the dump's head, and how many of the network's blocks it kept. */
export interface EthLoadResult {
  readonly head: bigint;
  /** The number of the last block the network and the dump shared (at least genesis). */
  readonly shared: bigint;
}

const EMPTY_ROOT = '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

/** What a load changes on the chain: the blocks it keeps (above `keep` they leave) and what follows them. */
export interface EthLoadPlan {
  readonly keep: bigint;
  /** Where the dump's blocks after `keep` start in dump.parts.blocks. */
  readonly from: number;
  readonly result: EthLoadResult;
}

/**
 * Checks `dump` against the network of `t` and adds its trie nodes to the store (nodes are content-addressed: nothing
 * the chain reads changes); throws DumpError, changing nothing, if the dump's state is incomplete. The node then puts
 * the dump's blocks, pool and controls in (EthNode.loadDump), on its writer.
 */
export function planEthLoad(t: EthDumpSource, dump: EthDump): EthLoadPlan {
  const blocks = dump.parts.blocks;
  const head = blocks[blocks.length - 1]!;
  const store = t.chain.parts().nodes as Map<string, Uint8Array>;
  const nodes = dump.parts.nodes;
  for (const root of [(head.raw?.header ?? head.header).stateRoot, dump.editedRoot]) {
    if (root !== undefined && plainHex(root) !== EMPTY_ROOT && !nodes.has(plainHex(root)))
      throw new DumpError(`the dump lacks the state of its head (root 0x${plainHex(root)})`);
  }
  // Blocks counted from the chain's first (genesis, or a fork's fork block: decodeEthDump checked the dump starts there).
  const base = t.chain.base().number;
  let shared = 0;
  const ours = Number(t.chain.head().number - base);
  while (shared < ours && shared + 1 < blocks.length && equalsBytes(blocks[shared + 1]!.hash, t.chain.blockByNumber(base + BigInt(shared + 1))!.hash)) shared++;
  for (const [key, value] of nodes) if (!store.has(key)) store.set(key, value);
  return { keep: base + BigInt(shared), from: shared + 1, result: { head: head.number, shared: base + BigInt(shared) } };
}

/** After the blocks: the dump's miner mode and time controls, coinbase, impersonations and minimum tip; every snapshot forgotten. */
export function adoptDumpControls(t: EthDumpSource, dump: EthDump): void {
  t.miner.restore(dump.miner);
  if (dump.coinbase !== undefined) t.miner.setCoinbase(dump.coinbase);
  if (dump.impersonation !== undefined) t.impersonation?.restore(dump.impersonation);
  if (t.pool !== undefined) t.pool.minTip = dump.minTip;
  t.snapshots?.rebase();
}
