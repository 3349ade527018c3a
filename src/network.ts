/** Builds the networks a gateway serves from their seeds (the types: networkTypes.ts). */
import type { Network, NetworkEnv } from './networkTypes.js';
import type { LoadedSeed } from './seed/load.js';
import { createEthNetwork, EthNetwork } from './eth/network.js';
import type { IsolateSettings } from './eth/isolate/isolated.js';
import type { RollupSeed } from './seed/rollup.js';

export type { Network, NetworkEnv, NetworkInfo, NetworkKind } from './networkTypes.js';

/** Builds the network a seed describes. */
export async function createNetwork(loaded: LoadedSeed, env: NetworkEnv): Promise<Network> {
  const seed = loaded.seed;
  switch (seed.kind) {
    case 'eth': {
      return createEthNetwork({ ...loaded, seed }, env);
    }
    case 'rollup': {
      // The rollup engine (and @scure/starknet) loads only when a rollup network is served.
      const { cachedRollupNetwork } = await import('./rollup/network.js');
      return cachedRollupNetwork(seed, env);
    }
  }
}

/**
 * The networks as served with `isolate: 'key'` (docs/isolate.md): each eth network isolated per key from its state
 * now; rollup networks stay shared by every key.
 */
export async function isolateNetworks(
  networks: readonly Network[],
  seeds: readonly LoadedSeed[],
  env: NetworkEnv,
  settings: IsolateSettings,
  sharedKey: string,
): Promise<Network[]> {
  const { isolateEthNetwork } = await import('./eth/isolate/index.js');
  return networks.map((n) => {
    const seed = seeds.find((s) => s.seed.name === n.name)?.seed;
    return n instanceof EthNetwork && seed?.kind === 'eth' ? isolateEthNetwork(n, seed, env, settings, sharedKey) : n;
  });
}

/** Checks that every rollup whose L1 acceptance counts blocks names an eth network of the same gateway. */
export function checkRollupL1Networks(seeds: readonly { kind: string; name: string; l1Acceptance?: RollupSeed['l1Acceptance'] }[]): void {
  for (const s of seeds) {
    const rule = s.kind === 'rollup' ? s.l1Acceptance : undefined;
    if (rule?.kind !== 'blocks') continue;
    const l1 = seeds.find((o) => o.name === rule.network);
    if (l1?.kind !== 'eth') {
      throw new TypeError(`rollup ${JSON.stringify(s.name)}: l1Acceptance.network ${JSON.stringify(rule.network)} is not an eth network of this gateway`);
    }
  }
}
