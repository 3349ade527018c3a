/**
 * The chain a loaded seed describes: a devgate seed is built block by block (seed.ts); a seed naming a
 * geth genesis and RLP chain is imported (import.ts). The chain engine imports neither: builders use it.
 */
import type { LoadedSeed } from '../../../seed/load.js';
import type { EthChain } from '../chain/chain.js';
import type { EthChainOptions } from '../chain/types.js';
import { importSeedChain } from './import.js';
import { buildSeedChain } from './seed.js';

/** Builds the chain a seed describes: genesis, every seeded block executed, the pending pool. */
export function chainFromSeed(loaded: LoadedSeed, opts: EthChainOptions = {}): Promise<EthChain> {
  if ('gethGenesis' in loaded.seed && loaded.seed.gethGenesis !== undefined) return importSeedChain(loaded, opts);
  return buildSeedChain(loaded, opts);
}
