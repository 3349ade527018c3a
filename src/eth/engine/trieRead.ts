/**
 * Reads one key of a Merkle Patricia trie straight from the chain's in-memory node store, without
 * @ethereumjs/mpt's asynchronous walker (a trie copy, a walk controller and a promise per node: most
 * of a historical eth_call). Nodes are looked up by hash and decoded on the way down (views, no
 * copies); nothing is written. The value returned is a view into the store: decode it, never change it.
 */
type NodeItem = Uint8Array | NodeItem[];

/** The node store: node hash (unprefixed hex) -> RLP-encoded node (bytes, or hex where a trie wrote strings). */
export type NodeStore = ReadonlyMap<string, Uint8Array | string>;

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** keccak256 of RLP(''): the root of an empty trie. */
const EMPTY_ROOT = '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

class MissingNode extends Error {}

function load(store: NodeStore, ref: Uint8Array): NodeItem[] {
  const stored = store.get(hex(ref));
  if (stored === undefined) throw new MissingNode(`missing trie node ${hex(ref)}`);
  const node = decodeItem(typeof stored === 'string' ? Buffer.from(stored, 'hex') : stored, 0)[0];
  if (!Array.isArray(node)) throw new MissingNode(`trie node ${hex(ref)} is not a list`);
  return node;
}

/** Reads a big-endian length of `n` bytes at `at`. */
function readLength(b: Uint8Array, at: number, n: number): number {
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + b[at + i]!;
  return length;
}

/**
 * One RLP item at `at` and where the next begins. Strings come back as views into `b`, not copies
 * (a node is read, never kept or changed); the store's own nodes are well formed.
 */
function decodeItem(b: Uint8Array, at: number): [NodeItem, number] {
  const prefix = b[at]!;
  if (prefix < 0x80) return [b.subarray(at, at + 1), at + 1];
  if (prefix < 0xc0) {
    const long = prefix > 0xb7;
    const start = long ? at + 1 + (prefix - 0xb7) : at + 1;
    const end = start + (long ? readLength(b, at + 1, prefix - 0xb7) : prefix - 0x80);
    return [b.subarray(start, end), end];
  }
  const long = prefix > 0xf7;
  const start = long ? at + 1 + (prefix - 0xf7) : at + 1;
  const end = Math.min(b.length, start + (long ? readLength(b, at + 1, prefix - 0xf7) : prefix - 0xc0));
  const items: NodeItem[] = [];
  for (let i = start; i < end; ) {
    const [item, next] = decodeItem(b, i);
    items.push(item);
    i = next;
  }
  return [items, end];
}

/** A child reference: empty (none), a 32-byte hash, or a node embedded in its parent. */
function follow(store: NodeStore, ref: NodeItem): NodeItem[] | null {
  if (Array.isArray(ref)) return ref;
  if (ref.length === 0) return null;
  return load(store, ref);
}

/**
 * The value stored under `path` (the already hashed key) in the trie with root `root`, or null.
 * Throws when a node is missing from the store (a root that is not there).
 */
export function trieGet(store: NodeStore, root: Uint8Array, path: Uint8Array): Uint8Array | null {
  if (hex(root) === EMPTY_ROOT) return null;
  const nibbles = new Uint8Array(path.length * 2);
  for (let i = 0; i < path.length; i++) {
    nibbles[2 * i] = path[i]! >> 4;
    nibbles[2 * i + 1] = path[i]! & 15;
  }
  let at = 0;
  let node: NodeItem[] | null = load(store, root);
  while (node !== null) {
    if (node.length === 17) {
      if (at === nibbles.length) return nonEmpty(node[16] as Uint8Array);
      node = follow(store, node[nibbles[at++]!]!);
      continue;
    }
    // Leaf or extension: a hex-prefix encoded key part, then the value or the child.
    const encoded = node[0] as Uint8Array;
    const flag = encoded[0]! >> 4;
    const leaf = flag >= 2;
    const odd = (flag & 1) === 1;
    const partLength = encoded.length * 2 - (odd ? 1 : 2);
    for (let i = 0; i < partLength; i++) {
      const k = i + (odd ? 1 : 2);
      const nibble = k % 2 === 0 ? encoded[k / 2]! >> 4 : encoded[(k - 1) / 2]! & 15;
      if (nibbles[at + i] !== nibble) return null;
    }
    at += partLength;
    if (leaf) return at === nibbles.length ? nonEmpty(node[1] as Uint8Array) : null;
    node = follow(store, node[1]!);
  }
  return null;
}

const nonEmpty = (v: Uint8Array) => (v.length === 0 ? null : v);
