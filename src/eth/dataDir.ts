/**
 * An eth network served from a data directory: on its first start the seed's chain is built (or restored from
 * the chain cache) and written to the directory; on every start the chain is then restored from the directory,
 * so the first start and a restart serve the same code path. A directory written for another seed is refused
 * unless the seed's genesis (and chain id) are the same: a seed whose key changed (an edited seed file, another
 * devgate version) with the same genesis keeps the stored chain.
 */
import type { LoadedSeed } from '../seed/load.js';
import { cachedEthChain, chainCommon, chainKey } from '../cache/chainCache.js';
import { bytesHex, plainHex } from '../hex.js';
import { seedGenesis } from './engine/build/seed.js';
import { genesisCore } from './engine/chain/create.js';
import type { EthChain } from './engine/chain/chain.js';
import type { EthChainOptions } from './engine/chain/types.js';
import type { Snapshot } from './engine/control/snapshots.js';
import type { Miner } from './engine/mining/miner.js';
import type { Impersonation } from './engine/wallet/impersonation.js';
import {
  attachStore,
  type ChainStore,
  type RestoredChain,
  restoreStore,
  seedStateOf,
  seedStore,
  storedMeta,
  updateMeta,
} from './engine/persist/dataDir/ethStore.js';
import { DataDirError, type DataDir, type NetworkDb } from '../persist/store.js';

export interface DataDirChain {
  readonly chain: EthChain;
  /**
   * Restores the network's miner and impersonation state from the directory (with `startModeWins`, the mining
   * mode the start was given stays: --block-time, --no-mining) and keeps the directory in step from now on;
   * gives the snapshots' starting point (the seed's chain: anvil_reset goes back to it) and the store the node
   * writes through.
   */
  attach(miner: Miner, impersonation: Impersonation, startModeWins?: boolean): { initial: Snapshot; store: ChainStore };
}

/** The eth network of `loaded`, kept in `dir` (see the file comment); throws DataDirError for a foreign or unsound store. */
export async function dataDirEthChain(dir: DataDir, loaded: LoadedSeed, cacheDir: string | undefined, opts: EthChainOptions): Promise<DataDirChain> {
  const name = loaded.seed.name;
  const where = `data directory ${dir.path}, network ${JSON.stringify(name)}`;
  const db = dir.network('eth', name);
  const key = plainHex(chainKey(loaded));
  const common = await chainCommon(loaded);
  const meta = storedMeta(db, where);
  if (meta === undefined) {
    const { chain } = await cachedEthChain(loaded, cacheDir, opts);
    await seedStore(db, chain, { chainKey: key }, '');
  } else if (meta.chainKey !== key) {
    const chainId = common.chainId().toString(10);
    const genesis = await seedGenesisHash(loaded, cacheDir, opts);
    if (genesis !== meta.genesisHash || chainId !== meta.chainId) {
      throw new DataDirError(
        `${where}: it holds the chain of genesis ${meta.genesisHash} (chain id ${meta.chainId}), the seed ${loaded.source} gives genesis ${genesis} (chain id ${chainId}); give another --data-dir, or remove this one to start afresh`,
      );
    }
    await updateMeta(db, { ...meta, chainKey: key });
  }
  return attachable(db, await restoreStore(db, common, opts, where));
}

/** A restored chain and how it attaches to its network (also a fork's: fork/forkDataDir.ts). */
export function attachable(db: NetworkDb, restored: RestoredChain): DataDirChain {
  return {
    chain: restored.chain,
    attach(miner, impersonation, startModeWins = false) {
      const startMiner = miner.state();
      const startImpersonation = impersonation.state();
      const store = attachStore(db, restored, miner, impersonation);
      if (startModeWins) miner.restore({ ...miner.state(), automine: startMiner.automine, intervalMs: startMiner.intervalMs });
      const seed = seedStateOf(restored.seedHead);
      const initial: Snapshot = {
        head: seed.head,
        headHash: seed.headHash,
        editedRoot: seed.editedRoot,
        pool: seed.pool,
        miner: seed.controls?.miner ?? startMiner,
        impersonation: seed.controls?.impersonation ?? startImpersonation,
      };
      return { initial, store };
    },
  };
}

/**
 * Whether `dir` holds the eth network of `loaded` under the seed's own key (the seed file's bytes are those its
 * chain was built from): the seed loader then validates all but its blocks, which the stored chain never reads.
 */
export function dataDirHolds(dir: DataDir, loaded: LoadedSeed): boolean {
  try {
    return storedMeta(dir.network('eth', loaded.seed.name), dir.path)?.chainKey === plainHex(chainKey(loaded));
  } catch {
    return false;
  }
}

/** The genesis hash a seed gives: a devgate seed's genesis alone is built; an imported chain's is read from its build. */
async function seedGenesisHash(loaded: LoadedSeed, cacheDir: string | undefined, opts: EthChainOptions): Promise<string> {
  if ('gethGenesis' in loaded.seed && loaded.seed.gethGenesis !== undefined) {
    const { chain } = await cachedEthChain(loaded, cacheDir, opts);
    return bytesHex(chain.blockByNumber(0n)!.hash);
  }
  const { genesis } = await genesisCore(seedGenesis(loaded));
  return bytesHex(genesis.hash);
}
