/** The rollup network kind (src/networkKind.ts): its engine is its RollupChain. */
import { crc32 } from 'node:zlib';
import type { NetworkKindDef } from '../networkKind.js';
import type { RollupChain } from './engine/chain.js';
import { decodeRollupDump, encodeRollupDump, loadRollupDump, type RollupDump } from './persist/rollupDump.js';

export const rollupKind: NetworkKindDef<RollupChain, RollupDump> = {
  kind: 'rollup',
  state: {
    dump: async (chain) => encodeRollupDump(chain),
    // A rollup network's dump is small: its checksum.
    fingerprint: (chain) => String(crc32(encodeRollupDump(chain))),
    decode: (chain, bytes, network) => decodeRollupDump(bytes, chain, network),
    load: async (chain, dump) => loadRollupDump(chain, dump),
  },
};
