/**
 * A fork kept in a data directory (docs/fork.md, "Dump, load and the data directory"). The directory holds what a
 * plain network's does (src/eth/dataDir.ts, engine/persist/dataDir/): the blocks from the fork block on (the fork block's own header, then the
 * local blocks), head and seed records, and every trie node the fork has, i.e. every node it fetched from the
 * upstream and every node it wrote. The fork's node store is the directory's (DurableNodes); a node fetched is
 * written as it arrives, so a restart fetches nothing the directory holds.
 *
 * First start: the fork is opened as without a directory (its dev accounts funded at head) and written. Every
 * start then reopens the fork at the stored fork block (the upstream is asked its chain id and the fork block's
 * header, or the fork's disk cache answers) over the stored nodes and blocks, and checks the upstream's fork block
 * is the stored one: a directory is never served over another chain.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, createAddressFromString, equalsBytes, hexToBytes } from '@ethereumjs/util';
import { chainKey } from '../cache/chainCache.js';
import { plainHex } from '../hex.js';
import type { LoadedSeed } from '../seed/load.js';
import type { EthSeed } from '../seed/eth.js';
import { hasSchedule } from './engine/chain/create.js';
import type { DevAccount, EthChainOptions } from './engine/chain/types.js';
import { prepareCommon } from './engine/exec/common.js';
import { storedBlocks } from './engine/persist/dataDir/blocks.js';
import { decodeHead, HEAD, headNumberOf, nodeKey, SEED_HEAD } from './engine/persist/dataDir/codec.js';
import { type RestoredChain, seedStore, storedMeta, updateMeta } from './engine/persist/dataDir/ethStore.js';
import { DurableNodes } from './engine/persist/dataDir/nodes.js';
import { attachable, type DataDirChain } from './dataDir.js';
import { DataDirError, type DataDir } from '../persist/store.js';
import { type ForkBase, openFork } from './engine/fork/forkBase.js';
import { chainOnFork, forkedSeedChain, seedForkOptions } from './engine/fork/forkChain.js';

export interface ForkDataDirChain extends DataDirChain {
  /** The fork the chain is on (its upstream and history up to the fork block). */
  readonly fork: ForkBase;
}

/** The fork of `loaded`'s seed kept in `dir` (see the file comment); throws DataDirError for a foreign or unsound store. */
export async function dataDirForkChain(
  dir: DataDir,
  loaded: LoadedSeed & { seed: EthSeed },
  cacheDir: string | undefined,
  opts: EthChainOptions,
): Promise<ForkDataDirChain> {
  const seed = loaded.seed;
  const where = `data directory ${dir.path}, network ${JSON.stringify(seed.name)}`;
  const db = dir.network('eth', seed.name);
  const key = plainHex(chainKey(loaded));
  const options = seedForkOptions(seed);
  let meta = storedMeta(db, where);
  if (meta === undefined) {
    const { chain } = await forkedSeedChain(seed, cacheDir, opts);
    await seedStore(db, chain, { chainKey: key }, '');
    meta = storedMeta(db, where)!;
  }
  // The seed record's head is the fork block (the chain the directory was first written with had no other block).
  const forkBlock = BigInt(meta.seedHead);
  if (options.blockNumber !== undefined && options.blockNumber !== forkBlock) {
    throw new DataDirError(
      `${where}: it holds a fork at block ${forkBlock}, the seed forks at block ${options.blockNumber}; give another --data-dir, or remove this one to start afresh`,
    );
  }
  const nodes = new DurableNodes(db);
  // What is fetched is written at once, not with the next commit (a read-only session fetches too): nodes are
  // content-addressed, so a write at any time changes no root; one that fails is written with the next commit.
  const keep = (hex: string, value: Uint8Array) => void db.put(nodeKey(hex), value).catch(() => undefined);
  const fork = await openFork({ ...options, blockNumber: forkBlock, cacheDir, nodes, keep });
  if (bytesToHex(fork.header.hash()) !== meta.genesisHash || fork.chainId.toString(10) !== meta.chainId) {
    throw new DataDirError(
      `${where}: it holds a fork of chain id ${meta.chainId} at block ${forkBlock} ${meta.genesisHash}; the upstream ${fork.upstream.url} has chain id ${fork.chainId} and block ${bytesToHex(fork.header.hash())} there`,
    );
  }
  if (meta.chainKey !== key) await updateMeta(db, { ...meta, chainKey: key });

  const headBytes = db.get(HEAD);
  const seedBytes = db.get(SEED_HEAD);
  if (headBytes === undefined || seedBytes === undefined) throw new DataDirError(`${where}: the network's records are incomplete`);
  const common = fork.common;
  const keccak = common.customCrypto.keccak256 ?? keccak_256;
  const blocks = storedBlocks(db, headNumberOf(headBytes), { common: prepareCommon(common), setHardfork: hasSchedule(common) }, keccak, forkBlock);
  if (!equalsBytes(blocks[0]!.hash, fork.header.hash())) throw new DataDirError(`${where}: its first block is not the fork block`);
  const headOf = () => blocks[blocks.length - 1]!.header.common;
  const head = decodeHead(headBytes, headOf);
  const seedHead = decodeHead(seedBytes, headOf);
  if (!equalsBytes(blocks[blocks.length - 1]!.hash, head.headHash))
    throw new DataDirError(`${where}: the head record names block ${bytesToHex(head.headHash)}, the index ${bytesToHex(blocks[blocks.length - 1]!.hash)}`);
  const accounts: DevAccount[] = meta.accounts.map((a) => ({
    address: createAddressFromString(a.address),
    privateKey: hexToBytes(a.privateKey as `0x${string}`),
  }));
  const chain = chainOnFork(fork, blocks, opts, accounts);
  try {
    // Nothing else holds the chain yet: no writer to wait for. Head's state moves from the fork block's to head's.
    await chain.truncate(head.head, head.editedRoot);
  } catch (err) {
    throw new DataDirError(`${where}: the stored fork is not sound: ${(err as Error).message}`);
  }
  chain.setPool(head.pool);
  nodes.takeDirty();
  const restored: RestoredChain = { chain, nodes, head, seedHead };
  return { ...attachable(db, restored), fork };
}
