/**
 * The committed artifacts behave as their sources say, on a real EVM: the documented storage
 * positions hold the documented values, reverts carry the documented payloads, events carry the
 * documented topics, and SimpleStoreHomestead runs on a homestead EVM.
 */
import { Hardfork } from '@ethereumjs/common';
import type { Log } from '@ethereumjs/evm';
import { type Address, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { concat, decodeErrorResult, decodeEventLog, decodeFunctionResult, encodeFunctionData, getAddress, keccak256, pad, toHex, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { Harness, alice, block, bob, fakeBlockHash, loadArtifact, opcodes } from './harness.js';

const word = (v: bigint | number) => toHex(BigInt(v), { size: 32 });
/** SPEC 4.3: the position of mapping[key] for a mapping at `slot`. */
const mappingPosition = (key: Hex, slot: bigint | Hex): Hex => keccak256(concat([pad(key), typeof slot === 'bigint' ? word(slot) : slot]));
const addressHex = (a: Address) => getAddress(a.toString());
const decode = (artifact: string, functionName: string, data: Hex) =>
  decodeFunctionResult({ abi: loadArtifact(artifact).abi, functionName, data } as never) as unknown;
const topicCount = (log: Log) => log[1].length;

describe('Token', () => {
  let h: Harness;
  let token: Address;
  const supply = 1_000_000n * 10n ** 18n;
  beforeAll(async () => {
    h = await Harness.create();
    token = await h.deploy('Token', alice);
  });

  it('gives the deployer the initial supply, at keccak256(pad32(holder) ++ pad32(0))', async () => {
    expect(decode('Token', 'balanceOf', (await h.invoke('Token', token, 'balanceOf', [addressHex(alice)])).returnData)).toBe(supply);
    expect(await h.storageAt(token, mappingPosition(addressHex(alice), 0n))).toBe(supply);
    expect(await h.storageAt(token, 2n)).toBe(supply); // totalSupply
    expect(decode('Token', 'name', (await h.invoke('Token', token, 'name')).returnData)).toBe('Devgate Token');
    expect(decode('Token', 'symbol', (await h.invoke('Token', token, 'symbol')).returnData)).toBe('DVG');
    expect(decode('Token', 'decimals', (await h.invoke('Token', token, 'decimals')).returnData)).toBe(18);
  });

  it('transfers with a Transfer event and moves the balance slots', async () => {
    const r = await h.invoke('Token', token, 'transfer', [addressHex(bob), 5n]);
    expect(r.ok).toBe(true);
    expect(r.logs).toHaveLength(1);
    const [address, topics, data] = r.logs[0]!;
    expect(bytesToHex(address)).toBe(token.toString());
    const event = decodeEventLog({ abi: loadArtifact('Token').abi, topics: topics.map((t) => bytesToHex(t) as Hex) as [Hex], data: bytesToHex(data) as Hex });
    expect(event).toEqual({ eventName: 'Transfer', args: { from: addressHex(alice), to: addressHex(bob), value: 5n } });
    expect(await h.storageAt(token, mappingPosition(addressHex(bob), 0n))).toBe(5n);
    expect(await h.storageAt(token, mappingPosition(addressHex(alice), 0n))).toBe(supply - 5n);
  });

  it('reverts a transfer over the balance with InsufficientBalance(available, required)', async () => {
    const r = await h.invoke('Token', token, 'transfer', [addressHex(alice), 6n], { from: bob });
    expect(r.ok).toBe(false);
    expect(decodeErrorResult({ abi: loadArtifact('Token').abi, data: r.returnData })).toMatchObject({
      errorName: 'InsufficientBalance',
      args: [5n, 6n],
    });
    expect(await h.storageAt(token, mappingPosition(addressHex(bob), 0n))).toBe(5n);
  });

  it('keeps allowances at keccak256(pad32(spender) ++ keccak256(pad32(owner) ++ pad32(1)))', async () => {
    expect((await h.invoke('Token', token, 'approve', [addressHex(bob), 100n])).ok).toBe(true);
    expect(await h.storageAt(token, mappingPosition(addressHex(bob), mappingPosition(addressHex(alice), 1n)))).toBe(100n);
    expect((await h.invoke('Token', token, 'transferFrom', [addressHex(alice), addressHex(bob), 40n], { from: bob })).ok).toBe(true);
    expect(decode('Token', 'allowance', (await h.invoke('Token', token, 'allowance', [addressHex(alice), addressHex(bob)])).returnData)).toBe(60n);
    const over = await h.invoke('Token', token, 'transferFrom', [addressHex(alice), addressHex(bob), 61n], { from: bob });
    expect(decodeErrorResult({ abi: loadArtifact('Token').abi, data: over.returnData })).toMatchObject({
      errorName: 'InsufficientAllowance',
      args: [60n, 61n],
    });
  });

  it('lets only the deployer mint', async () => {
    const denied = await h.invoke('Token', token, 'mint', [addressHex(bob), 1n], { from: bob });
    expect(decodeErrorResult({ abi: loadArtifact('Token').abi, data: denied.returnData })).toMatchObject({ errorName: 'NotMinter', args: [addressHex(bob)] });
    expect((await h.invoke('Token', token, 'mint', [addressHex(bob), 1000n])).ok).toBe(true);
    expect(await h.storageAt(token, mappingPosition(addressHex(bob), 0n))).toBe(1045n);
    expect(await h.storageAt(token, 2n)).toBe(supply + 1000n);
  });
});

describe('StorageLayout', () => {
  let h: Harness;
  let c: Address;
  const itemsBase = BigInt(keccak256(word(5)));
  beforeAll(async () => {
    h = await Harness.create();
    c = await h.deploy('StorageLayout', alice);
  });

  it('holds the constructor values at the documented positions', async () => {
    expect(await h.storageAt(c, 0n)).toBe(42n);
    expect(await h.storageAt(c, 1n)).toBe(BigInt(addressHex(alice)));
    expect(await h.storageAt(c, 2n)).toBe((2n << 128n) | 1n);
    expect(await h.storageAt(c, mappingPosition(addressHex(alice), 3n))).toBe(1000n);
    expect(await h.storageAt(c, mappingPosition(word(2), mappingPosition(word(1), 4n)))).toBe(3n);
    expect(await h.storageAt(c, 5n)).toBe(3n);
    expect([await h.storageAt(c, itemsBase), await h.storageAt(c, itemsBase + 1n), await h.storageAt(c, itemsBase + 2n)]).toEqual([10n, 20n, 30n]);
  });

  it('moves the same positions through the setters', async () => {
    await h.invoke('StorageLayout', c, 'setA', [7n]);
    await h.invoke('StorageLayout', c, 'setOwner', [addressHex(bob)]);
    await h.invoke('StorageLayout', c, 'setXY', [3n, 4n]);
    await h.invoke('StorageLayout', c, 'setBalance', [addressHex(bob), 9n]);
    await h.invoke('StorageLayout', c, 'setGrid', [5n, 6n, 11n]);
    await h.invoke('StorageLayout', c, 'pushItem', [40n]);
    await h.invoke('StorageLayout', c, 'setItem', [0n, 12n]);
    expect(await h.storageAt(c, 0n)).toBe(7n);
    expect(await h.storageAt(c, 1n)).toBe(BigInt(addressHex(bob)));
    expect(await h.storageAt(c, 2n)).toBe((4n << 128n) | 3n);
    expect(await h.storageAt(c, mappingPosition(addressHex(bob), 3n))).toBe(9n);
    expect(await h.storageAt(c, mappingPosition(word(6), mappingPosition(word(5), 4n)))).toBe(11n);
    expect(await h.storageAt(c, 5n)).toBe(4n);
    expect(await h.storageAt(c, itemsBase)).toBe(12n);
    expect(await h.storageAt(c, itemsBase + 3n)).toBe(40n);
    expect(decode('StorageLayout', 'grid', (await h.invoke('StorageLayout', c, 'grid', [5n, 6n])).returnData)).toBe(11n);
  });
});

describe('Reverter', () => {
  let h: Harness;
  let c: Address;
  const abi = () => loadArtifact('Reverter').abi;
  const panic = (code: number) => concat(['0x4e487b71', word(code)]);
  beforeAll(async () => {
    h = await Harness.create(Hardfork.Paris, 31337);
    c = await h.deploy('Reverter', alice);
  });

  it('reverts with Error(string)', async () => {
    const r = await h.invoke('Reverter', c, 'revertWithReason');
    expect(r.ok).toBe(false);
    expect(r.returnData.slice(0, 10)).toBe('0x08c379a0');
    expect(decodeErrorResult({ abi: abi(), data: r.returnData })).toMatchObject({ errorName: 'Error', args: ['Reverter: always reverts'] });
    const m = await h.invoke('Reverter', c, 'revertWithMessage', ['custom text']);
    expect(decodeErrorResult({ abi: abi(), data: m.returnData })).toMatchObject({ errorName: 'Error', args: ['custom text'] });
  });

  it('reverts with a custom error with arguments, and with no data', async () => {
    const r = await h.invoke('Reverter', c, 'revertWithCustomError', [77n], { from: bob });
    expect(decodeErrorResult({ abi: abi(), data: r.returnData })).toMatchObject({ errorName: 'Unauthorized', args: [addressHex(bob), 77n] });
    const empty = await h.invoke('Reverter', c, 'revertWithoutData');
    expect(empty).toMatchObject({ ok: false, returnData: '0x', error: 'revert' });
  });

  it('panics with codes 0x01, 0x12, 0x32 and 0x11', async () => {
    expect((await h.invoke('Reverter', c, 'panicAssert')).returnData).toBe(panic(0x01));
    expect((await h.invoke('Reverter', c, 'panicDivisionByZero', [0n])).returnData).toBe(panic(0x12));
    expect((await h.invoke('Reverter', c, 'panicOutOfBounds', [3n])).returnData).toBe(panic(0x32));
    expect((await h.invoke('Reverter', c, 'panicOverflow', [1n])).returnData).toBe(panic(0x11));
    expect(decode('Reverter', 'panicDivisionByZero', (await h.invoke('Reverter', c, 'panicDivisionByZero', [1n])).returnData)).toBe(1n);
  });

  it('succeeds, and increments its counter with an event', async () => {
    expect(decode('Reverter', 'succeed', (await h.invoke('Reverter', c, 'succeed')).returnData)).toBe(42n);
    const r = await h.invoke('Reverter', c, 'increment');
    expect(r.ok).toBe(true);
    expect(r.logs).toHaveLength(1);
    expect(await h.storageAt(c, 0n)).toBe(1n);
  });

  it('burns gas in proportion to its rounds, and all of it in burnAllGas', async () => {
    const small = await h.invoke('Reverter', c, 'burnGas', [10n]);
    const large = await h.invoke('Reverter', c, 'burnGas', [300n]);
    expect(large.ok).toBe(true);
    expect(large.gasUsed).toBeGreaterThan(small.gasUsed + 290n * 50n);
    const limited = await h.invoke('Reverter', c, 'burnGas', [300n], { gasLimit: 20_000n });
    expect(limited).toMatchObject({ ok: false, error: 'out of gas', gasUsed: 20_000n });
    const all = await h.invoke('Reverter', c, 'burnAllGas', [], { gasLimit: 300_000n });
    expect(all).toMatchObject({ ok: false, error: 'out of gas', gasUsed: 300_000n });
  });

  it('returns its block and message context', async () => {
    const r = await h.invoke('Reverter', c, 'context', [], { from: bob, gasPrice: 9n });
    const [number, timestamp, parentHash, baseFee, chainId, sender, origin, coinbase, gasLimit, gasPrice] = decode(
      'Reverter',
      'context',
      r.returnData,
    ) as unknown[];
    expect({ number, timestamp, parentHash, baseFee, chainId, sender, origin, coinbase, gasLimit, gasPrice }).toEqual({
      number: block.header.number,
      timestamp: block.header.timestamp,
      parentHash: bytesToHex(fakeBlockHash(Number(block.header.number) - 1)),
      baseFee: block.header.baseFeePerGas,
      chainId: 31337n,
      sender: addressHex(bob),
      origin: addressHex(bob),
      coinbase: getAddress(block.header.coinbase.toString()),
      gasLimit: block.header.gasLimit,
      gasPrice: 9n,
    });

    const atGenesis = decode('Reverter', 'context', (await h.invoke('Reverter', c, 'context', [], { number: 0n })).returnData) as unknown[];
    expect(atGenesis.slice(0, 3)).toEqual([0n, block.header.timestamp, word(0)]);
  });
});

describe('Emitter', () => {
  let h: Harness;
  let c: Address;
  beforeAll(async () => {
    h = await Harness.create();
    c = await h.deploy('Emitter', alice);
  });

  it('emits events with 0 to 4 topics', async () => {
    const counts = [
      await h.invoke('Emitter', c, 'emitRaw', ['0xabcd']),
      await h.invoke('Emitter', c, 'emitNoIndexed', [1n]),
      await h.invoke('Emitter', c, 'emitOneIndexed', [1n, 2n]),
      await h.invoke('Emitter', c, 'emitTwoIndexed', [1n, 2n]),
      await h.invoke('Emitter', c, 'emitThreeIndexed', [addressHex(bob), 1n, '0x01']),
      await h.invoke('Emitter', c, 'emitFourIndexed', [1n, 2n, 3n, 4n]),
    ].map((r) => r.logs.map(topicCount));
    expect(counts).toEqual([[0], [1], [2], [3], [4], [4]]);
  });

  it('emitMany(n) emits n events cycling through the kinds, with the documented topics', async () => {
    const r = await h.invoke('Emitter', c, 'emitMany', [12n]);
    expect(r.logs.map(topicCount)).toEqual([0, 1, 2, 3, 4, 4, 0, 1, 2, 3, 4, 4]);
    const [, topics] = r.logs[8]!; // OneIndexed(8, 8)
    expect(topics.map((t) => bytesToHex(t))).toEqual([keccak256(toHex('OneIndexed(uint256,uint256)')), word(8)]);
    const [, fourTopics] = r.logs[11]!; // FourIndexed(11, 12, 13, 14), anonymous
    expect(fourTopics.map((t) => bytesToHex(t))).toEqual([word(11), word(12), word(13), word(14)]);
    expect(decode('Emitter', 'emitted', (await h.invoke('Emitter', c, 'emitted')).returnData)).toBe(18n);
  });
});

describe('SimpleStore', () => {
  /** Opcodes introduced after homestead (Byzantium to Cancun), REVERT aside. */
  const afterHomestead = [0x3d, 0x3e, 0xfa, 0x1b, 0x1c, 0x1d, 0xf5, 0x3f, 0x46, 0x47, 0x48, 0x5f, 0x5c, 0x5d, 0x5e, 0x49, 0x4a];
  const afterParis = [0x5f, 0x5c, 0x5d, 0x5e, 0x49, 0x4a];

  it('artifacts use no opcode newer than their EVM version (REVERT only on the failure paths)', () => {
    for (const name of ['Token', 'Reverter', 'StorageLayout', 'Emitter', 'SimpleStore']) {
      const a = loadArtifact(name);
      expect(
        opcodes(a.deployedBytecode).filter((op) => afterParis.includes(op)),
        name,
      ).toEqual([]);
    }
    const homestead = loadArtifact('SimpleStoreHomestead');
    expect(opcodes(homestead.deployedBytecode).filter((op) => afterHomestead.includes(op))).toEqual([]);
    expect(
      opcodes(homestead.bytecode.slice(0, 2 + 2 * (hexToBytes(homestead.bytecode).length - hexToBytes(homestead.deployedBytecode).length)) as Hex),
    ).not.toContain(0x5f);
  });

  it('SimpleStoreHomestead stores, reads and emits on a homestead EVM', async () => {
    const h = await Harness.create(Hardfork.Homestead);
    const c = await h.deploy('SimpleStoreHomestead', alice);
    const set = await h.invoke('SimpleStoreHomestead', c, 'set', [7n]);
    expect(set.ok).toBe(true);
    const [, topics, data] = set.logs[0]!;
    expect(bytesToHex(topics[0]!)).toBe(keccak256(toHex('ValueChanged(address,uint256,uint256)')));
    expect(bytesToHex(data)).toBe(concat([word(0), word(7)]));
    expect(decode('SimpleStoreHomestead', 'get', (await h.invoke('SimpleStoreHomestead', c, 'get')).returnData)).toBe(7n);
    expect(await h.storageAt(c, 0n)).toBe(7n);
    // A failure path reaches 0xfd, an invalid opcode before Byzantium: the call fails and uses all its gas.
    const unknownSelector = await h.call(c, '0xdeadbeef', { gasLimit: 100_000n });
    expect(unknownSelector).toMatchObject({ ok: false, error: 'invalid opcode', gasUsed: 100_000n });
    const paris = await Harness.create();
    const onParis = await paris.call(await paris.deploy('SimpleStoreHomestead', alice), '0xdeadbeef', { gasLimit: 100_000n });
    expect(onParis).toMatchObject({ ok: false, returnData: '0x', error: 'revert' });
    expect(onParis.gasUsed).toBeLessThan(1_000n);
  });

  it('the paris SimpleStore does the same on paris', async () => {
    const h = await Harness.create();
    const c = await h.deploy('SimpleStore', alice);
    expect((await h.invoke('SimpleStore', c, 'set', [5n])).ok).toBe(true);
    expect(decode('SimpleStore', 'get', (await h.invoke('SimpleStore', c, 'get')).returnData)).toBe(5n);
    expect(encodeFunctionData({ abi: loadArtifact('SimpleStore').abi, functionName: 'get' } as never)).toBe('0x6d4ce63c');
  });
});
