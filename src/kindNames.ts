/**
 * The kinds of network, by name. Each is defined in its own folder (src/eth/kind.ts, src/rollup/kind.ts) and registered
 * in src/kinds.ts, whose type makes it cover every name here; code below the registry (the state file) reads only this.
 */
export const NETWORK_KINDS = ['eth', 'rollup'] as const;
export type NetworkKind = (typeof NETWORK_KINDS)[number];
