/** What the Starknet WebSocket methods get: the connection's subscriptions and the prefix the call was made with. */
import type { StarknetSubscriptions } from '../starknetSubscriptions.js';

export interface StarknetWsContext {
  readonly subs: StarknetSubscriptions;
  /** `starknet` (or the network's own prefix) or `rollup`: notifications carry the prefix of the subscribe call. */
  readonly prefix: string;
}
