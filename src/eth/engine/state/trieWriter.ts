/**
 * A fast Merkle Patricia trie writer: a batch of puts and deletes is applied to a trie in memory
 * (nodes loaded once and kept), and only the changed nodes are encoded, hashed and stored, once
 * per batch. A stored branch is not decoded: the one child a key's path takes is read from its RLP,
 * and its new RLP is the old one's unchanged items copied around the changed ones. @ethereumjs's trie
 * re-walks, re-encodes and re-hashes the whole path to the root for every key it writes; the nodes and
 * roots made here are the same canonical ones, byte for byte.
 */
import { KECCAK256_RLP } from '@ethereumjs/util';
import { plainHex } from '../../../hex.js';
import { RlpCursor, RlpError, rlpViews } from '../codec/rlpReader.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** Bytes needed for the big-endian length `n` (RLP long forms). */
const lengthBytes = (n: number): number => (n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4);
/** Size of an RLP header for a payload of `n` bytes. */
const headerSize = (n: number): number => (n < 56 ? 1 : 1 + lengthBytes(n));
const itemSize = (item: Uint8Array | RawNode): number =>
  item instanceof Uint8Array ? (item.length === 1 && item[0]! < 0x80 ? 1 : headerSize(item.length) + item.length) : listSize(item);
function payloadSize(list: RawNode): number {
  let n = 0;
  for (const item of list) n += itemSize(item);
  return n;
}
const listSize = (list: RawNode): number => {
  const n = payloadSize(list);
  return headerSize(n) + n;
};

function writeHeader(out: Uint8Array, pos: number, length: number, base: number): number {
  if (length < 56) {
    out[pos] = base + length;
    return pos + 1;
  }
  const n = lengthBytes(length);
  out[pos] = base + 55 + n;
  for (let i = n; i >= 1; i--, length >>>= 8) out[pos + i] = length & 0xff;
  return pos + 1 + n;
}

function writeItem(out: Uint8Array, pos: number, item: Uint8Array | RawNode): number {
  if (!(item instanceof Uint8Array)) {
    pos = writeHeader(out, pos, payloadSize(item), 0xc0);
    for (const child of item) pos = writeItem(out, pos, child);
    return pos;
  }
  if (item.length === 1 && item[0]! < 0x80) {
    out[pos] = item[0]!;
    return pos + 1;
  }
  pos = writeHeader(out, pos, item.length, 0x80);
  out.set(item, pos);
  return pos + item.length;
}

/** The RLP encoding of a node's raw list, written into one buffer (as RLP.encode gives it, without its many small concatenations). */
export function encodeRawNode(raw: RawNode): Uint8Array {
  const out = new Uint8Array(listSize(raw));
  writeItem(out, 0, raw);
  return out;
}

/** A node's raw list decoded from its RLP (byte strings are views into `encoded`, which the store never changes). */
export function decodeRawNode(encoded: Uint8Array): RawNode {
  const { value, end } = rlpViews(encoded, 0, 'invalid trie node');
  if (end !== encoded.length || value instanceof Uint8Array) throw new RlpError('invalid trie node: not one RLP list');
  return value as RawNode;
}

/** A child reference: a 32-byte node hash not yet loaded, or a node. */
type Ref = Uint8Array | TrieNode;
/** How a node is referenced once encoded: its hash (stored), or its raw list (embedded in the parent). */
type Encoded = Uint8Array | RawNode;
export type RawNode = (Uint8Array | RawNode)[];

interface Leaf {
  readonly kind: 'leaf';
  readonly path: Uint8Array;
  readonly value: Uint8Array;
  /** The path's hex-prefix encoding as stored, while the path is the stored one (not encoded again). */
  readonly hp?: Uint8Array;
  enc?: Encoded;
}
interface Extension {
  readonly kind: 'ext';
  readonly path: Uint8Array;
  readonly child: Ref;
  readonly hp?: Uint8Array;
  enc?: Encoded;
}
/**
 * A branch. One loaded from the store is not decoded: `src` is its RLP, and each child or the value is read from it
 * when a key's path reaches it; `own` marks (bit i: child i, bit 16: the value) what this node has changed, held in
 * `children` / `value`. Encoding one copies `src`'s unchanged items and writes only the changed ones. A branch made
 * here (a split, an embedded one) has no `src` and owns everything.
 */
