/** The eth kind's part in dump and load (src/persist/kindState.ts): its engine is its node, an EthDumpTarget. */
import { erasedState, type KindState } from '../persist/kindState.js';
import type { EthDumpTarget } from '../persist/target.js';
import { decodeEthDump, type EthDump, ethDumpFingerprint } from './engine/persist/dump/ethDump.js';

export const ethState: KindState<EthDumpTarget, EthDump> = {
  dump: (t, network) => t.dumpState(network),
  fingerprint: (t) => ethDumpFingerprint(t),
  decode: (t, bytes, network) => decodeEthDump(bytes, t.chain, network),
  load: async (t, dump) => {
    const r = await t.loadDump(dump);
    return `head ${r.head} (blocks 0-${r.shared} kept, ${r.head - r.shared} loaded), ${dump.parts.pool.length} pending`;
  },
  anvil: (t, state) => t.applyAnvilState(state),
};

/** The same, as a network carries it (anvil_dumpState and anvil_loadState hand it to src/persist/gatewayState.ts). */
export const ethStateErased: KindState = erasedState(ethState);
