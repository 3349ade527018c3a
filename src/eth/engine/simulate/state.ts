/**
 * The private state of an eth_simulateV1 request (state/overlayState.ts, with state roots) at its base block: the chain's reads shared per
 * root (the ones eth_call uses) under the request's own overlay. Nothing of the request reaches the chain.
 */
import type { EthChain } from '../chain/chain.js';
import type { ChainStates } from '../chain/states.js';
import type { MinedBlock } from '../chain/types.js';
import type { CallVms } from '../exec/callVms.js';
import type { OverlayState } from '../state/overlayState.js';
import { forkReads, forkStateOf } from '../fork/forkReads.js';

/** The chain's reads shared per root (its states are private to the chain: simulation is one of their users). */
export const sharedReads = (chain: EthChain): CallVms => (chain as unknown as { states: ChainStates }).states.rootReads();

/** Points `state` at the post-state of `base` (on a fork, reads that meet unfetched state say so: fork/forkReads.ts). */
export function resetAt(state: OverlayState, chain: EthChain, base: MinedBlock): void {
  const reads = sharedReads(chain).readsAt(base);
  const fork = forkStateOf(chain);
  state.at(fork === undefined ? reads : forkReads(reads, fork));
}