interface Branch {
  readonly kind: 'branch';
  readonly src: Uint8Array | undefined;
  readonly own: number;
  readonly children: readonly (Ref | undefined)[];
  readonly value: Uint8Array | undefined;
  enc?: Encoded;
}
type TrieNode = Leaf | Extension | Branch;

/** `own` of a branch that holds everything itself. */
const OWN_ALL = 0x1ffff;
const VALUE_BIT = 0x10000;
/** Children of a branch that has changed none (never written: a change copies it). */
const NO_CHILDREN: readonly (Ref | undefined)[] = Object.freeze(new Array<Ref | undefined>(16).fill(undefined));

/**
 * A node's key in the store: the unprefixed hex of its hash, as @ethereumjs's. Made through Buffer: on Node without
 * Uint8Array.prototype.toHex (before 24) @ethereumjs's bytesToUnprefixedHex (@noble's bytesToHex) concatenates two
 * digits at a time, ~970 B of intermediate strings per 32-byte hash against ~180 (bench/blockCost.ts heap).
 */
const nodeKey = plainHex;

/** Where encoded nodes are read from and written to (keys: unprefixed hex of the node hash). */
export interface NodeStore {
  get(hexKey: string): Uint8Array | undefined;
  put(hexKey: string, encoded: Uint8Array): void;
}

/** One change: the key's nibbles (already hashed for secure tries) and its new value, or null to delete. */
export interface TrieUpdate {
  readonly path: Uint8Array;
  readonly value: Uint8Array | null;
}

const EMPTY = new Uint8Array();

/** The nibbles of bytes (two per byte, high first). */
export function nibbles(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i]! >> 4;
    out[2 * i + 1] = bytes[i]! & 15;
  }
  return out;
}

/** Hex-prefix (compact) encoding of a path, with the leaf flag. */
function compact(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array(1 + (path.length >> 1));
  out[0] = ((leaf ? 2 : 0) + odd) << 4;
  let i = 0;
  if (odd) out[0]! |= path[i++]!;
  for (let o = 1; i < path.length; i += 2, o++) out[o] = (path[i]! << 4) | path[i + 1]!;
  return out;
}

function decodeCompact(bytes: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const all = nibbles(bytes);
  const flag = all[0]!;
  return { path: all.subarray(flag & 1 ? 1 : 2), leaf: flag >= 2 };
}

function fromRaw(raw: RawNode): TrieNode {
  if (raw.length === 17) {
    const children = raw.slice(0, 16).map((c) => (c instanceof Uint8Array ? (c.length === 0 ? undefined : c) : embedded(c)));
    const value = raw[16] as Uint8Array;
    return { kind: 'branch', src: undefined, own: OWN_ALL, children, value: value.length === 0 ? undefined : value };
  }
  if (raw.length !== 2) throw new Error(`invalid trie node: a list of ${raw.length} items`);
  const hp = raw[0] as Uint8Array;
  const { path, leaf } = decodeCompact(hp);
  if (leaf) return { kind: 'leaf', path, value: raw[1] as Uint8Array, hp };
  const child = raw[1]!;
  return { kind: 'ext', path, child: child instanceof Uint8Array ? child : embedded(child), hp };
}

/** One cursor for the branch reads below (each parse is read before the next: nothing is kept across calls). */
const cursor = new RlpCursor();
/** Where each of a stored branch's 17 items begins, and [17] where its list ends (filled by `itemStarts`). */
const starts = new Int32Array(18);

/** Fills `starts` with the items of the branch RLP `src`; throws RlpError unless it is one list of 17 items. */
function itemStarts(src: Uint8Array): void {
  cursor.parse(src, 0, 'a trie node');
  const end = cursor.end;
  if (!cursor.isList || end !== src.length) throw new RlpError('invalid trie node: not one RLP list');
  let p = cursor.start;
  for (let i = 0; i < 17; i++) {
    if (p >= end) throw new RlpError('invalid trie node: a branch of fewer than 17 items');
    starts[i] = p;
    p = cursor.parse(src, p, 'a trie node').end;
  }
  if (p !== end) throw new RlpError('invalid trie node: a branch of more than 17 items');
  starts[17] = end;
}

