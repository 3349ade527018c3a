/**
 * OverlayState with state roots (eth_simulateV1's private state) against @ethereumjs's MerkleStateManager: random writes (accounts,
 * code, storage, clears, deletes) in nested checkpoints with commits and reverts. At each block's end OverlayState's
 * state root, accounts (storage roots included), code and storage equal those of a fresh MerkleStateManager that
 * ran the writes that stayed (the ones no revert undid). The stock manager is not run through the checkpoints
 * itself: after a revert its flush can write a root that misses writes that stayed (seen here with a storage
 * clear inside a reverted checkpoint), and it reads a re-created account's storage from its stale storage trie.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, MapDB, ValueEncoding } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { seedCommon } from '../../../../src/eth/engine/exec/common.js';
import { CallVms } from '../../../../src/eth/engine/exec/callVms.js';
import { OverlayState } from '../../../../src/eth/engine/state/overlayState.js';
import { prng } from '../../../support/prng.js';

const common = seedCommon(31337, 'sim', 'osaka');
const keccak = common.customCrypto.keccak256!;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const word = (n: number) => {
  const w = new Uint8Array(32);
  w[31] = n & 255;
  return w;
};
const fields = (a: Account | undefined) => (a === undefined ? undefined : [a.nonce, a.balance, hex(a.storageRoot), hex(a.codeHash)]);

/** A base state (accounts with storage and code) in a node map, as a chain keeps it. */
async function baseState(addresses: Address[]) {
  const db = new MapDB<string, Uint8Array | string>();
  const trie = new MerklePatriciaTrie({ useKeyHashing: true, common, db: db as never, valueEncoding: ValueEncoding.Bytes });
  const state = new MerkleStateManager({ common, trie });
  for (const [i, a] of addresses.entries()) {
    if (i % 4 === 3) continue;
    await state.putAccount(a, new Account(BigInt(i), BigInt(i) * 1000n));
    if (i % 2 === 0) for (let s = 0; s < 6; s++) await state.putStorage(a, word(s), word(i * 7 + s + 1));
    if (i % 3 === 0) await state.putCode(a, Uint8Array.of(0x60, i, 0x00));
  }
  await state.flush();
  return { db, root: await state.getStateRoot() };
}

type Op = (s: OverlayState | MerkleStateManager) => Promise<void>;

