/**
 * The trie nodes a dump keeps: those reachable from the state roots it keeps (every kept block's, and head's root
 * with unmined edits). Walked from each root: the account trie's nodes, each account's storage trie and its code
 * (stored under "c" + code hash, as @ethereumjs stores it). Nodes left behind by reverted blocks or by a failed
 * mining attempt are not reachable and stay out. Each node is read once (a visited set spans the roots), so a
 * 1,000-block chain costs one pass over its distinct nodes.
 */
import { RlpCursor } from '../../codec/rlpReader.js';
import { hexBytes, plainHex } from '../../../../hex.js';

/** keccak256 of RLP(''): the root of an empty trie. */
const EMPTY_ROOT = '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
/** keccak256 of no bytes: the code hash of an account without code. */
const EMPTY_CODE = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
/** @ethereumjs's key prefix of code ("c"). */
const CODE_PREFIX = '63';

/** A state root whose trie (or an account's storage or code under it) misses a node of the store. */
export class MissingStateError extends Error {
  override name = 'MissingStateError';
}

type Store = ReadonlyMap<string, Uint8Array | string>;
const ACCOUNTS = 0;
const STORAGE = 1;
const c = new RlpCursor();

/**
 * Every node reachable from `roots` (account trie roots), in walk order, values as bytes, added to `out` (whose nodes
 * must be whole subtries: a node found there is not walked again). Throws MissingStateError when one is missing.
 */
export function reachableNodes(store: Store, roots: Iterable<Uint8Array>, out = new Map<string, Uint8Array>()): Map<string, Uint8Array> {
  const w = walk(store, roots, out);
  for (let r = w.next(); ; r = w.next()) if (r.done === true) return r.value;
}

/** The same, giving the event loop a turn every 4,096 nodes (a first dump of a long chain walks ~125,000). */
export async function reachableNodesYielding(store: Store, roots: Iterable<Uint8Array>, out = new Map<string, Uint8Array>()): Promise<Map<string, Uint8Array>> {
  const w = walk(store, roots, out);
  for (let r = w.next(); ; r = w.next()) {
    if (r.done === true) return r.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The walk, pausing (yield) every 4,096 nodes; no cursor state lives across a pause. */
function* walk(store: Store, roots: Iterable<Uint8Array>, out: Map<string, Uint8Array>): Generator<void, Map<string, Uint8Array>> {
  let walked = 0;
  const todo: [string, number][] = [];
  const read = (key: string): Uint8Array => {
    const v = store.get(key);
    if (v === undefined) throw new MissingStateError(`missing trie node ${key}`);
    return typeof v === 'string' ? hexBytes(v) : v;
  };
  const push = (b: Uint8Array, at: number, kind: number) => {
    const key = plainHex(b.subarray(at, at + 32));
    if (key !== EMPTY_ROOT && !out.has(key)) todo.push([key, kind]);
  };
  // An account's RLP [nonce, balance, storageRoot, codeHash] in b[start, end).
  const account = (b: Uint8Array, start: number) => {
    c.parse(b, start, 'an account');
    let at = c.parse(b, c.start).end; // nonce
    at = c.parse(b, at).end; // balance
    c.parse(b, at);
    if (c.end - c.start !== 32) throw new MissingStateError('an account leaf has no storage root');
    push(b, c.start, STORAGE);
    c.parse(b, c.end);
    if (c.end - c.start !== 32) throw new MissingStateError('an account leaf has no code hash');
    const code = plainHex(b.subarray(c.start, c.end));
    if (code !== EMPTY_CODE && !out.has(CODE_PREFIX + code)) out.set(CODE_PREFIX + code, read(CODE_PREFIX + code));
  };
  // A trie node (an RLP list) at b[at]: its children are pushed, inline ones walked in place.
  const node = (b: Uint8Array, at: number, kind: number): void => {
    c.parse(b, at, 'a trie node');
    const end = c.end;
    const items: number[] = [];
    for (let i = c.start; i < end; i = c.parse(b, i).end) items.push(i);
    if (items.length === 17) {
      for (let i = 0; i < 16; i++) child(b, items[i]!, kind);
    } else if (items.length === 2) {
      c.parse(b, items[0]!);
      const leaf = c.end > c.start && b[c.start]! >> 4 >= 2;
      if (!leaf) child(b, items[1]!, kind);
      else if (kind === ACCOUNTS) {
        c.parse(b, items[1]!);
        account(b, c.start);
      }
    } else throw new MissingStateError(`a trie node has ${items.length} items`);
  };
  const child = (b: Uint8Array, at: number, kind: number) => {
    c.parse(b, at);
    if (c.isList)
      node(b, at, kind); // a node under 32 bytes, inline in its parent
    else if (c.end - c.start === 32) push(b, c.start, kind);
  };
  for (const root of roots) {
    push(root, 0, ACCOUNTS);
    while (todo.length > 0) {
      const [key, kind] = todo.pop()!;
      if (out.has(key)) continue;
      const bytes = read(key);
      out.set(key, bytes);
      node(bytes, 0, kind);
      if (++walked % 4096 === 0) yield;
    }
  }
  return out;
}