/** Item `i` of a stored branch's RLP: a child (undefined when empty, a hash, or an embedded node), or the value. */
function storedItem(src: Uint8Array, i: number): Uint8Array | TrieNode | undefined {
  cursor.parse(src, 0, 'a trie node');
  let p = cursor.start;
  for (let k = 0; k < i; k++) p = cursor.parse(src, p, 'a trie node').end;
  cursor.parse(src, p, 'a trie node');
  if (cursor.isList) return embedded(rlpViews(src, p, 'a trie node').value as RawNode);
  return cursor.end === cursor.start ? undefined : src.subarray(cursor.start, cursor.end);
}

function childAt(node: Branch, i: number): Ref | undefined {
  return (node.own >> i) & 1 ? node.children[i] : (storedItem(node.src!, i) as Ref | undefined);
}

function valueAt(node: Branch): Uint8Array | undefined {
  return node.own & VALUE_BIT ? node.value : (storedItem(node.src!, 16) as Uint8Array | undefined);
}

function withChild(node: Branch, i: number, child: Ref | undefined): Branch {
  const children = node.children === NO_CHILDREN ? new Array<Ref | undefined>(16).fill(undefined) : node.children.slice();
  children[i] = child;
  return { kind: 'branch', src: node.src, own: node.own | (1 << i), children, value: node.value };
}

const withValue = (node: Branch, value: Uint8Array | undefined): Branch => ({
  kind: 'branch',
  src: node.src,
  own: node.own | VALUE_BIT,
  children: node.children,
  value,
});

function embedded(raw: RawNode): TrieNode {
  const node = fromRaw(raw);
  node.enc = raw;
  return node;
}

const concatPaths = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

function commonPrefix(a: Uint8Array, b: Uint8Array, bStart: number): number {
  let i = 0;
  while (i < a.length && bStart + i < b.length && a[i] === b[bStart + i]) i++;
  return i;
}

/**
 * Applies batches of updates to tries kept in a node store. Nodes are loaded as a batch reaches
 * them and kept for that batch only (keeping them across batches saved no time and cost memory).
 */
export class TrieWriter {
  constructor(
    private readonly store: NodeStore,
    private readonly hash: (bytes: Uint8Array) => Uint8Array = keccak_256,
  ) {}

  /** The root after applying `updates` (in order) to the trie at `root`; new nodes go to the store. */
  apply(root: Uint8Array, updates: Iterable<TrieUpdate>): Uint8Array {
    let node: Ref | undefined = equalsEmpty(root) ? undefined : root;
    for (const u of updates) node = u.value === null || u.value.length === 0 ? this.remove(node, u.path, 0) : this.insert(node, u.path, 0, u.value);
    if (node === undefined) return KECCAK256_RLP;
    if (node instanceof Uint8Array) return node;
    if (node.enc instanceof Uint8Array) return node.enc;
    // The root is stored by hash even when its encoding is short.
    const encoded = this.encode(node);
    const h = this.hash(encoded);
    this.store.put(nodeKey(h), encoded);
    return h;
  }

  /** Root of a trie holding only `entries` (keys not hashed), without storing anything: tx and receipt tries. */
  static root(entries: Iterable<[Uint8Array, Uint8Array]>, hash: (bytes: Uint8Array) => Uint8Array = keccak_256): Uint8Array {
    const writer = new TrieWriter({ get: () => undefined, put: () => {} }, hash);
    const updates: TrieUpdate[] = [];
    for (const [key, value] of entries) updates.push({ path: nibbles(key), value });
    return writer.apply(KECCAK256_RLP, updates);
  }

  private load(ref: Ref): TrieNode {
    if (!(ref instanceof Uint8Array)) return ref;
    const encoded = this.store.get(nodeKey(ref));
    if (encoded === undefined) throw new Error(`missing trie node ${nodeKey(ref)}`);
    const node = isBranch(encoded)
      ? { kind: 'branch' as const, src: encoded, own: 0, children: NO_CHILDREN, value: undefined }
      : fromRaw(decodeRawNode(encoded));
    // A short node is stored by hash only as a root; anywhere else it is embedded.
    if (encoded.length >= 32) node.enc = ref;
    return node;
  }

