/**
 * The read-side engine computations in-process (no HTTP): revert decoding as geth words it, eth_call
 * leaving no trace in the state, estimateGas within geth's 1.5% of the true minimum, proofs at
 * historical blocks verified independently, and the eth_ decoders' edge cases.
 */
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { encodeAbiParameters, encodeErrorResult, encodeFunctionData, keccak256, parseAbi, toBytes } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgument } from '../../../src/errors.js';
import { callAt, decodeRevertReason, runCall, runCallTx } from '../../../src/eth/engine/exec/call.js';
import type { EthChain } from '../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../src/eth/engine/build/chainFromSeed.js';
import { estimateGasAt } from '../../../src/eth/engine/exec/estimate.js';
import { proveAt } from '../../../src/eth/engine/query/proof.js';
import { callObject, logFilterParam, receiptsBlockParam, storageSlot } from '../../../src/eth/params.js';
import { parseSeed } from '../../../src/seed/load.js';
import { ACCOUNT0, ACCOUNT1, ACCOUNT2, REVERTER, STORAGE_LAYOUT, TOKEN, readSurfaceSeed } from './seed.js';

const bytes = (hex: `0x${string}`) => hexToBytes(hex);
const reverter = parseAbi([
  'function burnGas(uint256 rounds) returns (bytes32)',
  'function increment() returns (uint256)',
  'function counter() view returns (uint256)',
]);

let chain: EthChain;
beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(readSurfaceSeed(), 'read-surface seed'));
});

describe('decodeRevertReason', () => {
  const error = (msg: string) => bytes(('0x08c379a0' + encodeAbiParameters([{ type: 'string' }], [msg]).slice(2)) as `0x${string}`);
  const panic = (code: bigint) => bytes(('0x4e487b71' + encodeAbiParameters([{ type: 'uint256' }], [code]).slice(2)) as `0x${string}`);

  it('decodes Error(string) and Panic(uint256) as geth words them', () => {
    expect(decodeRevertReason(error('boom'))).toBe('boom');
    expect(decodeRevertReason(error(''))).toBe('');
    expect(decodeRevertReason(panic(0x01n))).toBe('assert(false)');
    expect(decodeRevertReason(panic(0x11n))).toBe('arithmetic underflow or overflow');
    expect(decodeRevertReason(panic(0x12n))).toBe('division or modulo by zero');
    expect(decodeRevertReason(panic(0x32n))).toBe('out-of-bounds access of an array or bytesN');
    expect(decodeRevertReason(panic(0x99n))).toBe('unknown panic code: 0x99');
  });

  it('decodes custom errors the shipped contract ABIs declare', () => {
    const unauthorized = encodeErrorResult({
      abi: parseAbi(['error Unauthorized(address caller, uint256 code)']),
      errorName: 'Unauthorized',
      args: ['0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', 7n],
    });
    expect(decodeRevertReason(bytes(unauthorized))).toBe('Unauthorized(0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc, 7)');
    const balance = encodeErrorResult({
      abi: parseAbi(['error InsufficientBalance(uint256 have, uint256 want)']),
      errorName: 'InsufficientBalance',
      args: [1n, 2n],
    });
    expect(decodeRevertReason(bytes(balance))).toBe('InsufficientBalance(1, 2)');
  });

  it('gives nothing for unknown custom errors, empty and malformed payloads', () => {
    expect(decodeRevertReason(new Uint8Array())).toBeUndefined();
    expect(decodeRevertReason(bytes('0x12345678'))).toBeUndefined();
    expect(decodeRevertReason(bytes('0xda472023'))).toBeUndefined();
    expect(decodeRevertReason(bytes('0x08c379a0'))).toBeUndefined();
    expect(decodeRevertReason(bytes(('0x08c379a0' + 'ff'.repeat(64)) as `0x${string}`))).toBeUndefined();
  });
});

