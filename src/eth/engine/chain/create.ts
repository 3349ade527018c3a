/**
 * The parts an EthChain starts from: a genesis built from its alloc (fromGenesis), or a chain's saved parts
 * (restore). No block beyond genesis is executed here.
 */
import { createBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, type MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, equalsBytes, MapDB, ValueEncoding } from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';
import { speedUpInterpreter } from '../evm/index.js';
import { shortcutRequestCalls } from '../evm/requestCalls.js';
import { prepareCommon } from '../exec/common.js';
import { HeadStateManager } from '../state/headState.js';
import { ChainView } from './chainView.js';
import { minedBlock } from './receipts.js';
import type { ChainParts, DevAccount, GenesisArgs, MinedBlock } from './types.js';

/** What a chain is made of, before its blocks are appended. */
export interface ChainCore {
  readonly common: Common;
  /** The list of mined blocks (empty: the chain appends them). */
  readonly mined: MinedBlock[];
  readonly view: ChainView;
  readonly headState: MerkleStateManager;
  readonly headVm: Promise<VM> | undefined;
  readonly accounts: readonly DevAccount[];
  readonly scheduled: boolean;
}

/**
 * True when `common` has a hardfork schedule (imported chains): blocks pick their hardfork. Without one, every block
 * is built under the chain's one hardfork, and a restore must decode it so (not pick one by number and time).
 */
export const hasSchedule = (common: Common) =>
  common.hardforks().some((h) => Number(h.block ?? 0) > 0 || Number(h.timestamp ?? 0) > 0 || (h as { ttd?: unknown }).ttd != null);

/** A chain's core at genesis (its state generated from the alloc), and its genesis block. */
export async function genesisCore(args: GenesisArgs): Promise<{ core: ChainCore; genesis: MinedBlock }> {
  const common = prepareCommon(args.common);
  const gHeader = args.genesisBlock?.header;
  const scheduled = hasSchedule(common);
  if (scheduled) common.setHardforkBy({ blockNumber: 0n, timestamp: gHeader?.timestamp ?? BigInt(args.header?.timestamp?.toString() ?? 0) });
  // Bytes values, set explicitly: storage tries are copies of this trie's options, and without it
  // they store every node as a hex string (hex conversions on every read and write, twice the memory).
  const trie = new MerklePatriciaTrie({ useKeyHashing: true, common, db: new MapDB(), valueEncoding: ValueEncoding.Bytes });
  const headState = new HeadStateManager({ common, trie, caches: new Caches() });
  await headState.generateCanonicalGenesis(args.state ?? {});
  const stateRoot = await headState.getStateRoot();
  let genesis = args.genesisBlock;
  if (genesis !== undefined && !equalsBytes(genesis.header.stateRoot, stateRoot)) {
    throw new Error(
      `genesis state root ${bytesToHex(stateRoot)} computed from the alloc differs from the genesis block's ${bytesToHex(genesis.header.stateRoot)}`,
    );
  }
  genesis ??= createBlock({ header: { ...args.header, number: 0n, stateRoot }, withdrawals: common.isActivatedEIP(4895) ? [] : undefined }, { common });
  const mined: MinedBlock[] = [];
  const view = new ChainView(mined);
  const vm = await headVmOf(common, headState, view, scheduled);
  return {
    core: { common, mined, view, headState, headVm: Promise.resolve(vm), accounts: args.accounts ?? [], scheduled },
    genesis: minedBlock(genesis, 0n, [], []),
  };
}

/**
 * The VM that builds a chain's blocks on its head state. Without a hardfork schedule (the head VM then changes
 * hardfork, and with it its opcode table and system calls) it keeps the jump analyses of the few contracts block
 * building runs over and over, and answers the EIP-7002/7251 system calls that end each Prague block without running
 * their contracts while their queues are empty (evm/requestCalls.ts: the same state and root).
 */
export async function headVmOf(common: Common, headState: MerkleStateManager, view: ChainView, scheduled: boolean): Promise<VM> {
  const vm = await createVM({ common, stateManager: headState, blockchain: view });
  if (!scheduled) {
    speedUpInterpreter(vm.evm);
    shortcutRequestCalls(vm);
  }
  return vm;
}

/** A chain's core from saved parts; throws when blocks are misnumbered or head's root is not in the node store. */
export async function restoredCore(parts: ChainParts): Promise<ChainCore> {
  const common = prepareCommon(parts.common);
  const head = parts.blocks[parts.blocks.length - 1]?.header;
  if (head === undefined) throw new Error('a chain needs its genesis block');
  parts.blocks.forEach((m, i) => {
    if (m.number !== BigInt(i)) throw new Error(`block ${i} is numbered ${m.number}`);
  });
  const scheduled = hasSchedule(common);
  if (scheduled) common.setHardforkBy({ blockNumber: head.number, timestamp: head.timestamp });
  const trie = new MerklePatriciaTrie({ useKeyHashing: true, common, db: new MapDB(parts.nodes), valueEncoding: ValueEncoding.Bytes });
  const headState = new HeadStateManager({ common, trie, caches: new Caches() });
  await headState.setStateRoot(head.stateRoot);
  const mined: MinedBlock[] = [];
  const view = new ChainView(mined);
  return { common, mined, view, headState, headVm: undefined, accounts: parts.accounts, scheduled };
}
