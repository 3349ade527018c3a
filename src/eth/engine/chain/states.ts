/**
 * The states of a chain's blocks, for reads and calls: copies of head's trie at a block's root, pooled VMs
 * (vmPool.ts), the call VMs' shared reads per root (callVms.ts), and read-only states. Every one of them asks
 * the chain for a block's root through `rootOf` (the header's stateRoot, or head's root with unmined edits),
 * and keys what it keeps by that root, so a head that moves, is cut back or is edited never serves stale state.
 */
import type { Common } from '@ethereumjs/common';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import type { Account, Address } from '@ethereumjs/util';
import { bytesToHex } from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';
import { CallVms } from '../exec/callVms.js';
import { accountNodeMap, accountTrie, keyPrefixes, stateKeccak } from '../evm/merkleState.js';
import { ReadStates, VmPool } from '../exec/vmPool.js';
import type { ChainView } from './chainView.js';
import type { MinedBlock } from './types.js';
import { plainHex } from '../../../hex.js';

export interface ChainStatesSource {
  readonly headState: MerkleStateManager;
  readonly view: ChainView;
  /** True when blocks pick their hardfork (a schedule): VMs then serve only their own block's rules. */
  readonly scheduled: boolean;
  readonly commonAt: (block: MinedBlock) => Common;
  /** The state root of a block's post-state as reads see it. */
  readonly rootOf: (block: MinedBlock) => Uint8Array;
}

export class ChainStates {
  /** Idle VMs of recently called blocks (estimates on stock VMs, pre-Byzantium chains). */
  private readonly vms: VmPool;
  private readonly reads: ReadStates;
  /** Idle eth_call VMs (callVms.ts), made on first use. */
  private callVms: VmPool | undefined;
  private callReads: CallVms | undefined;

  constructor(private readonly src: ChainStatesSource) {
    const poolKey = (block: MinedBlock) => (src.scheduled ? bytesToHex(block.hash) : 'any');
    this.vms = new VmPool({
      create: (block) => this.vmAt(block),
      // Without a hardfork schedule every block runs under the same rules: one pool of VMs, each
      // pointed at the root of its call (a root switch costs far less than a new VM).
      key: poolKey,
      rootOf: src.rootOf,
      retarget: (vm, block) => vm.stateManager.setStateRoot(src.rootOf(block)),
      maxPerKey: 32,
    });
    this.reads = new ReadStates((block) => this.readOnlyState(block), src.rootOf);
  }

  /** A private copy of the state after `block` (writes go to the shared node store: wrap work in checkpoint()/revert()). */
  async stateAt(block: MinedBlock): Promise<MerkleStateManager> {
    const state = this.src.headState.shallowCopy();
    await state.setStateRoot(this.src.rootOf(block));
    return state;
  }

  /** A VM on a copy of the state after `block`, whose BLOCKHASH answers from the chain. */
  async vmAt(block: MinedBlock): Promise<VM> {
    return createVM({ common: this.src.commonAt(block), stateManager: await this.stateAt(block), blockchain: this.src.view });
  }

  withVmAt<T>(block: MinedBlock, fn: (vm: VM) => Promise<T>): Promise<T> {
    return this.vms.use(block, fn);
  }

  withCallVmAt<T>(block: MinedBlock, fn: (vm: VM) => Promise<T>): Promise<T> {
    if (this.lazy) return this.withVmAt(block, fn);
    this.callVms ??= this.callVmPool();
    return this.callVms.use(block, fn);
  }

  readStateAt(block: MinedBlock): Promise<MerkleStateManager> {
    return this.reads.at(block);
  }

  /** Reads of committed state shared per root (accounts, slots, code), for call VMs and the state readers; made on first use. */
  rootReads(): CallVms {
    const head = this.src.headState;
    return (this.callReads ??= new CallVms({
      nodes: accountNodeMap(head) as Map<string, Uint8Array>,
      prefixCodeHashes: keyPrefixes(head).codeHashes,
      keccak: stateKeccak(head),
      view: this.src.view,
      commonAt: this.src.commonAt,
      rootOf: this.src.rootOf,
    }));
  }

  /**
   * True when the state is fetched as it is read (a fork: fork/forkStateManager.ts): reads and calls then go through
   * state managers, whose reads can wait for the upstream, not through the synchronous node-store readers.
   */
  private get lazy(): boolean {
    return (this.src.headState as { lazy?: boolean }).lazy === true;
  }

  async getAccount(address: Address, block: MinedBlock): Promise<Account | undefined> {
    if (this.lazy) return (await this.readStateAt(block)).getAccount(address);
    return this.rootReads().readsAt(block).account(address) ?? undefined;
  }

  async getCode(address: Address, block: MinedBlock): Promise<Uint8Array> {
    if (this.lazy) return (await this.readStateAt(block)).getCode(address);
    const reads = this.rootReads().readsAt(block);
    const account = reads.account(address);
    return account === null || !account.isContract() ? new Uint8Array() : reads.code(account.codeHash);
  }

  async getStorage(address: Address, slot: Uint8Array, block: MinedBlock): Promise<Uint8Array> {
    if (this.lazy) return (await this.readStateAt(block)).getStorage(address, slot);
    const reads = this.rootReads().readsAt(block);
    const account = reads.account(address);
    return account === null ? new Uint8Array() : reads.slot(account, slot, plainHex(address.bytes));
  }

  private callVmPool(): VmPool {
    const calls = this.rootReads();
    return new VmPool({
      create: (block) => calls.create(block),
      key: (block) => (this.src.scheduled ? bytesToHex(block.hash) : 'any'),
      rootOf: this.src.rootOf,
      retarget: (vm, block) => calls.retarget(vm, block),
      reusable: (vm) => calls.reusable(vm),
      maxPerKey: 32,
    });
  }

  private async readOnlyState(block: MinedBlock): Promise<MerkleStateManager> {
    if (this.lazy) return this.stateAt(block);
    const head = this.src.headState;
    const trie = accountTrie(head).shallowCopy(false);
    const prefixes = keyPrefixes(head);
    const state = new MerkleStateManager({
      common: head.common,
      trie,
      prefixCodeHashes: prefixes.codeHashes,
      prefixStorageTrieKeys: prefixes.storageTrieKeys,
    });
    await state.setStateRoot(this.src.rootOf(block));
    return state;
  }
}
