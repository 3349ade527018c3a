/** What every eth_ method handler gets: the network's engine, its miner and its settings. */
import type { EthChain } from './engine/chain/chain.js';
import type { Miner } from './engine/mining/miner.js';
import type { Admission, PoolSettings } from './engine/mining/send.js';
import type { Snapshots } from './engine/control/snapshots.js';
import type { EthFilters } from '../subscriptions/ethFilters.js';
import type { Impersonation } from './engine/wallet/impersonation.js';
import type { CallOrigin } from '../networkTypes.js';

export interface EthContext {
  readonly chain: EthChain;
  readonly networkName: string;
  /** Mining mode and the controls of the dev methods. */
  readonly miner: Miner;
  /** evm_snapshot / evm_revert / anvil_reset (made with the network; absent in engine-only tests). */
  readonly snapshots?: Snapshots;
  /** Addresses eth_sendTransaction may send from without a key (made with the network). */
  readonly impersonation?: Impersonation;
  /** Polling filters (made with the network; absent in engine-only tests). */
  readonly filters?: EthFilters;
  /** The pool's checks of a sent transaction (default: geth's, poolAdmission). */
  readonly admission?: Admission;
  /** What the pool accepts beyond geth's rules (anvil_setMinGasPrice changes it). */
  readonly pool?: PoolSettings;
  /** Who calls (the gateway's key), given to the filter methods only: filters are kept per key. */
  readonly origin?: CallOrigin;
}

/** What an eth network's engine is: its chain and its miner (start()'s handle and the rollup's L1 link read it). */
export interface EthEngine {
  readonly chain: EthChain;
  readonly miner: Miner;
  readonly snapshots: Snapshots;
  /** Impersonated addresses and the pool's settings (dump and load keep them). */
  readonly impersonation?: Impersonation;
  readonly pool?: PoolSettings;
}
