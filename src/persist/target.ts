/** What dump and load need of an eth network: its parts, and its node's commands that run them on its writer. */
import type { AnvilState } from '../eth/engine/persist/dump/anvilState.js';
import type { EthDump, EthDumpSource } from '../eth/engine/persist/dump/ethDump.js';
import type { EthLoadResult } from '../eth/engine/persist/dump/ethLoad.js';

/** An eth network as dump and load see it (its node: src/eth/node/). */
export interface EthDumpTarget extends EthDumpSource {
  /** The network's dump (encodeEthDump), taken on its writer: no write is half seen. */
  dumpState(network: string): Promise<Uint8Array>;
  /** Loads a dump (planEthLoad, then the blocks, pool and controls), on its writer; throws DumpError, changing nothing. */
  loadDump(dump: EthDump): Promise<EthLoadResult>;
  /** Puts an anvil state's accounts into head's state (anvilStateEdit), on its writer: all or nothing. */
  applyAnvilState(state: AnvilState): Promise<void>;
}
