/**
 * Reads one key of a Merkle Patricia trie straight from the chain's in-memory node store, without
 * @ethereumjs/mpt's asynchronous walker (a trie copy, a walk controller and a promise per node: most
 * of a historical eth_call). Each node is walked in its RLP bytes: only the item on the key's path is
 * located (no decoded item arrays), and nothing is written. The value returned is a view into the
 * store: decode it, never change it.
 */
import { RlpCursor } from '../codec/rlpReader.js';
import { ImageNodes } from '../image/imageNodes.js';
import { hexBytes, plainHex, plainHexView } from '../../../hex.js';

/** The node store: node hash (unprefixed hex) -> RLP-encoded node (bytes, or hex where a trie wrote strings). */
export type NodeStore = ReadonlyMap<string, Uint8Array | string>;

const hex = plainHex;

/** keccak256 of RLP(''): the root of an empty trie. */
const EMPTY_ROOT = hexBytes('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');

/** Whether `root` is the empty trie's root, compared byte by byte (no hex string per read). */
function isEmptyRoot(root: Uint8Array): boolean {
  if (root.length !== 32) return false;
  for (let i = 0; i < 32; i++) if (root[i] !== EMPTY_ROOT[i]) return false;
  return true;
}

class MissingNode extends Error {}

/** The RLP bytes of the node whose hash is `ref`. */
function load(store: NodeStore, ref: Uint8Array): Uint8Array {
  // A restored chain image's nodes are found by the hash bytes, without a hex key, where it can.
  const direct = store instanceof ImageNodes ? store.byBytes(ref) : undefined;
  if (direct !== undefined) return direct;
  const stored = store.get(hex(ref));
  if (stored === undefined) throw new MissingNode(`missing trie node ${hex(ref)}`);
  return typeof stored === 'string' ? plainHexView(stored) : stored;
}

/** The item last parsed (trieGet reads each result before the next parse: one cursor, no object per item). */
const c = new RlpCursor();

/** Where the item after the one at `at` begins. */
function skip(b: Uint8Array, at: number): number {
  return c.parse(b, at, 'a trie node').end;
}

/** The nibble `i` of `path`. */
const nibbleAt = (path: Uint8Array, i: number) => ((i & 1) === 0 ? path[i >> 1]! >> 4 : path[i >> 1]! & 15);

/**
 * The value stored under `path` (the already hashed key) in the trie with root `root`, or null.
 * Throws when a node is missing from the store (a root that is not there).
 */
export function trieGet(store: NodeStore, root: Uint8Array, path: Uint8Array): Uint8Array | null {
  if (isEmptyRoot(root)) return null;
  const pathNibbles = path.length * 2;
  let b = load(store, root);
  let node = 0; // offset of the current node (an RLP list) in b
  let at = 0; // nibbles of the path consumed
  for (;;) {
    c.parse(b, node);
    const listEnd = c.end;
    const first = c.start;
    const second = skip(b, first);
    const afterSecond = skip(b, second);
    let child: number;
    if (afterSecond < listEnd) {
      // A branch: 16 children, then the value.
      if (at === pathNibbles) {
        child = first;
        for (let i = 0; i < 16; i++) child = skip(b, child);
        c.parse(b, child);
        return c.end > c.start ? b.subarray(c.start, c.end) : null;
      }
      child = first;
      for (let i = nibbleAt(path, at++); i > 0; i--) child = skip(b, child);
    } else {
      // A leaf or an extension: the hex-prefix encoded key part, then the value or the child.
      c.parse(b, first);
      const keyStart = c.start;
      const keyEnd = c.end;
      const flag = b[keyStart]! >> 4;
      const odd = (flag & 1) === 1;
      const partLength = (keyEnd - keyStart) * 2 - (odd ? 1 : 2);
      if (at + partLength > pathNibbles) return null;
      for (let i = 0; i < partLength; i++) {
        const k = i + (odd ? 1 : 2);
        const nibble = (k & 1) === 0 ? b[keyStart + (k >> 1)]! >> 4 : b[keyStart + (k >> 1)]! & 15;
        if (nibbleAt(path, at + i) !== nibble) return null;
      }
      at += partLength;
      if (flag >= 2) {
        if (at !== pathNibbles) return null;
        c.parse(b, second);
        return c.end > c.start ? b.subarray(c.start, c.end) : null;
      }
      child = second;
    }
    // A child reference: empty (none), a node embedded in its parent, or a 32-byte hash.
    c.parse(b, child);
    if (c.isList) node = child;
    else if (c.end === c.start) return null;
    else {
      b = load(store, b.subarray(c.start, c.end));
      node = 0;
    }
  }
}
