/**
 * The state of a fork, fetched lazily from the upstream's eth_getProof answers at the fork block. Each proof's
 * nodes go into the chain's node store under their hashes, so the trie at the upstream's stateRoot resolves every
 * path fetched while untouched subtrees stay hashes; writes then go through the ordinary trie and every root is the
 * one a full node computes. A node missing from the store is always one of the fork block's (every node written
 * locally is stored), and an unchanged subtree keeps its place in the trie, so the proof of any key whose path runs
 * through a missing node brings it.
 *
 * Deletions: when deleting a key leaves a branch with one child, the trie merges that child into the branch's place
 * and must read it. If no proof has brought it, a key whose hash starts with the child's path is searched for by
 * brute force on a worker thread (keySearch.ts; an address for the account trie, a slot for a storage trie; 16^n
 * hashes expected for a path of n nibbles at ~3-13 us a hash: 5 nibbles ~3-14 s depending on load, 6 nibbles 16
 * times that) and its proof fetched. Past `maxSearchNibbles` this is refused with a ForkStateError naming the node,
 * never answered with a made-up root.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { DevgateError } from '../../../errors.js';
import { plainHex } from '../../../hex.js';
import { nativeKeccak256 } from '../exec/crypto.js';
import type { ForkDiskCache } from './forkCache.js';
import { type SearchResult, searchOnWorker } from './keySearch.js';
import { type BranchOnPath, isHashRef, loadNode, toNibbles, walkPath } from './trieWalk.js';
import type { Upstream } from './upstream.js';

export const keccak256: (b: Uint8Array) => Uint8Array = nativeKeccak256 ?? keccak_256;

/** Where @ethereumjs keeps code in the node store: 'c' (0x63) then the code hash. */
export const codeKey = (codeHash: Uint8Array) => `63${plainHex(codeHash)}`;

/** A fork's state could not be made exact, or the upstream's answer does not fit its root. */
export class ForkStateError extends DevgateError {
  override name = 'ForkStateError';
}

export interface ForkStateOptions {
  readonly upstream: Upstream;
  /** The fork block's number. */
  readonly blockNumber: bigint;
  /** The chain's node store (node hash as plain hex -> RLP), shared with its tries. */
  readonly nodes: Map<string, Uint8Array | string>;
  readonly cache?: ForkDiskCache;
  /** Told of every node and code fetched (store key, bytes), as they arrive (a data directory writes them: forkDataDir.ts). */
  readonly keep?: (key: string, value: Uint8Array) => void;
  /** The longest path (in nibbles) a sibling is searched for by brute force (default 5: ~1,050,000 hashes expected). */
  readonly maxSearchNibbles?: number;
}

export const DEFAULT_MAX_SEARCH_NIBBLES = 5;

interface ProofAnswer {
  accountProof: PrefixedHexString[];
  storageProof: { key: string; proof: PrefixedHexString[] }[];
}

/** Which trie a path lies in: the account trie, or one account's storage trie. */
export type TrieOwner = { readonly kind: 'accounts' } | { readonly kind: 'storage'; readonly address: Uint8Array };

export class ForkState {
  readonly blockTag: string;
  /** Proofs and codes fetched from the upstream (not counting retries; Upstream.requests counts HTTP requests). */
  readonly fetched = { proofs: 0, codes: 0, searches: 0, searchHashes: 0 };
  private readonly inflight = new Map<string, Promise<void>>();
  /** Keys whose path resolves at every root of this fork (a path once resolved stays resolved: see the file comment). */
  private readonly ensured = new Set<string>();
  /** Paths deleted since the last flush, per trie (account trie: ''; storage: the address hex). */
  private readonly pendingDeletes = new Map<string, Set<string>>();
  private readonly maxSearchNibbles: number;

  constructor(private readonly opts: ForkStateOptions) {
    this.blockTag = `0x${opts.blockNumber.toString(16)}`;
    this.maxSearchNibbles = opts.maxSearchNibbles ?? DEFAULT_MAX_SEARCH_NIBBLES;
  }

  get nodes(): Map<string, Uint8Array | string> {
    return this.opts.nodes;
  }

  /**
   * Makes `address`'s path resolvable in the account trie at `root` (fetching its proof when a node is missing).
   * `slots`: asked in the same eth_getProof when the account is fetched (an account whose path is missing is the fork
   * block's, so its storage trie is too, and the slots' proofs resolve their paths for ensureSlot).
   */
  async ensureAccount(root: Uint8Array, address: Uint8Array, slots: readonly Uint8Array[] = []): Promise<void> {
    const id = plainHex(address);
    if (this.ensured.has(id)) return;
    const path = toNibbles(keccak256(address));
    await this.resolve(id, root, path, () => this.fetchProof(address, slots), `account ${bytesToHex(address)}`);
    this.ensured.add(id);
  }

