/** The kinds of network devgate serves, each registered once (the interface: src/networkKind.ts; adding one: docs/ARCHITECTURE.md). */
import { ethKind } from './eth/kind.js';
import { erased, type NetworkKindDef } from './networkKind.js';
import type { Network, NetworkKind } from './networkTypes.js';
import type { StateNetwork } from './persist/gatewayState.js';
import { rollupKind } from './rollup/kind.js';

export const KINDS: { readonly [K in NetworkKind]: NetworkKindDef } = { eth: erased(ethKind), rollup: erased(rollupKind) };

/** The kinds in registration order. */
export const KIND_LIST: readonly NetworkKindDef[] = Object.values(KINDS);

/** A network as dump and load take it: with its kind's part in them (src/persist/kindState.ts). */
export const stateNetwork = (n: Pick<Network, 'name' | 'kind' | 'engine'>): StateNetwork => ({
  name: n.name,
  kind: n.kind,
  engine: n.engine,
  state: KINDS[n.kind].state,
});
