/**
 * Points a VM, its EVM and the EVM's journal at another state manager (eth_simulateV1's blocks of several hardforks
 * share one overlay state: simulate/simVms.ts). @ethereumjs sets the three once, when it makes the VM; the VM's is
 * declared readonly and the journal's private (`evm/dist/esm/journal.js`, pinned in test/eth/engine/evm/fence.test.ts).
 */
import type { VM } from '@ethereumjs/vm';

export function pointVmAt(vm: VM, state: object): void {
  const open = vm as unknown as { stateManager: unknown; evm: { stateManager: unknown; journal: { stateManager: unknown } } };
  open.stateManager = state;
  open.evm.stateManager = state;
  open.evm.journal.stateManager = state;
}
