/** The eth network kind (src/networkKind.ts): its engine is its node, an EthDumpTarget for dump and load. */
import type { NetworkKindDef } from '../networkKind.js';
import type { EthDumpTarget } from '../persist/target.js';
import { decodeEthDump, type EthDump, ethDumpFingerprint } from './engine/persist/dump/ethDump.js';

export const ethKind: NetworkKindDef<EthDumpTarget, EthDump> = {
  kind: 'eth',
  state: {
    dump: (t, network) => t.dumpState(network),
    fingerprint: (t) => ethDumpFingerprint(t),
    decode: (t, bytes, network) => decodeEthDump(bytes, t.chain, network),
    load: async (t, dump) => {
      const r = await t.loadDump(dump);
      return `head ${r.head} (blocks 0-${r.shared} kept, ${r.head - r.shared} loaded), ${dump.parts.pool.length} pending`;
    },
    anvil: (t, state) => t.applyAnvilState(state),
  },
};
