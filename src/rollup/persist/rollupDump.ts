/**
 * A rollup network in a dump: its chain as the rollup snapshot the cache of built chains already writes
 * (src/rollup/snapshot.ts: every block with its status, transactions and receipts, states, the pending block, the
 * chain's time), keyed by the chain id and the genesis block's hash, so it loads only onto the chain it grew from.
 * Clock readings move to the loading process's clock, as a cache restore does: chain time goes on from the dump's.
 */
import { createHash } from 'node:crypto';
import type { RollupChain, RollupChainParts } from '../engine/chain.js';
import { loadRollupParts } from '../engine/load.js';
import { decodeRollupSnapshot, encodeRollupSnapshot } from '../snapshot.js';
import { DumpError } from '../../persist/dumpError.js';

/** A rollup dump read and checked against its chain. */
export interface RollupDump {
  readonly parts: RollupChainParts;
}

/** The 32-byte key of a rollup chain's dumps: its chain id and genesis block. */
function keyOf(chain: RollupChain): Uint8Array {
  const genesis = chain.parts().blocks[0]?.hash ?? '';
  return new Uint8Array(createHash('sha256').update(`devgate rollup dump\0${chain.config.chainId}\0${genesis}`).digest());
}

export function encodeRollupDump(chain: RollupChain): Uint8Array {
  chain.sync();
  return encodeRollupSnapshot(chain.parts(), keyOf(chain));
}

/** Reads a rollup dump for `chain`; DumpError if it is not one, is damaged or is of another chain. */
export function decodeRollupDump(bytes: Uint8Array, chain: RollupChain, network: string): RollupDump {
  try {
    const parts = decodeRollupSnapshot(bytes, keyOf(chain));
    if (parts.blocks.length === 0) throw new Error('no blocks');
    return { parts };
  } catch (err) {
    const why = (err as Error).message.replace('snapshot of another chain', 'a dump of another chain (chain id or genesis differ)');
    throw new DumpError(`rollup dump for network ${JSON.stringify(network)}: ${why}`);
  }
}

/**
 * Puts the dump's chain in place of `chain`'s as devnet_load does (snapshots forgotten, the blocks that leave and
 * come reported to subscriptions); says what it loaded.
 */
export function loadRollupDump(chain: RollupChain, dump: RollupDump): string {
  loadRollupParts(chain, dump.parts);
  return `${dump.parts.blocks.length} rollup blocks, ${dump.parts.pendingTxs.length} pending`;
}