  /** Whether `address`'s path resolves in the account trie at `root` with what the store holds (no fetch). */
  hasAccountPath(root: Uint8Array, address: Uint8Array): boolean {
    return this.ensured.has(plainHex(address)) || walkPath(this.opts.nodes, root, toNibbles(keccak256(address))).missing === undefined;
  }

  /** Makes slot `slot` of `address` resolvable in its storage trie at `storageRoot`. */
  async ensureSlot(address: Uint8Array, storageRoot: Uint8Array, slot: Uint8Array): Promise<void> {
    const id = `${plainHex(address)}:${plainHex(slot)}`;
    if (this.ensured.has(id)) return;
    const path = toNibbles(keccak256(slot));
    await this.resolve(id, storageRoot, path, () => this.fetchProof(address, [slot]), `slot ${bytesToHex(slot)} of ${bytesToHex(address)}`);
    this.ensured.add(id);
  }

  /**
   * Puts the code of `codeHash` (the fork block's code of `address`) in the store when it is not there. `asked`: an
   * eth_getCode of `address` already sent (in a batch with the account's proof), checked against the hash as well.
   */
  async ensureCode(address: Uint8Array, codeHash: Uint8Array, asked?: Promise<string>): Promise<void> {
    const key = codeKey(codeHash);
    if (this.opts.nodes.has(key)) return;
    await this.once(`code:${key}`, async () => {
      const hex = await (asked ?? this.askCode(address));
      this.fetched.codes++;
      const code = hexToBytes(hex as PrefixedHexString);
      if (plainHex(keccak256(code)) !== plainHex(codeHash)) {
        throw new ForkStateError(
          `the fork upstream's code of ${bytesToHex(address)} at block ${this.opts.blockNumber} does not hash to ${bytesToHex(codeHash)}`,
        );
      }
      this.opts.nodes.set(key, code);
      this.opts.cache?.appendCode(code);
      this.opts.keep?.(key, code);
    });
  }

  /**
   * Before `key` (an address, or a slot of owner's storage) is deleted from the trie at `root`: fetches the nodes
   * the deletion will merge into a branch's place (see the file comment). Conservative: a branch counts as losing
   * every child a deletion pending in the same flush runs through.
   */
  async ensureDeletable(owner: TrieOwner, root: Uint8Array, key: Uint8Array): Promise<void> {
    const path = toNibbles(keccak256(key));
    const walk = walkPath(this.opts.nodes, root, path);
    if (walk.missing !== undefined) throw new ForkStateError(`deleting ${bytesToHex(key)} before its path was fetched`);
    if (!walk.found) return;
    const ownerId = owner.kind === 'accounts' ? '' : plainHex(owner.address);
    let pending = this.pendingDeletes.get(ownerId);
    if (pending === undefined) this.pendingDeletes.set(ownerId, (pending = new Set()));
    pending.add(path.map((n) => n.toString(16)).join(''));
    for (const branch of walk.branches) {
      for (const i of this.survivors(branch, pending)) {
        const child = branch.children[i];
        if (isHashRef(child) && loadNode(this.opts.nodes, child) === undefined) await this.fetchNodeAt(owner, [...branch.prefix, i], child);
      }
    }
  }

  /** eth_getCode of `address` at the fork block, unchecked (ensureCode checks it against the account's code hash). */
  askCode(address: Uint8Array): Promise<string> {
    return this.opts.upstream.request<string>('eth_getCode', [bytesToHex(address), this.blockTag]);
  }

  /** Forgets the deletions of the last flush (call after each flush). */
  flushed(): void {
    this.pendingDeletes.clear();
  }

  /** The children of `branch` left when every pending deletion through it empties its child: only when at most one. */
  private survivors(branch: BranchOnPath, pending: ReadonlySet<string>): number[] {
    const prefix = branch.prefix.map((n) => n.toString(16)).join('');
    const deleted = new Set<number>();
    for (const p of pending) if (p.startsWith(prefix)) deleted.add(Number.parseInt(p[prefix.length]!, 16));
    const left: number[] = [];
    branch.children.forEach((c, i) => {
      if ((c instanceof Uint8Array ? c.length > 0 : true) && !deleted.has(i)) left.push(i);
    });
    return left.length <= 1 ? left : [];
  }

