/**
 * Isolation per API key (docs/isolate.md): wraps an eth network so that each key gets its own copy-on-write copy of
 * it as started (copy.ts), served through IsolatedEthNetwork (isolated.ts).
 */
import type { NetworkEnv } from '../../networkTypes.js';
import type { EthSeed } from '../../seed/eth.js';
import { ethNetworkOn, type EthNetwork } from '../network.js';
import { chainStart, copyChain } from './copy.js';
import { IsolatedEthNetwork, type IsolateSettings } from './isolated.js';

export { DEFAULT_ISOLATE, IsolatedEthNetwork, type CopyInfo, type IsolateSettings } from './isolated.js';

/**
 * `network` isolated per key, from its state now (the start's, after seeding and the start's state file): its blocks,
 * pool, head's edits, mining settings, time controls and impersonation. Throws for a network copies cannot start
 * from (a fork: its state is fetched from its upstream as it is read).
 */
export function isolateEthNetwork(network: EthNetwork, seed: EthSeed, env: NetworkEnv, settings: IsolateSettings, sharedKey: string): IsolatedEthNetwork {
  if (seed.fork !== undefined)
    throw new TypeError(
      `invalid devgate options:\nisolate: network ${JSON.stringify(seed.name)} is a fork (docs/fork.md); forks cannot be isolated per key yet`,
    );
  const node = network.engine;
  const start = chainStart(node.chain, { safeDepth: seed.safeDepth, finalizedDepth: seed.finalizedDepth });
  const controls = { miner: node.miner.state(), impersonation: node.impersonation.state() };
  // Copies live in memory only: a data directory keeps the shared chain, never a key's copy.
  const copyEnv: NetworkEnv = { ...env, dataDir: undefined };
  const make = async () => {
    const { chain, nodes } = await copyChain(start);
    return { network: await ethNetworkOn(chain, seed, copyEnv, { controls }), nodes };
  };
  return new IsolatedEthNetwork(network, make, settings, env.clock, sharedKey, node.chain.head().number);
}
