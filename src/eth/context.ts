/** What every eth_ method handler gets: the network's engine and its settings. */
import type { EthChain } from './engine/chain/chain.js';

export interface EthContext {
  readonly chain: EthChain;
  readonly networkName: string;
}
