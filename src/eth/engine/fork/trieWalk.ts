/**
 * Walks one key's path through a Merkle Patricia trie held (partly) in the chain's node store, to learn what a fork
 * still has to fetch: the first node on the path that is not in the store (with the nibbles that lead to it), the
 * branches met on the way (with their children, for deletions), and whether the key is in the trie. Nodes are
 * decoded with @ethereumjs/rlp; this runs once per key a fork fetches or deletes, not on every read.
 */
import { RLP } from '@ethereumjs/rlp';
import { plainHex } from '../../../hex.js';

/** The node store: node hash (unprefixed hex) -> RLP-encoded node (bytes, or hex where a trie wrote strings). */
export type NodeStore = ReadonlyMap<string, Uint8Array | string>;

type Item = Uint8Array | Item[];

/** A branch met on a path: where it is (nibbles from the root) and its 16 child references. */
export interface BranchOnPath {
  readonly prefix: readonly number[];
  readonly children: readonly Item[];
}

export interface Walk {
  /** The first node on the path the store lacks: its hash and the nibbles leading to it. */
  readonly missing?: { readonly hash: Uint8Array; readonly prefix: readonly number[] };
  readonly branches: readonly BranchOnPath[];
  /** True when the walk ended at a leaf holding exactly this key. */
  readonly found: boolean;
}

/** keccak256 of RLP(''): the root of an empty trie. */
export const EMPTY_ROOT_HEX = '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

/** The nibbles of `bytes`, high nibble first. */
export function toNibbles(bytes: Uint8Array): number[] {
  const out = new Array<number>(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i]! >> 4;
    out[2 * i + 1] = bytes[i]! & 15;
  }
  return out;
}

/** The node `ref` (a 32-byte hash) from the store, or undefined. */
export function loadNode(store: NodeStore, ref: Uint8Array): Uint8Array | undefined {
  const v = store.get(plainHex(ref));
  return typeof v === 'string' ? Buffer.from(v, 'hex') : v;
}

/** A hex-prefix encoded key part: its nibbles and whether the node is a leaf. */
function hexPrefix(encoded: Uint8Array): { nibbles: number[]; leaf: boolean } {
  const all = toNibbles(encoded);
  const flag = all[0]!;
  return { nibbles: all.slice(flag & 1 ? 1 : 2), leaf: flag >= 2 };
}

/** Walks `path` (nibbles of the hashed key) from `root`; see Walk. */
export function walkPath(store: NodeStore, root: Uint8Array, path: readonly number[]): Walk {
  const branches: BranchOnPath[] = [];
  if (plainHex(root) === EMPTY_ROOT_HEX) return { branches, found: false };
  let ref: Item = root;
  let at = 0;
  for (;;) {
    let node: Item;
    if (Array.isArray(ref)) node = ref;
    else if (ref.length === 0) return { branches, found: false };
    else {
      const encoded = loadNode(store, ref);
      if (encoded === undefined) return { missing: { hash: ref, prefix: path.slice(0, at) }, branches, found: false };
      node = RLP.decode(encoded) as Item;
    }
    if (!Array.isArray(node)) throw new Error('invalid trie node: not a list');
    if (node.length === 17) {
      branches.push({ prefix: path.slice(0, at), children: node.slice(0, 16) });
      if (at === path.length) return { branches, found: (node[16] as Uint8Array).length > 0 };
      ref = node[path[at]!]!;
      at++;
      continue;
    }
    if (node.length !== 2) throw new Error(`invalid trie node: a list of ${node.length} items`);
    const { nibbles, leaf } = hexPrefix(node[0] as Uint8Array);
    for (let i = 0; i < nibbles.length; i++) if (path[at + i] !== nibbles[i]) return { branches, found: false };
    at += nibbles.length;
    if (leaf) return { branches, found: at === path.length };
    ref = node[1]!;
  }
}

/** Whether a child reference is a node hash (not embedded, not empty). */
export const isHashRef = (item: Item | undefined): item is Uint8Array => item instanceof Uint8Array && item.length === 32;