  /** `ref` with `value` put at `path` (from `pos`); `ref` itself when nothing changes. */
  private insert(ref: Ref | undefined, path: Uint8Array, pos: number, value: Uint8Array): Ref {
    if (ref === undefined) return { kind: 'leaf', path: path.slice(pos), value };
    const node = this.load(ref);
    if (node.kind === 'branch') {
      if (pos === path.length) return withValue(node, value);
      const before = childAt(node, path[pos]!);
      const after = this.insert(before, path, pos + 1, value);
      return after === before ? ref : withChild(node, path[pos]!, after);
    }
    const shared = commonPrefix(node.path, path, pos);
    if (node.kind === 'leaf' && shared === node.path.length && pos + shared === path.length) {
      return equalBytes(node.value, value) ? ref : { kind: 'leaf', path: node.path, value, hp: node.hp };
    }
    if (node.kind === 'ext' && shared === node.path.length) {
      const child = this.insert(node.child, path, pos + shared, value);
      return child === node.child ? ref : { kind: 'ext', path: node.path, child, hp: node.hp };
    }
    // Split at the first differing nibble: a branch holding the old node's rest and the new key's.
    const children: (Ref | undefined)[] = new Array(16).fill(undefined);
    let branchValue: Uint8Array | undefined;
    const oldRest = node.path.subarray(shared + 1);
    if (shared === node.path.length) branchValue = (node as Leaf).value;
    else if (node.kind === 'leaf') children[node.path[shared]!] = { kind: 'leaf', path: oldRest, value: node.value };
    else children[node.path[shared]!] = oldRest.length === 0 ? node.child : { kind: 'ext', path: oldRest, child: node.child };
    if (pos + shared === path.length) branchValue = value;
    else children[path[pos + shared]!] = { kind: 'leaf', path: path.slice(pos + shared + 1), value };
    const branch: Branch = { kind: 'branch', src: undefined, own: OWN_ALL, children, value: branchValue };
    return shared === 0 ? branch : { kind: 'ext', path: node.path.slice(0, shared), child: branch };
  }

  /** `ref` without `path` (from `pos`); `ref` itself when the key is absent. */
  private remove(ref: Ref | undefined, path: Uint8Array, pos: number): Ref | undefined {
    if (ref === undefined) return undefined;
    const node = this.load(ref);
    if (node.kind === 'leaf') return node.path.length === path.length - pos && commonPrefix(node.path, path, pos) === node.path.length ? undefined : ref;
    if (node.kind === 'ext') {
      if (commonPrefix(node.path, path, pos) !== node.path.length) return ref;
      const removed = this.remove(node.child, path, pos + node.path.length);
      if (removed === node.child) return ref;
      if (removed === undefined) return undefined;
      const child = this.load(removed);
      if (child.kind === 'branch') return { kind: 'ext', path: node.path, child };
      return { ...child, path: concatPaths(node.path, child.path), hp: undefined, enc: undefined };
    }
    let branch: Branch;
    if (pos === path.length) {
      if (valueAt(node) === undefined) return ref;
      branch = withValue(node, undefined);
    } else {
      const before = childAt(node, path[pos]!);
      const after = this.remove(before, path, pos + 1);
      if (after === before) return ref;
      branch = withChild(node, path[pos]!, after);
    }
    let only = -1;
    let count = 0;
    if (branch.src !== undefined) itemStarts(branch.src);
    for (let i = 0; i < 16 && count < 2; i++) {
      // A stored child is there unless its item is the empty string (0x80).
      if ((branch.own >> i) & 1 ? branch.children[i] !== undefined : branch.src![starts[i]!] !== 0x80) {
        count++;
        only = i;
      }
    }
    const value = valueAt(branch);
    if (count + (value === undefined ? 0 : 1) >= 2) return branch;
    if (count === 0) return value === undefined ? undefined : { kind: 'leaf', path: EMPTY, value };
    // One child left and no value: the branch collapses into it.
    const onlyRef = childAt(branch, only)!;
    const child = this.load(onlyRef);
    const prefix = Uint8Array.of(only);
    if (child.kind === 'branch') return { kind: 'ext', path: prefix, child: onlyRef };
    return { ...child, path: concatPaths(prefix, child.path), hp: undefined, enc: undefined };
  }

