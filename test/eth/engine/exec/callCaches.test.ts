/**
 * The small caches of eth_call's hot path (callfast): an address's map key kept per bytes array, the NoBaseFee
 * context kept per header, and isActivatedEIP's Set kept on the Common. None holds chain state, so none can go
 * stale on a new block, a revert or a state edit; these tests hold each equal to what it stands for, and show it
 * follows what it depends on (another header, another hardfork of the same Common).
 */
import { Hardfork } from '@ethereumjs/common';
import { Address, bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { callContext, type CallRequest } from '../../../../src/eth/engine/exec/call.js';
import { seedCommon } from '../../../../src/eth/engine/exec/common.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { addressKey } from '../../../../src/eth/engine/state/rootReads.js';
import { trieGet } from '../../../../src/eth/engine/state/trieRead.js';
import { Lru } from '../../../../src/eth/engine/exec/vmPool.js';

describe('addressKey', () => {
  it('is the plain hex of the address, for new and repeated Address objects', () => {
    for (let i = 0; i < 200; i++) {
      const bytes = new Uint8Array(20).map((_, j) => (i * 31 + j * 7) & 0xff);
      const a = new Address(bytes);
      expect(addressKey(a)).toBe(bytesToHex(bytes).slice(2));
      expect(addressKey(a)).toBe(bytesToHex(bytes).slice(2));
      // Another Address of equal bytes (a new array) has the same key.
      expect(addressKey(new Address(bytes.slice()))).toBe(addressKey(a));
    }
    expect(addressKey(createAddressFromString('0x00000000000000000000000000000000000000ff'))).toBe('00000000000000000000000000000000000000ff');
  });
});

describe('callContext', () => {
  const header = (baseFeePerGas: bigint | undefined) => ({ number: 5n, gasLimit: 30_000_000n, baseFeePerGas }) as unknown as MinedBlock['header'];
  const block = (h: MinedBlock['header']) => ({ header: h }) as MinedBlock;
  const unpriced: CallRequest = {};

  it('answers a zero base fee for an unpriced call, made once per header, and leaves the header alone', () => {
    const h = header(7n);
    const first = callContext(block(h), unpriced);
    expect(first.header.baseFeePerGas).toBe(0n);
    expect(first.header.number).toBe(5n);
    expect(h.baseFeePerGas).toBe(7n);
    expect(callContext(block(h), unpriced)).toBe(first);
    // Another header (a new block, an override) gets its own context.
    const other = header(9n);
    const second = callContext(block(other), unpriced);
    expect(second).not.toBe(first);
    expect(second.header.number).toBe(5n);
    expect(second.header.baseFeePerGas).toBe(0n);
  });

  it('gives a priced call, or a block without a base fee, the header itself', () => {
    const h = header(7n);
    expect(callContext(block(h), { gasPrice: 1n }).header).toBe(h);
    expect(callContext(block(h), { maxFeePerGas: 1n }).header).toBe(h);
    expect(callContext(block(h), { maxPriorityFeePerGas: 1n }).header).toBe(h);
    const legacy = header(undefined);
    expect(callContext(block(legacy), unpriced).header).toBe(legacy);
  });
});

describe('isActivatedEIP of a prepared Common', () => {
  it('answers as the stock method, also after its hardfork changes', () => {
    const common = seedCommon(1337, 'callcaches', Hardfork.Prague);
    const stock = (eip: number) => (common as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache.includes(eip);
    const eips = [1153, 1559, 2929, 3855, 4844, 6780, 7702, 7623, 9999];
    for (const hf of [Hardfork.Prague, Hardfork.London, Hardfork.Cancun, Hardfork.Berlin, Hardfork.Prague]) {
      common.setHardfork(hf);
      for (const eip of eips) expect([hf, eip, common.isActivatedEIP(eip)]).toEqual([hf, eip, stock(eip)]);
    }
    common.setHardfork(Hardfork.London);
    expect(common.isActivatedEIP(1559)).toBe(true);
    expect(common.isActivatedEIP(1153)).toBe(false);
    // A copy starts from the same list and follows its own hardfork.
    const copy = common.copy();
    copy.setHardfork(Hardfork.Cancun);
    expect(copy.isActivatedEIP(1153)).toBe(true);
    expect(common.isActivatedEIP(1153)).toBe(false);
  });
});

describe('Lru', () => {
  it('keeps and evicts as a plain least-recently-used list, also when one key is used again and again', () => {
    // The reference: an array, least recently used first.
    for (const capacity of [1, 2, 3, 5]) {
      const lru = new Lru<string, number>(capacity);
      let model: [string, number][] = [];
      let seed = capacity * 7919;
      const rand = (n: number) => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
      };
      for (let step = 0; step < 3000; step++) {
        const key = `k${rand(rand(3) === 0 ? 2 : 7)}`;
        const op = rand(10);
        if (op < 5) {
          const i = model.findIndex(([k]) => k === key);
          const want = i < 0 ? undefined : model[i]![1];
          if (i >= 0) model = [...model.slice(0, i), ...model.slice(i + 1), model[i]!];
          expect(lru.get(key)).toBe(want);
        } else if (op < 9) {
          model = [...model.filter(([k]) => k !== key), [key, step]];
          if (model.length > capacity) model = model.slice(1);
          lru.set(key, step);
        } else {
          model = model.filter(([k]) => k !== key);
          lru.delete(key);
        }
        expect([...lru.values()]).toEqual(model.map(([, v]) => v));
      }
    }
  });
});

describe('trieGet', () => {
  it('answers null for the empty trie root without reading the store', () => {
    const empty = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex');
    expect(trieGet(new Map(), empty, new Uint8Array(32))).toBeNull();
    // Another root is looked up (and is missing here).
    const other = Uint8Array.from(empty);
    other[31] ^= 1;
    expect(() => trieGet(new Map(), other, new Uint8Array(32))).toThrow(/missing trie node/);
  });
});
