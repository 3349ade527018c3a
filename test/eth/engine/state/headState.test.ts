/** HeadStateManager's account reads (decoded once per cached RLP) and storage reads (straight from the node store) answer as @ethereumjs's MerkleStateManager does. */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import { Account, Address, bytesToHex, MapDB, unpadBytes, ValueEncoding } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { seedCommon } from '../../../../src/eth/engine/exec/common.js';
import { HeadStateManager, slotRLP, slotValue } from '../../../../src/eth/engine/state/headState.js';
import { prng } from '../../../support/prng.js';

const common = seedCommon(31337, 'head', 'osaka');
const state = (Manager: typeof MerkleStateManager) =>
  new Manager({
    common,
    trie: new MerklePatriciaTrie({ useKeyHashing: true, common, db: new MapDB(), valueEncoding: ValueEncoding.Bytes }),
    caches: new Caches(),
  });
const fields = (a: Account | undefined) =>
  a === undefined ? undefined : [a.nonce, a.balance, Buffer.from(a.storageRoot).toString('hex'), Buffer.from(a.codeHash).toString('hex')];

describe('HeadStateManager.getAccount', () => {
  it('gives what MerkleStateManager gives through puts, deletes, checkpoints, reverts and flushes, and a fresh copy each time', async () => {
    const head = state(HeadStateManager);
    const plain = state(MerkleStateManager);
    const rand = prng(7);
    const addresses = Array.from({ length: 12 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 31 + j) & 255)));
    for (let step = 0; step < 600; step++) {
      const address = addresses[Math.floor(rand() * addresses.length)]!;
      const r = rand();
      const balance = BigInt(Math.floor(rand() * 1e9));
      for (const s of [head, plain]) {
        if (r < 0.4) await s.putAccount(address, new Account(BigInt(step), balance));
        else if (r < 0.45) await s.deleteAccount(address);
        else if (r < 0.5) await s.checkpoint();
        else if (r < 0.55) await s.revert().catch(() => {});
        else if (r < 0.6) await s.commit().catch(() => {});
        else if (r < 0.62) await s.flush();
      }
      if (r >= 0.4 && r < 0.62) continue;
      const got = await head.getAccount(address);
      expect(fields(got)).toEqual(fields(await plain.getAccount(address)));
      if (got !== undefined) {
        got.nonce += 1000n;
        got.balance = 1n;
        expect(fields(await head.getAccount(address))).toEqual(fields(await plain.getAccount(address)));
      }
    }
  });
});

describe('HeadStateManager.getStorage', () => {
  it('gives what MerkleStateManager gives through puts, checkpoints, reverts, flushes and reloads from the trie', async () => {
    const head = state(HeadStateManager);
    const plain = state(MerkleStateManager);
    const rand = prng(11);
    const addresses = Array.from({ length: 5 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 53 + j + 1) & 255)));
    const keys = Array.from({ length: 24 }, (_, i) => Uint8Array.from({ length: 32 }, (_, j) => (j === 31 ? i : j === 0 ? i * 7 : 0)));
    for (const s of [head, plain]) for (const a of addresses) await s.putAccount(a, new Account(1n, 1n));
    let depth = 0;
    let reloads = 0;
    for (let step = 0; step < 1500; step++) {
      const address = addresses[Math.floor(rand() * addresses.length)]!;
      const key = keys[Math.floor(rand() * keys.length)]!;
      const r = rand();
      const value = rand() < 0.2 ? new Uint8Array() : Uint8Array.of(Math.floor(rand() * 255) + 1, step & 255);
      const reload = r >= 0.6 && r < 0.66 && depth === 0;
      for (const s of [head, plain]) {
        if (r < 0.35) await s.putStorage(address, key, value);
        else if (r >= 0.37 && r < 0.45) await s.checkpoint();
        else if (r >= 0.45 && r < 0.5 && depth > 0) await s.revert();
        else if (r >= 0.5 && r < 0.55 && depth > 0) await s.commit();
        // Flushed with no checkpoint open, as head's state is (a block's end, an edit): a flush inside checkpoints and
        // a later revert of an outer one is a case where the two already differed before getStorage's own read.
        else if (r >= 0.55 && r < 0.6 && depth === 0) await s.flush();
        // Head's root again with the caches dropped: what a cut-back chain or a failed block does (setStateRoot).
        else if (reload) await s.setStateRoot(await s.getStateRoot(), true);
      }
      if (r >= 0.37 && r < 0.45) depth++;
      else if (r >= 0.45 && r < 0.55 && depth > 0) depth--;
      if (reload) reloads++;
      const got = await head.getStorage(address, key);
      expect(Buffer.from(got).toString('hex'), `step ${step}`).toBe(Buffer.from(await plain.getStorage(address, key)).toString('hex'));
    }
    expect(reloads).toBeGreaterThan(8);
    expect(Buffer.from(await head.getStateRoot()).toString('hex')).toBe(Buffer.from(await plain.getStateRoot()).toString('hex'));
  });
});

