/**
 * A node around a chain with the defaults a gateway gives (automine, geth's pool rules, no data directory), for code
 * that holds a chain without a gateway: engine tests, benches, scripts.
 */
import { systemClock, type Clock } from '../../clock.js';
import type { EthChain } from '../engine/chain/chain.js';
import { Snapshots } from '../engine/control/snapshots.js';
import { Miner, type MiningOptions } from '../engine/mining/miner.js';
import { poolAdmission, type PoolSettings } from '../engine/mining/send.js';
import { Impersonation } from '../engine/wallet/impersonation.js';
import type { EthContext } from '../context.js';
import { EthNode } from './node.js';

export function standaloneNode(chain: EthChain, opts: { clock?: Clock; mining?: MiningOptions } = {}): EthNode {
  const miner = new Miner(chain, opts.clock ?? systemClock, opts.mining);
  const impersonation = new Impersonation();
  const pool: PoolSettings = { minTip: 0n, allowUnprotected: false };
  return new EthNode({ chain, miner, impersonation, pool, snapshots: new Snapshots(chain, miner, impersonation), admission: poolAdmission(miner, pool) });
}

/** A method context over a standalone node (no filters). */
export function standaloneContext(chain: EthChain, networkName = 'dev', opts: { clock?: Clock; mining?: MiningOptions } = {}): EthContext {
  const node = standaloneNode(chain, opts);
  return { node, chain, miner: node.miner, networkName };
}
