/** Builds the networks a gateway serves from their seeds, each by its kind (src/kinds.ts; the types: networkTypes.ts). */
import { KIND_LIST, KINDS } from './kinds.js';
import type { IsolateBounds } from './networkKind.js';
import type { Network, NetworkEnv } from './networkTypes.js';
import type { LoadedSeed, Seed } from './seed/load.js';

export type { Network, NetworkEnv, NetworkInfo, NetworkKind } from './networkTypes.js';

/** Builds the network a seed describes. */
export async function createNetwork(loaded: LoadedSeed, env: NetworkEnv): Promise<Network> {
  return KINDS[loaded.seed.kind].create(loaded, env);
}

/**
 * The networks as served with `isolate: 'key'` (docs/isolate.md): each network of a kind that can be isolated (eth),
 * isolated per key from its state now; the others stay shared by every key.
 */
export async function isolateNetworks(
  networks: readonly Network[],
  seeds: readonly LoadedSeed[],
  env: NetworkEnv,
  bounds: IsolateBounds,
  sharedKey: string,
): Promise<Network[]> {
  const served: Network[] = [];
  for (const n of networks) {
    const seed = seeds.find((s) => s.seed.name === n.name)?.seed;
    const isolate = KINDS[n.kind].isolate;
    served.push(isolate !== undefined && seed?.kind === n.kind ? await isolate.serve(n, seed, env, bounds, sharedKey) : n);
  }
  return served;
}

/** The first seed whose network cannot be isolated per key, and why; undefined when every one can (or stays shared). */
export function isolateRefusal(seeds: readonly Seed[]): string | undefined {
  for (const s of seeds) {
    const refusal = KINDS[s.kind].isolate?.refusal(s);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/** Checks that every network whose L1 acceptance counts blocks (a rollup's) names a network of the same gateway that can be an L1. */
export function checkRollupL1Networks(seeds: readonly Seed[]): void {
  for (const s of seeds) {
    const network = KINDS[s.kind].l1Of?.(s);
    if (network === undefined) continue;
    const l1 = seeds.find((o) => o.name === network);
    if (l1 === undefined || KINDS[l1.kind].l1Head === undefined) {
      const can = KIND_LIST.filter((k) => k.l1Head !== undefined).map((k) => k.title);
      throw new TypeError(`${s.kind} ${JSON.stringify(s.name)}: l1Acceptance.network ${JSON.stringify(network)} is not ${can.join(' or ')} of this gateway`);
    }
  }
}