describe('HeadStateManager.commit', () => {
  it("writes a block's account-trie nodes into the node map with no batch (the stock commit's hex round trips), the same entries in the same order", async () => {
    const dbOf = (s: MerkleStateManager) =>
      s['_trie'].database() as unknown as { batch: (ops: unknown[]) => Promise<void>; commit: () => Promise<void>; db: { _database: Map<string, Uint8Array> } };
    const nodeMap = (s: MerkleStateManager) => dbOf(s).db._database;
    const head = state(HeadStateManager);
    // The same state manager with CheckpointDB's own commit.
    const plain = state(HeadStateManager);
    dbOf(plain).commit = Object.getPrototypeOf(dbOf(plain)).commit;
    let batches = 0;
    const batch = dbOf(head).batch.bind(dbOf(head));
    dbOf(head).batch = (ops) => {
      batches++;
      return batch(ops);
    };
    const addresses = Array.from({ length: 20 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 17 + j + 3) & 255)));
    for (let block = 0; block < 6; block++) {
      for (const s of [head, plain]) {
        // As a block is built: a checkpoint, nested ones committed and reverted inside it, the state root, the commit.
        await s.checkpoint();
        for (const [i, a] of addresses.entries()) if ((i + block) % 3 !== 0) await s.putAccount(a, new Account(BigInt(block), BigInt(i * 1000 + block)));
        await s.checkpoint();
        await s.putAccount(addresses[block]!, new Account(99n, 99n));
        await s.commit();
        await s.checkpoint();
        await s.deleteAccount(addresses[block + 1]!);
        await s.revert();
        await s.getStateRoot();
        await s.commit();
      }
      expect(bytesToHex(await head.getStateRoot())).toBe(bytesToHex(await plain.getStateRoot()));
      expect([...nodeMap(head).keys()]).toEqual([...nodeMap(plain).keys()]);
      for (const [k, v] of nodeMap(plain)) expect(bytesToHex(nodeMap(head).get(k)!)).toBe(bytesToHex(v));
    }
    expect(batches).toBe(0);
  });
});

describe('slotRLP and slotValue', () => {
  it('encode as RLP.encode(unpadBytes(value)) and decode as RLP.decode, on zeros, leading zeros, single bytes and full words', () => {
    const rand = prng(9);
    const values: Uint8Array[] = [new Uint8Array(32), new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(0x7f), Uint8Array.of(0x80), Uint8Array.of(0, 0, 0x81)];
    for (let i = 0; i < 300; i++) {
      const v = Uint8Array.from({ length: 1 + Math.floor(rand() * 32) }, () => (rand() < 0.3 ? 0 : Math.floor(rand() * 256)));
      v.fill(0, 0, Math.floor(rand() * v.length));
      values.push(v);
    }
    for (const v of values) {
      const rlp = slotRLP(v);
      expect(bytesToHex(rlp)).toBe(bytesToHex(RLP.encode(unpadBytes(v))));
      expect(bytesToHex(slotValue(rlp))).toBe(bytesToHex(RLP.decode(rlp) as Uint8Array));
    }
    // Non-canonical RLP is left to RLP.decode (which refuses a prefixed single byte below 0x80).
    expect(() => slotValue(Uint8Array.of(0x81, 0x05))).toThrow();
  });
});