  /** Fetches the fork block's node `hash` at `prefix` in owner's trie through the proof of a key found under it. */
  private async fetchNodeAt(owner: TrieOwner, prefix: readonly number[], hash: Uint8Array): Promise<void> {
    const trie = owner.kind === 'accounts' ? 'the account trie' : `the storage trie of ${bytesToHex(owner.address)}`;
    const where = `${trie} at path ${prefix.map((n) => n.toString(16)).join('')}`;
    if (prefix.length > this.maxSearchNibbles) {
      throw new ForkStateError(
        `this deletion needs the fork block's trie node ${bytesToHex(hash)} (${where}), which no fetched proof holds; finding a key under a path of ${prefix.length} nibbles takes ~16^${prefix.length} hashes, past the fork's limit of ${this.maxSearchNibbles}`,
      );
    }
    const key = await this.searchKey(prefix, owner.kind === 'accounts' ? 20 : 32);
    if (key === undefined)
      throw new ForkStateError(`this deletion needs the fork block's trie node ${bytesToHex(hash)} (${where}); no key under its path was found`);
    await (owner.kind === 'accounts' ? this.fetchProof(key, []) : this.fetchProof(owner.address, [key]));
    if (loadNode(this.opts.nodes, hash) === undefined) {
      throw new ForkStateError(`the fork upstream's proof under ${where} did not bring node ${bytesToHex(hash)}`);
    }
  }

  /**
   * A key of `length` bytes whose keccak256 starts with the nibbles `prefix` (deterministic: counts up from 1), or
   * undefined after 16 x 16^n tries (a miss that unlikely: e^-16). Searched on a worker thread (keySearch.ts); where
   * none can start, here, yielding to other work every 2,048 hashes.
   */
  private async searchKey(prefix: readonly number[], length: number): Promise<Uint8Array | undefined> {
    this.fetched.searches++;
    const tries = 16 * 16 ** prefix.length;
    const onWorker = searchOnWorker({ prefix, length, tries });
    if (onWorker !== undefined) {
      let found: SearchResult | undefined;
      try {
        found = await onWorker;
      } catch (err) {
        if (err instanceof Error && /limit|cancelled/.test(err.message)) throw new ForkStateError(`this deletion's key search failed: ${err.message}`);
      }
      if (found !== undefined) {
        this.fetched.searchHashes += found.hashes;
        return found.key;
      }
    }
    const key = new Uint8Array(length);
    for (let n = 1; n <= tries; n++) {
      if ((n & 2047) === 0) await new Promise<void>((r) => setImmediate(r));
      for (let i = 0, v = n; i < 6; i++, v = Math.floor(v / 256)) key[length - 1 - i] = v & 255;
      const h = keccak256(key);
      this.fetched.searchHashes++;
      let ok = true;
      for (let i = 0; i < prefix.length && ok; i++) ok = ((i & 1) === 0 ? h[i >> 1]! >> 4 : h[i >> 1]! & 15) === prefix[i];
      if (ok) return key;
    }
    return undefined;
  }

  /** Walks `path` from `root`, fetching and re-walking while a node is missing (each fetch must make progress). */
  private async resolve(id: string, root: Uint8Array, path: readonly number[], fetch: () => Promise<void>, what: string): Promise<void> {
    let walk = walkPath(this.opts.nodes, root, path);
    if (walk.missing === undefined) return;
    await this.once(id, fetch);
    walk = walkPath(this.opts.nodes, root, path);
    if (walk.missing !== undefined) {
      throw new ForkStateError(
        `the fork upstream's proof of ${what} at block ${this.opts.blockNumber} does not hold trie node ${bytesToHex(walk.missing.hash)} (is the upstream at the same chain and block?)`,
      );
    }
  }

  /** Runs `work` once for concurrent askers of the same id. */
  private once(id: string, work: () => Promise<void>): Promise<void> {
    let p = this.inflight.get(id);
    if (p === undefined) {
      p = work().finally(() => this.inflight.delete(id));
      this.inflight.set(id, p);
    }
    return p;
  }

  /** eth_getProof of `address` (and slots) at the fork block; every node goes into the store and the disk cache. */
  private async fetchProof(address: Uint8Array, slots: readonly Uint8Array[]): Promise<void> {
    const answer = await this.opts.upstream.request<ProofAnswer>('eth_getProof', [bytesToHex(address), slots.map((s) => bytesToHex(s)), this.blockTag]);
    this.fetched.proofs++;
    const encoded: Uint8Array[] = [];
    for (const hex of answer?.accountProof ?? []) encoded.push(hexToBytes(hex));
    for (const s of answer?.storageProof ?? []) for (const hex of s.proof ?? []) encoded.push(hexToBytes(hex));
    this.addNodes(encoded);
  }

  /** Puts proof nodes into the store under their hashes (a root is hashed whatever its size, so none is skipped). */
  addNodes(encoded: readonly Uint8Array[]): void {
    const fresh: Uint8Array[] = [];
    for (const node of encoded) {
      const key = plainHex(keccak256(node));
      if (this.opts.nodes.has(key)) continue;
      this.opts.nodes.set(key, node);
      this.opts.keep?.(key, node);
      fresh.push(node);
    }
    if (fresh.length > 0) this.opts.cache?.appendNodes(fresh);
  }
}
