/** The kinds of network devgate serves, each registered once (the interface: src/networkKind.ts). */
import { ethKind } from './eth/kind.js';
import { erased, type NetworkKindDef } from './networkKind.js';
import type { NetworkKind } from './networkTypes.js';
import { rollupKind } from './rollup/kind.js';

export const KINDS: { readonly [K in NetworkKind]: NetworkKindDef } = { eth: erased(ethKind), rollup: erased(rollupKind) };
