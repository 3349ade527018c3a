/** What every eth_ method handler gets: the network's node (its one door for writes), its chain for reads, and its settings. */
import type { EthChain } from './engine/chain/chain.js';
import type { Miner } from './engine/mining/miner.js';
import type { EthFilters } from '../subscriptions/ethFilters.js';
import type { CallOrigin } from '../networkTypes.js';
import type { EthNode } from './node/node.js';
import type { ForkResets } from './engine/fork/forkReset.js';

export interface EthContext {
  /** The network's node: every write (sends, mining, edits, snapshots, drops, dump and load) is one of its commands. */
  readonly node: EthNode;
  /** The node's chain, for reads (blocks, state, receipts at any block). */
  readonly chain: EthChain;
  readonly networkName: string;
  /** The node's mining settings and time controls (mode, next timestamp, base fee, ...): the dev methods set them. */
  readonly miner: Miner;
  /** Polling filters (made with the network; absent in engine-only tests). */
  readonly filters?: EthFilters;
  /** Which fork the network serves, and the forks a reset opens (made with the network; absent in engine-only tests). */
  readonly forks?: ForkResets;
  /** Who calls (the gateway's key), given to the filter methods only: filters are kept per key. */
  readonly origin?: CallOrigin;
}

/** What an eth network's engine is: its node (start()'s handle and the rollup's L1 link read it). */
export type EthEngine = EthNode;
