/** The eth network kind (src/networkKind.ts): its engine is its node (EthEngine), its seed an EthSeed. */
import type { NetworkKindDef } from '../networkKind.js';
import type { EthSeed } from '../seed/eth.js';
import type { EthEngine } from './context.js';
import type { EthDump } from './engine/persist/dump/ethDump.js';
import { ethState } from './kindState.js';
import { createEthNetwork, type EthNetwork } from './network.js';

export const ethKind: NetworkKindDef<EthEngine, EthDump, EthSeed> = {
  kind: 'eth',
  title: 'an eth network',
  state: ethState,
  create: (loaded, env) => createEthNetwork(loaded, env),
  l1Head: (node) => node.chain.head().number,
  isolate: {
    // Checked before any chain is built (a fork's would reach its upstream first).
    refusal: (seed) =>
      seed.fork === undefined
        ? undefined
        : `invalid devgate options:\nisolate: network ${JSON.stringify(seed.name)} is a fork (docs/fork.md); forks cannot be isolated per key yet`,
    serve: async (network, seed, env, bounds, sharedKey) =>
      (await import('./isolate/index.js')).isolateEthNetwork(network as EthNetwork, seed, env, bounds, sharedKey),
  },
};
