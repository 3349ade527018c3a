/**
 * Reads one key of a Merkle Patricia trie straight from the chain's in-memory node store, without
 * @ethereumjs/mpt's asynchronous walker (a trie copy, a walk controller and a promise per node: most
 * of a historical eth_call). Each node is walked in its RLP bytes: only the item on the key's path is
 * located (no decoded item arrays), and nothing is written. The value returned is a view into the
 * store: decode it, never change it.
 */
import { ImageNodes } from '../image/imageNodes.js';

/** The node store: node hash (unprefixed hex) -> RLP-encoded node (bytes, or hex where a trie wrote strings). */
export type NodeStore = ReadonlyMap<string, Uint8Array | string>;

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** keccak256 of RLP(''): the root of an empty trie. */
const EMPTY_ROOT = '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

class MissingNode extends Error {}

/** The RLP bytes of the node whose hash is `ref`. */
function load(store: NodeStore, ref: Uint8Array): Uint8Array {
  // A restored chain image's nodes are found by the hash bytes, without a hex key, where it can.
  const direct = store instanceof ImageNodes ? store.byBytes(ref) : undefined;
  if (direct !== undefined) return direct;
  const stored = store.get(hex(ref));
  if (stored === undefined) throw new MissingNode(`missing trie node ${hex(ref)}`);
  return typeof stored === 'string' ? Buffer.from(stored, 'hex') : stored;
}

/**
 * One RLP item at `b[at]`, as where its payload starts and ends (`start`, `end`; the next item begins
 * at `end`) and whether it is a list. Kept in module state, not an object per item: the walk is
 * synchronous and reads each result before the next parse.
 */
let start = 0;
let end = 0;
let isList = false;

function parseItem(b: Uint8Array, at: number): void {
  const prefix = b[at]!;
  if (prefix < 0x80) {
    start = at;
    end = at + 1;
    isList = false;
  } else if (prefix < 0xb8) {
    start = at + 1;
    end = start + prefix - 0x80;
    isList = false;
  } else if (prefix < 0xc0) {
    start = at + 1 + (prefix - 0xb7);
    end = start + readLength(b, at + 1, prefix - 0xb7);
    isList = false;
  } else if (prefix < 0xf8) {
    start = at + 1;
    end = start + prefix - 0xc0;
    isList = true;
  } else {
    start = at + 1 + (prefix - 0xf7);
    end = start + readLength(b, at + 1, prefix - 0xf7);
    isList = true;
  }
}

/** Reads a big-endian length of `n` bytes at `at`. */
function readLength(b: Uint8Array, at: number, n: number): number {
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + b[at + i]!;
  return length;
}

/** Where the item after the one at `at` begins. */
function skip(b: Uint8Array, at: number): number {
  parseItem(b, at);
  return end;
}

/** The nibble `i` of `path`. */
const nibbleAt = (path: Uint8Array, i: number) => ((i & 1) === 0 ? path[i >> 1]! >> 4 : path[i >> 1]! & 15);

/**
 * The value stored under `path` (the already hashed key) in the trie with root `root`, or null.
 * Throws when a node is missing from the store (a root that is not there).
 */
export function trieGet(store: NodeStore, root: Uint8Array, path: Uint8Array): Uint8Array | null {
  if (hex(root) === EMPTY_ROOT) return null;
  const pathNibbles = path.length * 2;
  let b = load(store, root);
  let node = 0; // offset of the current node (an RLP list) in b
  let at = 0; // nibbles of the path consumed
  for (;;) {
    parseItem(b, node);
    const listEnd = end;
    const first = start;
    const second = skip(b, first);
    const afterSecond = skip(b, second);
    let child: number;
    if (afterSecond < listEnd) {
      // A branch: 16 children, then the value.
      if (at === pathNibbles) {
        child = first;
        for (let i = 0; i < 16; i++) child = skip(b, child);
        parseItem(b, child);
        return end > start ? b.subarray(start, end) : null;
      }
      child = first;
      for (let i = nibbleAt(path, at++); i > 0; i--) child = skip(b, child);
    } else {
      // A leaf or an extension: the hex-prefix encoded key part, then the value or the child.
      parseItem(b, first);
      const keyStart = start;
      const keyEnd = end;
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
        parseItem(b, second);
        return end > start ? b.subarray(start, end) : null;
      }
      child = second;
    }
    // A child reference: empty (none), a node embedded in its parent, or a 32-byte hash.
    parseItem(b, child);
    if (isList) node = child;
    else if (end === start) return null;
    else {
      b = load(store, b.subarray(start, end));
      node = 0;
    }
  }
}