  /** The node's raw list, with each child as its hash (stored now if new) or embedded. */
  private raw(node: TrieNode): RawNode {
    if (node.kind === 'leaf') return [node.hp ?? compact(node.path, true), node.value];
    if (node.kind === 'ext') return [node.hp ?? compact(node.path, false), this.ref(node.child)];
    if (node.src !== undefined) return decodeRawNode(this.encode(node));
    const raw: RawNode = new Array(17);
    for (let i = 0; i < 16; i++) {
      const c = node.children[i];
      raw[i] = c === undefined ? EMPTY : this.ref(c);
    }
    raw[16] = node.value ?? EMPTY;
    return raw;
  }

  /** A node's RLP: a stored branch's unchanged items copied from its `src`, the rest written. */
  private encode(node: TrieNode): Uint8Array {
    if (node.kind !== 'branch' || node.src === undefined) return encodeRawNode(this.raw(node));
    // Changed children first (each may store nodes and fill `starts` for itself), then this node's own items.
    for (let i = 0; i < 16; i++) {
      const c = (node.own >> i) & 1 ? node.children[i] : undefined;
      if (c !== undefined && !(c instanceof Uint8Array)) this.ref(c);
    }
    const src = node.src;
    itemStarts(src);
    let payload = 0;
    for (let i = 0; i < 17; i++) payload += (node.own >> i) & 1 ? itemSize(ownItem(node, i)) : starts[i + 1]! - starts[i]!;
    const out = new Uint8Array(headerSize(payload) + payload);
    let pos = writeHeader(out, 0, payload, 0xc0);
    for (let i = 0; i < 17; ) {
      if ((node.own >> i) & 1) {
        pos = writeItem(out, pos, ownItem(node, i));
        i++;
        continue;
      }
      // A run of unchanged items, copied as they are.
      let j = i + 1;
      while (j < 17 && !((node.own >> j) & 1)) j++;
      out.set(src.subarray(starts[i]!, starts[j]!), pos);
      pos += starts[j]! - starts[i]!;
      i = j;
    }
    return out;
  }

  private ref(ref: Ref): Encoded {
    if (ref instanceof Uint8Array) return ref;
    if (ref.enc !== undefined) return ref.enc;
    if (ref.kind === 'branch' && ref.src !== undefined) {
      const encoded = this.encode(ref);
      if (encoded.length < 32) return (ref.enc = decodeRawNode(encoded));
      const h = this.hash(encoded);
      this.store.put(nodeKey(h), encoded);
      return (ref.enc = h);
    }
    const raw = this.raw(ref);
    const encoded = encodeRawNode(raw);
    if (encoded.length < 32) return (ref.enc = raw);
    const h = this.hash(encoded);
    this.store.put(nodeKey(h), encoded);
    ref.enc = h;
    return h;
  }
}

/** Item `i` (a child or the value) a branch has changed, as its parent's encoding holds it (children encoded already). */
function ownItem(node: Branch, i: number): Uint8Array | RawNode {
  if (i === 16) return node.value ?? EMPTY;
  const c = node.children[i];
  return c === undefined ? EMPTY : c instanceof Uint8Array ? c : c.enc!;
}

/** Whether a stored RLP node is a branch (a list of 17 items, not 2), read from its first items only. */
function isBranch(encoded: Uint8Array): boolean {
  cursor.parse(encoded, 0, 'a trie node');
  if (!cursor.isList) throw new RlpError('invalid trie node: not one RLP list');
  const end = cursor.end;
  let p = cursor.start;
  for (let i = 0; i < 3 && p < end; i++) p = cursor.parse(encoded, p, 'a trie node').end;
  if (p >= end) return false;
  itemStarts(encoded);
  return true;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const equalsEmpty = (root: Uint8Array): boolean => equalBytes(root, KECCAK256_RLP);
