/**
 * merkleState.ts's cache reads and writes (keys made through Buffer, not @noble's bytesToHex) against the caches' own
 * get/put/del: the same random operations, with checkpoints, commits and reverts, on a pair of caches of each kind
 * (LRU and ordered map) must give the same answers, the same flushed changes and the same counters.
 */
import { describe, expect, it } from 'vitest';
import { Caches, CacheType } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex } from '@ethereumjs/util';
import {
  accountCacheGet,
  accountCachePut,
  codeCacheDel,
  codeCacheGet,
  storageCacheClear,
  storageCacheGet,
  storageCachePut,
} from '../../../../src/eth/engine/evm/merkleState.js';
import { prng } from '../../../support/prng.js';

type Hexes = string | undefined | Hexes[];
const hexes = (x: unknown): Hexes => {
  if (x instanceof Uint8Array) return bytesToHex(x);
  if (Array.isArray(x)) return x.map(hexes);
  if (x !== null && typeof x === 'object') return Object.values(x).map(hexes);
  return x === undefined ? undefined : String(x);
};

describe("merkleState.ts's cache accessors", () => {
  for (const type of [CacheType.LRU, CacheType.ORDERED_MAP]) {
    it(`answer, flush and count as the ${type} caches' own get and put do`, () => {
      const settings = { type, size: 1000 };
      const stock = new Caches({ account: settings, storage: settings, code: settings });
      const ours = new Caches({ account: settings, storage: settings, code: settings });
      const rand = prng(type === CacheType.LRU ? 11 : 12);
      const pick = (n: number) => Math.floor(rand() * n);
      const addresses = Array.from({ length: 6 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 37 + j * 11) & 255)));
      const slots = Array.from({ length: 5 }, (_, i) => Uint8Array.from({ length: 32 }, (_, j) => (j === 31 ? i : j === 0 ? 0xab : 0)));
      let depth = 0;
      for (let step = 0; step < 600; step++) {
        const address = addresses[pick(addresses.length)]!;
        const slot = slots[pick(slots.length)]!;
        const op = pick(11);
        if (op === 0) {
          const account = new Account(BigInt(pick(5)), BigInt(pick(1000)));
          stock.account!.put(address, account);
          accountCachePut(ours.account!, address, account.serialize());
        } else if (op === 1) {
          stock.account!.del(address);
          accountCachePut(ours.account!, address, undefined);
        } else if (op === 2) {
          expect(hexes(accountCacheGet(ours.account!, address))).toEqual(hexes(stock.account!.get(address)));
        } else if (op === 3) {
          const value = pick(3) === 0 ? Uint8Array.of(0x80) : Uint8Array.of(0x82, pick(256), 1);
          stock.storage!.put(address, slot, value);
          storageCachePut(ours.storage!, address, slot, value);
        } else if (op === 4) {
          expect(hexes(storageCacheGet(ours.storage!, address.bytes, slot))).toEqual(hexes(stock.storage!.get(address, slot)));
        } else if (op === 5) {
          const code = Uint8Array.of(0x60, pick(256));
          stock.code!.put(address, code);
          ours.code!.put(address, code);
          expect(hexes(codeCacheGet(ours.code!, address))).toEqual(hexes(stock.code!.get(address)));
        } else if (op === 6) {
          stock.checkpoint();
          ours.checkpoint();
          depth++;
        } else if (op === 7 && depth > 0) {
          stock.revert();
          ours.revert();
          depth--;
        } else if (op === 8 && depth > 0) {
          stock.commit();
          ours.commit();
          depth--;
        } else if (op === 9) {
          stock.code!.del(address);
          codeCacheDel(ours.code!, address);
          expect(hexes(codeCacheGet(ours.code!, address))).toEqual(hexes(stock.code!.get(address)));
        } else if (op === 10) {
          stock.storage!.clearStorage(address);
          storageCacheClear(ours.storage!, address);
        }
      }
      for (const address of addresses) {
        expect(hexes(accountCacheGet(ours.account!, address))).toEqual(hexes(stock.account!.get(address)));
        for (const slot of slots) expect(hexes(storageCacheGet(ours.storage!, address.bytes, slot))).toEqual(hexes(stock.storage!.get(address, slot)));
      }
      expect(hexes(ours.account!.flush())).toEqual(hexes(stock.account!.flush()));
      expect(hexes(ours.storage!.flush())).toEqual(hexes(stock.storage!.flush()));
      expect(hexes(ours.code!.flush())).toEqual(hexes(stock.code!.flush()));
      for (const kind of ['account', 'storage', 'code'] as const) expect(ours[kind]!.stats()).toEqual(stock[kind]!.stats());
    });
  }
});
