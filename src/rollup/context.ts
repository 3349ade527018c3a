/** What every rollup_ method handler gets: the network's engine and its settings. */
import type { RollupChain } from './engine/chain.js';

export interface RollupContext {
  readonly chain: RollupChain;
  readonly networkName: string;
}
