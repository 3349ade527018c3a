/**
 * The head state manager of a forked chain: the chain's HeadStateManager, which before each read or write of an
 * account, slot or code not yet in the node store fetches it from the upstream at the fork block (ForkState), and
 * before each deletion fetches the sibling nodes the trie will merge. Everything else (caches, the batched trie
 * writes of a flush, roots) is the HeadStateManager's, so the roots are the ordinary trie's.
 */
import type { MerkleStateManagerOpts } from '@ethereumjs/statemanager';
import { type Account, type Address, unpadBytes } from '@ethereumjs/util';
import { walkPath, toNibbles } from './trieWalk.js';
import { accountTrie, stateCaches, trieCacheSize } from '../evm/merkleState.js';
import { HeadStateManager } from '../state/headState.js';
import { codeKey, type ForkState, keccak256 } from './forkState.js';

/** An address and the slots of it to fetch (ForkStateManager.prefetch). */
export interface PrefetchKey {
  readonly address: Address;
  readonly slots: readonly Uint8Array[];
}

/** 2^128: a slot guess that passes `balance >= amount` checks and does not overflow `balance + amount`. */
const LARGE = Uint8Array.from({ length: 32 }, (_, i) => (i === 15 ? 1 : 0));

/** What a recording run met that the fork has not fetched (ForkStateManager.record). */
export interface Misses {
  readonly keys: PrefetchKey[];
  readonly code: Address[];
}

export class ForkStateManager extends HeadStateManager {
  /** Read by the chain's states (chain/states.ts): reads go through state managers, which can wait for the upstream. */
  readonly lazy = true;
  /**
   * While set (a recording run, prefetch.ts forkRuns): a read of an account, slot or code not fetched yet is noted
   * here and answered as absent / zero / empty without waiting for the upstream, so one run learns every key it
   * reaches. Such a run's answers are thrown away; only a run that noted nothing is the real one.
   */
  private misses: { keys: Map<string, PrefetchKey & { slots: Uint8Array[] }>; code: Map<string, Address> } | undefined;
  /** What a recording run reads from an unfetched slot (see forkRuns: zero, then a large value). */
  private guess = new Uint8Array(32);
  constructor(
    private readonly opts: MerkleStateManagerOpts,
    readonly fork: ForkState,
  ) {
    super(opts);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    if (stateCaches(this)?.account?.get(address) === undefined) {
      const root = accountTrie(this).root();
      if (this.misses !== undefined) {
        if (!this.fork.hasAccountPath(root, address.bytes)) return void this.miss(address);
      } else await this.fork.ensureAccount(root, address.bytes);
    }
    return super.getAccount(address);
  }

  /** Runs `run` recording (see `misses`): what it met unfetched, empty when it was a real run. Throws what run throws. */
  async record<T>(run: () => Promise<T>, guess: 'zero' | 'large' = 'zero'): Promise<{ misses: Misses; result?: T; error?: unknown }> {
    const misses = { keys: new Map(), code: new Map() };
    this.misses = misses;
    this.guess = guess === 'zero' ? new Uint8Array(32) : LARGE;
    let outcome: { result?: T; error?: unknown };
    try {
      outcome = { result: await run() };
    } catch (error) {
      outcome = { error };
    }
    this.misses = undefined;
    return { misses: { keys: [...misses.keys.values()], code: [...misses.code.values()] }, ...outcome };
  }

  private miss(address: Address, slot?: Uint8Array, code = false): void {
    const id = address.toString();
    let entry = this.misses!.keys.get(id);
    if (entry === undefined) this.misses!.keys.set(id, (entry = { address, slots: [] }));
    if (slot !== undefined) entry.slots.push(Uint8Array.from(slot));
    if (code) this.misses!.code.set(id, address);
  }

  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    await this.getAccount(address);
    return super.putAccount(address, account);
  }

  override async deleteAccount(address: Address): Promise<void> {
    await this.getAccount(address);
    // A recording run is reverted, never flushed: no sibling is needed.
    if (this.misses === undefined) await this.fork.ensureDeletable({ kind: 'accounts' }, accountTrie(this).root(), address.bytes);
    return super.deleteAccount(address);
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length === 32 && stateCaches(this)?.storage?.get(address, key) === undefined) {
      if (this.misses === undefined) await this.ensureSlot(address, key);
      else if (await this.slotMissing(address, key)) return this.guess.slice();
    }
    return super.getStorage(address, key);
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (key.length === 32 && this.misses !== undefined) {
      // Recording: a write over an unfetched slot is noted (the real run fetches it before writing).
      if (stateCaches(this)?.storage?.get(address, key) === undefined) await this.slotMissing(address, key);
    } else if (key.length === 32) {
      const account = await this.ensureSlot(address, key);
      if (account !== undefined && unpadBytes(value).length === 0 && this.misses === undefined) {
        await this.fork.ensureDeletable({ kind: 'storage', address: address.bytes }, account.storageRoot, key);
      }
    }
    return super.putStorage(address, key, value);
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    if (stateCaches(this)?.code?.get(address) === undefined) {
      const account = await this.getAccount(address);
      if (this.misses !== undefined) {
        const unfetched =
          (account === undefined && !this.fork.hasAccountPath(accountTrie(this).root(), address.bytes)) ||
          (account?.isContract() === true && !this.fork.nodes.has(codeKey(account.codeHash)));
        if (unfetched) {
          this.miss(address, undefined, true);
          return new Uint8Array();
        }
      } else if (account?.isContract()) await this.fork.ensureCode(address.bytes, account.codeHash);
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
      // An account already here whose code is not (a recording run met its code): its code in the same batch.
      if (account?.isContract() && code.some((a) => a.equals(address)) && !this.fork.nodes.has(codeKey(account.codeHash))) {
        waits.push(this.fork.ensureCode(address.bytes, account.codeHash));
      }
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

  /** Recording: whether slot `key` of `address` is unfetched (then noted as a miss, with the account when it is unfetched too). */
  private async slotMissing(address: Address, key: Uint8Array): Promise<boolean> {
    if (stateCaches(this)?.account?.get(address) === undefined && !this.fork.hasAccountPath(accountTrie(this).root(), address.bytes)) {
      this.miss(address, key);
      return true;
    }
    const account = await this.getAccount(address);
    if (account === undefined || walkPath(this.fork.nodes, account.storageRoot, toNibbles(keccak256(key))).missing === undefined) return false;
    this.miss(address, key);
    return true;
  }

  /** Ensures slot `key` of `address` (and the account) is fetched; gives the account. */
  private async ensureSlot(address: Address, key: Uint8Array): Promise<Account | undefined> {
    const account = await this.getAccount(address);
    if (account !== undefined) await this.fork.ensureSlot(address.bytes, account.storageRoot, key);
    return account;
  }
}
