/**
 * The VMs eth_simulateV1 runs on, kept per chain and hardfork and reused across requests (making one costs a VM,
 * an EVM with its opcode table, a Common, the `debug` loggers: as much as a whole simulated call). A VM is leased
 * to one request at a time; the request points it at its own state (state/overlayState.ts) and BLOCKHASH view, and gives
 * it back with no checkpoint open (a VM whose request failed half-way is dropped, not reused).
 */
import type { Block } from '@ethereumjs/block';
import { type Common, Hardfork } from '@ethereumjs/common';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createVM, type VM } from '@ethereumjs/vm';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';
import { speedUpInterpreter } from '../evm/index.js';
import { shortcutRequestCalls } from '../evm/requestCalls.js';
import { pointVmAt } from '../evm/vmState.js';
import { LogCollector } from './logs.js';
import { OverlayState } from '../state/overlayState.js';
import { sharedReads } from './state.js';

const ZERO32 = new Uint8Array(32);

/** BLOCKHASH of simulated blocks: the chain's blocks up to the base, then the blocks simulated so far. */
export class SimView {
  chain: EthChain | undefined;
  base: MinedBlock | undefined;
  done: readonly Block[] = [];

  async getBlock(n: number): Promise<Block> {
    const base = this.base!;
    if (BigInt(n) <= base.number) return (this.chain!.blockByNumber(BigInt(n)) ?? base).block;
    const sim = this.done.find((b) => b.header.number === BigInt(n));
    if (sim !== undefined) return sim;
    return { hash: () => ZERO32 } as unknown as Block;
  }

  async putBlock(): Promise<void> {}

  shallowCopy(): this {
    return this;
  }

  async validateHeader(): Promise<void> {}
}

/** A VM that runs simulations, with its own state, log collector and view. */
export interface SimVm {
  readonly vm: VM;
  /** The state the VM was made with (a request may point the VM at its own: see useState). */
  readonly own: OverlayState;
  readonly logs: LogCollector;
  readonly view: SimView;
  /** The Common transactions are made with: without EIP-7825's cap (geth's simulator skips the tx checks). */
  readonly txCommon: Common;
}

/** Idle VMs kept per hardfork and chain (concurrent requests each lease their own; as many as eth_call keeps). */
const MAX_IDLE = 32;
const idle = new WeakMap<EthChain, Map<string, SimVm[]>>();

/** An idle simulation VM of `chain` running under `hardfork` (the rules of forks.ts), or a new one. */
export async function leaseVm(chain: EthChain, hardfork: string): Promise<SimVm> {
  const list = idle.get(chain)?.get(hardfork);
  const sim = list?.pop();
  if (sim !== undefined) return sim;
  // Set by name: @ethereumjs would refuse some of geth's choices by number and time (forks.ts).
  const common = chain.common.copy();
  if (common.hardfork() !== hardfork) common.setHardfork(hardfork);
  const view = new SimView();
  const own = new OverlayState(common.customCrypto.keccak256 ?? keccak_256, undefined, sharedReads(chain));
  const vm = await createVM({ common, stateManager: own as never, blockchain: view as never });
  speedUpInterpreter(vm.evm);
  // Each block's EIP-7002/7251 system calls: answered without running the contracts when their queues are empty.
  shortcutRequestCalls(vm);
  let txCommon = common;
  if (common.isActivatedEIP(7825)) {
    txCommon = common.copy();
    txCommon.setHardfork(Hardfork.Prague);
  }
  return { vm, own, logs: new LogCollector(vm), view, txCommon };
}

/** Points `sim`'s VM at `state` (a request's blocks of several hardforks share one state). */
export function useState(sim: SimVm, state: OverlayState): void {
  pointVmAt(sim.vm, state);
}

/** Gives `sim` back after a request (kept only when nothing of the request is left open). */
export function releaseVm(chain: EthChain, sim: SimVm, state: OverlayState): void {
  useState(sim, sim.own);
  sim.view.chain = sim.view.base = undefined;
  sim.view.done = [];
  if (state.depth !== 0 || sim.own.depth !== 0) return;
  sim.own.release();
  let byFork = idle.get(chain);
  if (byFork === undefined) idle.set(chain, (byFork = new Map()));
  const key = sim.vm.common.hardfork();
  let list = byFork.get(key);
  if (list === undefined) byFork.set(key, (list = []));
  if (list.length < MAX_IDLE) list.push(sim);
}

/** Idle VMs of `chain` (for tests). */
export function idleVms(chain: EthChain): number {
  let n = 0;
  for (const list of idle.get(chain)?.values() ?? []) n += list.length;
  return n;
}