describe('OverlayState', () => {
  it('gives the roots, accounts, code and storage of MerkleStateManager running the writes that stayed', async () => {
    const addresses = Array.from({ length: 10 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 37 + j * 3 + 1) & 255)));
    let blocks = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { db, root } = await baseState(addresses);
      const store = (db as unknown as { _database: Map<string, Uint8Array | string> })._database;
      const nodesBefore = store.size;
      const reads = new CallVms({ nodes: store, prefixCodeHashes: true, keccak, view: undefined as never, commonAt: () => common });
      const sim = new OverlayState(keccak, undefined, reads);
      sim.at(reads.readsAt({ header: { stateRoot: root } } as never));
      /** The writes of each open checkpoint level (level 0: those that stay). */
      const levels: Op[][] = [[]];
      const deleted = new Set<Address>();
      const rand = prng(seed);
      for (let step = 0; step < 300; step++) {
        const address = addresses[Math.floor(rand() * addresses.length)]!;
        const r = rand();
        const n = Math.floor(rand() * 50);
        // A deleted account is left alone afterwards (see the file comment).
        if (deleted.has(address)) continue;
        let op: Op | undefined;
        const exists = (await sim.getAccount(address)) !== undefined;
        if (r < 0.15) op = (s) => s.modifyAccountFields(address, { balance: BigInt(n), nonce: BigInt(step) });
        else if (r < 0.35 && exists) op = (s) => s.putStorage(address, word(n % 9), n % 3 === 0 ? new Uint8Array() : word(n));
        else if (r < 0.4) op = (s) => s.putCode(address, Uint8Array.of(0x60, n, 0x00));
        else if (r < 0.44) {
          op = (s) => s.deleteAccount(address);
          deleted.add(address);
        } else if (r < 0.47) op = (s) => s.clearStorage(address);
        else if (r < 0.57) {
          await sim.checkpoint();
          levels.push([]);
        } else if (r < 0.72 && levels.length > 1) {
          const ops = levels.pop()!;
          if (r < 0.64) await sim.revert();
          else {
            await sim.commit();
            levels[levels.length - 1]!.push(...ops);
          }
        } else if (r < 0.76 && levels.length === 1) {
          // A block's end: the state root, and every account as it is then.
          blocks++;
          const copy = new MapDB<string, Uint8Array | string>(new Map(store) as never);
          const truth = new MerkleStateManager({
            common,
            trie: new MerklePatriciaTrie({ useKeyHashing: true, common, db: copy as never, valueEncoding: ValueEncoding.Bytes }),
          });
          await truth.setStateRoot(root);
          for (const o of levels[0]!) await o(truth);
          expect(hex(await sim.getStateRoot())).toBe(hex(await truth.getStateRoot()));
          for (const a of addresses) {
            expect(fields(await sim.getAccount(a))).toEqual(fields(await truth.getAccount(a)));
            expect(hex(await sim.getCode(a))).toBe(hex(await truth.getCode(a)));
            if (deleted.has(a)) continue;
            for (let s = 0; s < 9; s++) expect(hex(await sim.getStorage(a, word(s)))).toBe(hex(await truth.getStorage(a, word(s))));
          }
        }
        if (op !== undefined) {
          await op(sim);
          levels[levels.length - 1]!.push(op);
        }
      }
      // Nothing was written to the base's node store.
      expect(store.size).toBe(nodesBefore);
    }
    expect(blocks).toBeGreaterThan(20);
  });
  it("records nothing for a write of the value a slot or account holds, and keeps each slot's original value", async () => {
    const addresses = Array.from({ length: 4 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 37 + j * 3 + 1) & 255)));
    const { db, root } = await baseState(addresses);
    const store = (db as unknown as { _database: Map<string, Uint8Array | string> })._database;
    const reads = new CallVms({ nodes: store, prefixCodeHashes: true, keccak, view: undefined as never, commonAt: () => common });
    const sim = new OverlayState(keccak, undefined, reads);
    sim.at(reads.readsAt({ header: { stateRoot: root } } as never));
    const a = addresses[0]!; // base slots 0..5 hold word(1..6)
    const roots = (sim as unknown as { roots: { changed: Set<string>; dirty: Map<string, unknown> } }).roots;
    await sim.checkpoint();
    // The base's value (padded or minimal), and zero into an empty slot: no-ops.
    await sim.putStorage(a, word(0), word(1));
    await sim.putStorage(a, word(1), Uint8Array.of(2));
    await sim.putStorage(a, word(8), word(0));
    await sim.putStorage(a, word(7), new Uint8Array());
    // An account put back as it is, and an absent account deleted: no-ops too.
    await sim.putAccount(a, (await sim.getAccount(a))!);
    await sim.modifyAccountFields(addresses[1]!, { nonce: 1n });
    await sim.deleteAccount(addresses[3]!);
    expect(roots.changed.size + roots.dirty.size).toBe(0);
    expect(sim.written()).toBe(false);
    expect(hex(await sim.getStateRoot())).toBe(hex(root));
    // A real write, then its own value again, then back: the original stays the transaction's first value.
    await sim.putStorage(a, word(2), word(9));
    await sim.putStorage(a, word(2), word(9));
    expect(hex(await sim.originalStorageCache.get(a, word(2)))).toBe(hex(Uint8Array.of(3)));
    await sim.putStorage(a, word(2), word(3));
    expect(hex(await sim.originalStorageCache.get(a, word(2)))).toBe(hex(Uint8Array.of(3)));
    // A slot first written with its own value, then changed: its original is still its value at the start.
    await sim.putStorage(a, word(3), word(4));
    await sim.putStorage(a, word(3), word(11));
    expect(hex(await sim.originalStorageCache.get(a, word(3)))).toBe(hex(Uint8Array.of(4)));
    await sim.commit();
    const truth = new MerkleStateManager({
      common,
      trie: new MerklePatriciaTrie({ useKeyHashing: true, common, db: new MapDB(new Map(store) as never) as never, valueEncoding: ValueEncoding.Bytes }),
    });
    await truth.setStateRoot(root);
    await truth.putStorage(a, word(3), word(11));
    expect(hex(await sim.getStateRoot())).toBe(hex(await truth.getStateRoot()));
  });
});