describe('eth_call engine', () => {
  it('leaves no trace: state root and results unchanged after state-changing calls', async () => {
    const head = chain.head();
    const before = await (await chain.stateAt(head)).getStateRoot();
    const to = createAddressFromString(REVERTER);
    const data = bytes(encodeFunctionData({ abi: reverter, functionName: 'increment' }));
    for (let i = 0; i < 3; i++) expect(BigInt('0x' + Buffer.from(await callAt(chain, head, { to, data })).toString('hex'))).toBe(2n);
    expect(await (await chain.stateAt(head)).getStateRoot()).toEqual(before);
    expect(chain.head()).toBe(head);
  });

  it('aborts a call that outruns the timeout (geth: execution aborted), and the next call runs normally', async () => {
    const head = chain.head();
    const to = createAddressFromString(REVERTER);
    const loop = { to, data: bytes(encodeFunctionData({ abi: parseAbi(['function burnAllGas()']), functionName: 'burnAllGas' })) };
    await expect(callAt(chain, head, loop, 300)).rejects.toThrow('execution aborted (timeout = 0.3s)');
    const counter = bytes(encodeFunctionData({ abi: reverter, functionName: 'counter' }));
    expect(BigInt('0x' + Buffer.from(await callAt(chain, head, { to, data: counter }, 300)).toString('hex'))).toBe(1n);
    // With a small gas limit the loop runs out of gas before the deadline.
    await expect(callAt(chain, head, { ...loop, gas: 100_000n })).rejects.toThrow('out of gas');
  });
});

describe('eth_call on reused VMs', () => {
  const token = parseAbi(['function balanceOf(address) view returns (uint256)']);
  const asBig = (out: Uint8Array) => BigInt('0x' + (Buffer.from(out).toString('hex') || '0'));
  const nodeCount = () => (chain['headState']['_trie'].database().db as unknown as { _database: Map<string, unknown> })._database.size;

  it('concurrent calls on one block answer as if each ran alone, and the node store does not grow', async () => {
    const head = chain.head();
    const rev = createAddressFromString(REVERTER);
    const increment = { to: rev, data: bytes(encodeFunctionData({ abi: reverter, functionName: 'increment' })) };
    const counter = { to: rev, data: bytes(encodeFunctionData({ abi: reverter, functionName: 'counter' })) };
    const cases = [
      [increment, 2n],
      [counter, 1n],
      [balance(ACCOUNT1), 990n],
      [balance(ACCOUNT2), 10n],
    ] as const;
    const nodes = nodeCount();
    const all = Array.from({ length: 40 }, (_, i) => cases[i % cases.length]!);
    const results = await Promise.all(all.map(([req]) => callAt(chain, head, req)));
    expect(results.map(asBig)).toEqual(all.map(([, want]) => want));
    expect(nodeCount()).toBe(nodes);
    expect(await (await chain.stateAt(head)).getStateRoot()).toEqual(head.block.header.stateRoot);
  });

  it('a reused VM forgets what an earlier call warmed: the least gas that works is the same on every call', async () => {
    const head = chain.head();
    const req = balance(ACCOUNT1);
    // The least gas for balanceOf on a fresh VM (cold slots), by bisection.
    let lo = 0n;
    let hi = 100_000n;
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n;
      const ok = await runCall(await chain.vmAt(head), head, { ...req, gas: mid }).then(
        () => true,
        () => false,
      );
      if (ok) hi = mid;
      else lo = mid;
    }
    for (let i = 0; i < 3; i++) {
      expect(asBig(await callAt(chain, head, { ...req, gas: hi }))).toBe(990n);
      await expect(callAt(chain, head, { ...req, gas: hi - 1n })).rejects.toThrow('out of gas');
    }
  });

  function balance(who: `0x${string}`) {
    return { to: createAddressFromString(TOKEN), data: bytes(encodeFunctionData({ abi: token, functionName: 'balanceOf', args: [who] })) };
  }
});

