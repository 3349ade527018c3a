/**
 * The head state manager of a forked chain: the chain's HeadStateManager, which before each read or write of an
 * account, slot or code not yet in the node store fetches it from the upstream at the fork block (ForkState), and
 * before each deletion fetches the sibling nodes the trie will merge. Everything else (caches, the batched trie
 * writes of a flush, roots) is the HeadStateManager's, so the roots are the ordinary trie's.
 */
import type { MerkleStateManagerOpts } from '@ethereumjs/statemanager';
import { type Account, type Address, unpadBytes } from '@ethereumjs/util';
import { accountTrie, stateCaches, trieCacheSize } from '../evm/merkleState.js';
import { HeadStateManager } from '../state/headState.js';
import type { ForkState } from './forkState.js';

/** An address and the slots of it to fetch (ForkStateManager.prefetch). */
export interface PrefetchKey {
  readonly address: Address;
  readonly slots: readonly Uint8Array[];
}

export class ForkStateManager extends HeadStateManager {
  /** Read by the chain's states (chain/states.ts): reads go through state managers, which can wait for the upstream. */
  readonly lazy = true;
  constructor(
    private readonly opts: MerkleStateManagerOpts,
    readonly fork: ForkState,
  ) {
    super(opts);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    if (stateCaches(this)?.account?.get(address) === undefined) await this.fork.ensureAccount(accountTrie(this).root(), address.bytes);
    return super.getAccount(address);
  }

  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    await this.getAccount(address);
    return super.putAccount(address, account);
  }

  override async deleteAccount(address: Address): Promise<void> {
    await this.getAccount(address);
    await this.fork.ensureDeletable({ kind: 'accounts' }, accountTrie(this).root(), address.bytes);
    return super.deleteAccount(address);
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length === 32 && stateCaches(this)?.storage?.get(address, key) === undefined) await this.ensureSlot(address, key);
    return super.getStorage(address, key);
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (key.length === 32) {
      const account = await this.ensureSlot(address, key);
      if (account !== undefined && unpadBytes(value).length === 0) {
        await this.fork.ensureDeletable({ kind: 'storage', address: address.bytes }, account.storageRoot, key);
      }
    }
    return super.putStorage(address, key, value);
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    if (stateCaches(this)?.code?.get(address) === undefined) {
      const account = await this.getAccount(address);
      if (account?.isContract()) await this.fork.ensureCode(address.bytes, account.codeHash);
    }
    return super.getCode(address);
  }

  override async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  override async flush(): Promise<void> {
    await super.flush();
    this.fork.flushed();
  }

  /**
   * Fetches the accounts and slots of `keys` and the code of `code` (addresses among keys) that the fork has not
   * fetched, in one batch request: the accounts not fetched yet with their slots in one eth_getProof each (and an
   * eth_getCode beside it), the slots of accounts already here in one eth_getProof each. prefetch.ts says when.
   */
  async prefetch(keys: readonly PrefetchKey[], code: readonly Address[]): Promise<void> {
    const root = accountTrie(this).root();
    const byAddress = new Map<string, { address: Address; slots: Uint8Array[] }>();
    for (const { address, slots } of keys) {
      const entry = byAddress.get(address.toString()) ?? { address, slots: [] };
      entry.slots.push(...slots);
      byAddress.set(address.toString(), entry);
    }
    // Accounts already here are read first (no upstream request): their storage roots say which slots are missing.
    const here = new Map<string, Account | undefined>();
    for (const [id, { address }] of byAddress) if (this.fork.hasAccountPath(root, address.bytes)) here.set(id, undefined);
    for (const id of here.keys()) here.set(id, await this.getAccount(byAddress.get(id)!.address));
    // Every request below is made in one go (no await between them): the upstream sends them as one batch.
    const waits: Promise<void>[] = [];
    const asked = new Map<string, Promise<string>>();
    for (const [id, { address, slots }] of byAddress) {
      if (!here.has(id)) {
        waits.push(this.fork.ensureAccount(root, address.bytes, slots));
        if (code.some((a) => a.equals(address))) {
          const answer = this.fork.askCode(address.bytes);
          answer.catch(() => {});
          asked.set(id, answer);
        }
        continue;
      }
      const account = here.get(id);
      if (account !== undefined) for (const slot of slots) waits.push(this.fork.ensureSlot(address.bytes, account.storageRoot, slot));
    }
    await Promise.all(waits);
    for (const [id, answer] of asked) {
      const { address } = byAddress.get(id)!;
      const account = await this.getAccount(address);
      if (account?.isContract() && stateCaches(this)?.code?.get(address) === undefined) await this.fork.ensureCode(address.bytes, account.codeHash, answer);
    }
  }

  /** A copy on the same fork (reads of the copy fetch as the head's do). */
  override shallowCopy(downlevelCaches = true): ForkStateManager {
    const common = this.common.copy();
    common.setHardfork(this.common.hardfork());
    const trie = accountTrie(this);
    const cacheSize = downlevelCaches ? 0 : trieCacheSize(trie);
    return new ForkStateManager(
      { ...this.opts, common, trie: trie.shallowCopy(false, { cacheSize }), caches: stateCaches(this)?.shallowCopy(downlevelCaches) },
      this.fork,
    );
  }

  /** Ensures slot `key` of `address` (and the account) is fetched; gives the account. */
  private async ensureSlot(address: Address, key: Uint8Array): Promise<Account | undefined> {
    const account = await this.getAccount(address);
    if (account !== undefined) await this.fork.ensureSlot(address.bytes, account.storageRoot, key);
    return account;
  }
}
