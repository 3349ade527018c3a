/** The rollup network kind (src/networkKind.ts): its engine is its RollupChain, its seed a RollupSeed. */
import { crc32 } from 'node:zlib';
import type { NetworkKindDef } from '../networkKind.js';
import type { RollupSeed } from '../seed/rollup.js';
import { rollupNetwork } from './handle.js';
import type { RollupChain } from './engine/chain.js';
import { decodeRollupDump, encodeRollupDump, loadRollupDump, type RollupDump } from './persist/rollupDump.js';

export const rollupKind: NetworkKindDef<RollupChain, RollupDump, RollupSeed> = {
  kind: 'rollup',
  title: 'a rollup network',
  connectChainId: (chainId) => chainId,
  bareByDefault: false,
  state: {
    dump: async (chain) => encodeRollupDump(chain),
    // A rollup network's dump is small: its checksum.
    fingerprint: (chain) => String(crc32(encodeRollupDump(chain))),
    decode: (chain, bytes, network) => decodeRollupDump(bytes, chain, network),
    load: async (chain, dump) => loadRollupDump(chain, dump),
  },
  // The rollup engine (and @scure/starknet) loads only when a rollup network is served.
  create: async (loaded, env) => (await import('./network.js')).cachedRollupNetwork(loaded.seed, env),
  handle: (name, chain) => rollupNetwork(name, chain),
  methodPrefix: (seed) => seed.prefix,
  l1Of: (seed) => (seed.l1Acceptance.kind === 'blocks' ? seed.l1Acceptance.network : undefined),
};