describe('estimateGas engine', () => {
  it.each([0n, 10n, 200n])('burnGas(%s): the estimate succeeds and 1.5 percent less does not', async (rounds) => {
    const head = chain.head();
    const req = {
      from: createAddressFromString(ACCOUNT0),
      to: createAddressFromString(REVERTER),
      data: bytes(encodeFunctionData({ abi: reverter, functionName: 'burnGas', args: [rounds] })),
    };
    const estimate = await estimateGasAt(chain, head, req);
    const vm = await chain.vmAt(head);
    expect((await runCallTx(vm, head, req, estimate)).failed).toBe(false);
    expect((await runCallTx(vm, head, req, (estimate * 985n) / 1000n - 1n).catch(() => ({ failed: true }))).failed).toBe(true);
  });
});

describe('proofs at historical blocks', () => {
  it('verify against each block stateRoot, values as of that block', async () => {
    const address = createAddressFromString(STORAGE_LAYOUT);
    const mappingSlot = bytes(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', 3n])));
    for (const [n, expected] of [
      [1n, 0n],
      [2n, 777n],
    ] as const) {
      const block = chain.blockByNumber(n)!;
      const proof = await proveAt(chain, block, address, [{ slot: mappingSlot, length: 32 }]);
      const root = block.block.header.stateRoot;
      expect(await verifyMerkleProof(address.bytes, proof.accountProof, { useKeyHashing: true, root })).not.toBeNull();
      const leaf = await verifyMerkleProof(mappingSlot, proof.storageProof[0]!.proof, { useKeyHashing: true, root: proof.storageHash });
      expect(proof.storageProof[0]!.value).toBe(expected);
      expect(leaf === null).toBe(expected === 0n);
    }
  });
});

describe('eth_ decoders', () => {
  const fails = (f: () => unknown, message: RegExp) => expect(f).toThrow(expect.objectContaining({ message: expect.stringMatching(message) }));

  it('storage slots: quantities, short and 32-byte hex; too long and non-hex fail', () => {
    expect(storageSlot('0x1')).toEqual({ slot: toBytes(1n, { size: 32 }), length: 1 });
    expect(storageSlot('0x0100').length).toBe(2);
    expect(storageSlot('0x' + 'ab'.repeat(32)).length).toBe(32);
    fails(() => storageSlot('0x' + 'ab'.repeat(33)), /too long/);
    fails(() => storageSlot('0x'), /empty/);
    fails(() => storageSlot(5), /expected a storage slot/);
    expect(() => storageSlot('0xgg')).toThrow(InvalidArgument);
  });

  it('call objects: input or data, fee field conflicts', () => {
    expect(callObject({ input: '0x01', data: '0x01' }).data).toEqual(new Uint8Array([1]));
    fails(() => callObject({ input: '0x01', data: '0x02' }), /both "data" and "input" are set/);
    fails(() => callObject({ gasPrice: '0x1', maxFeePerGas: '0x2' }), /both gasPrice and/);
    fails(() => callObject({ maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }), /maxFeePerGas \(1\) < maxPriorityFeePerGas \(2\)/);
    fails(() => callObject({ value: '0x01' }), /"value": hex number with leading zero/);
    fails(() => callObject('0x'), /expected a call object/);
    expect(callObject({ from: null, to: ACCOUNT0 }).from).toBeUndefined();
  });

  it('log filters and the block parameter of eth_getBlockReceipts', () => {
    const q = logFilterParam({ address: [ACCOUNT0], topics: [null, ['0x' + '11'.repeat(32), null], '0x' + '22'.repeat(32)] });
    expect(q.filter.addresses).toHaveLength(1);
    expect(q.filter.topics).toEqual([undefined, undefined, [bytes(('0x' + '22'.repeat(32)) as `0x${string}`)]]);
    fails(() => logFilterParam({ topics: [null, null, null, null, null] }), /exceed max topics/);
    expect(receiptsBlockParam(7)).toEqual({ number: 7n });
    expect(receiptsBlockParam('12')).toEqual({ number: 12n });
    expect(receiptsBlockParam('0xc')).toEqual({ number: 12n });
    expect(receiptsBlockParam('pending')).toEqual({ tag: 'pending' });
    fails(() => receiptsBlockParam(-1), /non-negative/);
    fails(() => receiptsBlockParam(1.5), /non-negative/);
    fails(() => receiptsBlockParam('18446744073709551616'), /> 64 bits/);
  });
});
