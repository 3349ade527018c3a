/**
 * The wire shapes of the eth_ family, field by field, as SPEC 2.1-2.4 documents them and geth answers:
 * exact key sets per object and transaction type, hex forms, pending nulls, the gas cap, EIP-1898
 * block objects, storage-key echo, and -32602/-32601 for wrong input. Raw JSON-RPC over HTTP.
 */
import { createBlockFromRPC } from '@ethereumjs/block';
import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call, result, WsClient } from '../../../support/http.js';
import { ACCOUNT0, ACCOUNT1, GAS_LEFT_ADDRESS, GAS_LIMIT, REVERTER, STORAGE_LAYOUT, readSurfaceSeed, UNLIMITED } from '../seed.js';

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
const DATA = /^0x([0-9a-f]{2})*$/;
const HASH = /^0x[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;

const BLOCK_KEYS = [
  'baseFeePerGas',
  'blobGasUsed',
  'difficulty',
  'excessBlobGas',
  'extraData',
  'gasLimit',
  'gasUsed',
  'hash',
  'logsBloom',
  'miner',
  'mixHash',
  'nonce',
  'number',
  'parentBeaconBlockRoot',
  'parentHash',
  'receiptsRoot',
  'requestsHash',
  'sha3Uncles',
  'size',
  'stateRoot',
  'timestamp',
  'totalDifficulty',
  'transactions',
  'transactionsRoot',
  'uncles',
  'withdrawals',
  'withdrawalsRoot',
];
const TX_BASE = [
  'blockHash',
  'blockNumber',
  'blockTimestamp',
  'from',
  'gas',
  'gasPrice',
  'hash',
  'input',
  'nonce',
  'to',
  'transactionIndex',
  'value',
  'type',
  'v',
  'r',
  's',
];
const TX_KEYS: Record<string, string[]> = {
  '0x0': [...TX_BASE, 'chainId'],
  '0x1': [...TX_BASE, 'accessList', 'chainId', 'yParity'],
  '0x2': [...TX_BASE, 'accessList', 'chainId', 'yParity', 'maxFeePerGas', 'maxPriorityFeePerGas'],
};
const RECEIPT_KEYS = [
  'blockHash',
  'blockNumber',
  'contractAddress',
  'cumulativeGasUsed',
  'effectiveGasPrice',
  'from',
  'gasUsed',
  'logs',
  'logsBloom',
  'status',
  'to',
  'transactionHash',
  'transactionIndex',
  'type',
];
const LOG_KEYS = ['address', 'topics', 'data', 'blockNumber', 'transactionHash', 'transactionIndex', 'blockHash', 'blockTimestamp', 'logIndex', 'removed'];

const sorted = (keys: string[]) => [...keys].sort();
const pad32 = (hex: string) => '0x' + hex.slice(2).padStart(64, '0');

let gw: Gateway;
let url: string;
const rpc = (method: string, params: unknown[] = []) => result(url, method, params);
const rpcError = async (method: string, params: unknown) => (await call(url, method, params)).error;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [readSurfaceSeed()], keys: UNLIMITED });
  url = gw.url('dev');
});
afterAll(() => gw?.stop());

describe('block object (SPEC 2.1)', () => {
  it('has every field of an osaka block, in geth forms, with hash and size as geth computes them', async () => {
    const block = await rpc('eth_getBlockByNumber', ['0x2', true]);
    expect(Object.keys(block)).toEqual(sorted(BLOCK_KEYS));
    for (const k of ['baseFeePerGas', 'blobGasUsed', 'difficulty', 'excessBlobGas', 'gasLimit', 'gasUsed', 'number', 'size', 'timestamp', 'totalDifficulty']) {
      expect(block[k], k).toMatch(QUANTITY);
    }
    for (const k of [
      'hash',
      'mixHash',
      'parentBeaconBlockRoot',
      'parentHash',
      'receiptsRoot',
      'requestsHash',
      'sha3Uncles',
      'stateRoot',
      'transactionsRoot',
      'withdrawalsRoot',
    ]) {
      expect(block[k], k).toMatch(HASH);
    }
    expect(block.nonce).toBe('0x0000000000000000');
    expect(block.logsBloom).toMatch(/^0x[0-9a-f]{512}$/);
    expect(block.miner).toMatch(ADDRESS);
    expect(block.uncles).toEqual([]);
    expect(block.withdrawals).toEqual([]);
    expect(block.gasLimit).toBe('0x' + GAS_LIMIT.toString(16));
    // An independent rebuild from the wire object: same hash (every header field is right) and same RLP size.
    const common = createCustomCommon({ chainId: 1337 }, Mainnet, { hardfork: 'osaka' });
    const rebuilt = createBlockFromRPC(block, [], { common });
    expect('0x' + Buffer.from(rebuilt.hash()).toString('hex')).toBe(block.hash);
    expect(await rebuilt.transactionsTrieIsValid()).toBe(true);
    expect('0x' + rebuilt.serialize().length.toString(16)).toBe(block.size);
  });

  it('lists hashes without the flag, and is the same by hash and by number', async () => {
    const full = await rpc('eth_getBlockByNumber', ['0x2', true]);
    const hashes = await rpc('eth_getBlockByHash', [full.hash, false]);
    expect(hashes.transactions).toEqual(full.transactions.map((t: { hash: string }) => t.hash));
    expect({ ...hashes, transactions: null }).toEqual({ ...full, transactions: null });
  });

  it('the pending block has null hash, logsBloom, nonce and number, and pending transactions', async () => {
    const latest = await rpc('eth_getBlockByNumber', ['latest', false]);
    const pending = await rpc('eth_getBlockByNumber', ['pending', true]);
    expect(Object.keys(pending)).toEqual(sorted(BLOCK_KEYS));
    expect([pending.hash, pending.logsBloom, pending.nonce, pending.number]).toEqual([null, null, null, null]);
    expect(pending.parentHash).toBe(latest.hash);
    expect(BigInt(pending.timestamp)).toBeGreaterThan(BigInt(latest.timestamp));
    expect(pending.transactions).toHaveLength(2);
    for (const tx of pending.transactions) expect([tx.blockHash, tx.blockNumber, tx.transactionIndex]).toEqual([null, null, null]);
    expect(await rpc('eth_getBlockTransactionCountByNumber', ['pending'])).toBe('0x2');
  });

  it('unknown blocks are null; tags resolve', async () => {
    expect(await rpc('eth_getBlockByNumber', ['0x99', false])).toBeNull();
    expect(await rpc('eth_getBlockByHash', ['0x' + '11'.repeat(32), false])).toBeNull();
    expect((await rpc('eth_getBlockByNumber', ['earliest', false])).number).toBe('0x0');
    expect((await rpc('eth_getBlockByNumber', ['latest', false])).number).toBe('0x4');
    expect((await rpc('eth_getBlockByNumber', ['safe', false])).number).toBe('0x0');
    expect((await rpc('eth_getBlockByNumber', ['finalized', false])).number).toBe('0x0');
    expect(await rpc('eth_getBlockTransactionCountByNumber', ['0x2'])).toBe('0x5');
    expect(await rpc('eth_getBlockTransactionCountByHash', ['0x' + '11'.repeat(32)])).toBeNull();
    expect(await rpc('eth_getUncleCountByBlockNumber', ['0x2'])).toBe('0x0');
    expect(await rpc('eth_getUncleCountByBlockHash', [(await rpc('eth_getBlockByNumber', ['0x1', false])).hash])).toBe('0x0');
    expect(await rpc('eth_getUncleCountByBlockNumber', ['0x99'])).toBeNull();
  });
});

describe('transaction object (SPEC 2.2)', () => {
  it('has exactly the fields of its type, and the effective gas price of a mined 0x2 tx', async () => {
    const block = await rpc('eth_getBlockByNumber', ['0x2', true]);
    const byType = new Map<string, any>(block.transactions.map((t: any) => [t.type, t]));
    expect([...byType.keys()].sort()).toEqual(['0x0', '0x1', '0x2']);
    for (const [type, tx] of byType) {
      expect(sorted(Object.keys(tx)), type).toEqual(sorted(TX_KEYS[type]!));
      expect(tx.blockHash).toBe(block.hash);
      expect(tx.blockNumber).toBe('0x2');
      expect(tx.chainId).toBe('0x539');
      for (const k of ['gas', 'gasPrice', 'nonce', 'transactionIndex', 'value', 'v', 'r', 's']) expect(tx[k], `${type} ${k}`).toMatch(QUANTITY);
      expect(tx.input).toMatch(DATA);
      expect(tx.from).toBe(ACCOUNT0);
    }
    const legacy = byType.get('0x0');
    expect([0x0a95n, 0x0a96n]).toContain(BigInt(legacy.v)); // EIP-155: chainId * 2 + 35/36
    const dyn = byType.get('0x2');
    expect(BigInt(dyn.gasPrice)).toBe(BigInt(block.baseFeePerGas) + BigInt(dyn.maxPriorityFeePerGas));
    expect(['0x0', '0x1']).toContain(dyn.yParity);
    expect(dyn.v).toBe(dyn.yParity);
    const byHash = await rpc('eth_getTransactionByHash', [dyn.hash]);
    expect(byHash).toEqual(dyn);
    expect(await rpc('eth_getTransactionByBlockHashAndIndex', [block.hash, dyn.transactionIndex])).toEqual(dyn);
    expect(await rpc('eth_getTransactionByBlockNumberAndIndex', ['0x2', dyn.transactionIndex])).toEqual(dyn);
    expect(await rpc('eth_getTransactionByBlockNumberAndIndex', ['0x2', '0x9'])).toBeNull();
    expect(await rpc('eth_getTransactionByHash', ['0x' + '22'.repeat(32)])).toBeNull();
  });

  it('a pending transaction has null blockHash, blockNumber, blockTimestamp and transactionIndex, and gasPrice = maxFeePerGas', async () => {
    const pending = await rpc('eth_getBlockByNumber', ['pending', false]);
    const tx = await rpc('eth_getTransactionByHash', [pending.transactions[0]]);
    // geth sends blockTimestamp null on a pending transaction (execution-apis txpool_content/get-content.io).
    expect(sorted(Object.keys(tx))).toEqual(sorted(TX_KEYS['0x2']!));
    expect([tx.blockHash, tx.blockNumber, tx.blockTimestamp, tx.transactionIndex]).toEqual([null, null, null, null]);
    expect(tx.gasPrice).toBe(tx.maxFeePerGas);
    expect(await rpc('eth_getTransactionByBlockNumberAndIndex', ['pending', '0x0'])).toEqual(tx);
    expect(await rpc('eth_getTransactionReceipt', [tx.hash])).toBeNull();
  });
});

describe('receipt object (SPEC 2.3)', () => {
  it('has status (never root), logs with block-wide logIndex, and the contract address of a creation', async () => {
    const receipts = await rpc('eth_getBlockReceipts', ['0x3']);
    expect(receipts).toHaveLength(3);
    let logIndex = 0;
    let cumulative = 0n;
    for (const r of receipts) {
      expect(Object.keys(r)).toEqual(sorted(RECEIPT_KEYS));
      expect(r.status).toBe('0x1');
      cumulative += BigInt(r.gasUsed);
      expect(BigInt(r.cumulativeGasUsed)).toBe(cumulative);
      for (const log of r.logs) {
        expect(Object.keys(log)).toEqual(LOG_KEYS);
        expect(log.logIndex).toBe('0x' + (logIndex++).toString(16));
        expect(log.removed).toBe(false);
        expect(log.transactionHash).toBe(r.transactionHash);
        expect(log.blockHash).toBe(r.blockHash);
      }
      expect(await rpc('eth_getTransactionReceipt', [r.transactionHash])).toEqual(r);
    }
    const creations = await rpc('eth_getBlockReceipts', ['0x1']);
    expect(creations[2].contractAddress).toBe(STORAGE_LAYOUT);
    expect(creations[2].to).toBeNull();
    expect(receipts[0].contractAddress).toBeNull();
  });

  it('eth_getBlockReceipts takes hex, decimal, tags (pending as latest) and a hash; null for no block', async () => {
    const hash = (await rpc('eth_getBlockByNumber', ['0x3', false])).hash;
    const byHex = await rpc('eth_getBlockReceipts', ['0x3']);
    expect(await rpc('eth_getBlockReceipts', [3])).toEqual(byHex);
    expect(await rpc('eth_getBlockReceipts', ['3'])).toEqual(byHex);
    expect(await rpc('eth_getBlockReceipts', [hash])).toEqual(byHex);
    expect(await rpc('eth_getBlockReceipts', [{ blockHash: hash }])).toEqual(byHex);
    expect(await rpc('eth_getBlockReceipts', ['pending'])).toEqual(await rpc('eth_getBlockReceipts', ['latest']));
    expect(await rpc('eth_getBlockReceipts', ['0x99'])).toBeNull();
    expect(await rpc('eth_getBlockReceipts', ['0x' + '33'.repeat(32)])).toBeNull();
  });
});

describe('eth_call', () => {
  const counter = { to: REVERTER, data: '0x61bc221a' };
  const increment = { from: ACCOUNT0, to: REVERTER, data: '0xd09de08a' };

  it('caps gas at 10x the block gas limit; a call without gas gets the cap', async () => {
    const cap = GAS_LIMIT * 10n;
    expect(BigInt(await rpc('eth_call', [{ to: GAS_LEFT_ADDRESS }, 'latest']))).toBe(cap - 2n);
    expect(BigInt(await rpc('eth_call', [{ to: GAS_LEFT_ADDRESS, gas: '0xffffffffffffffff' }, 'latest']))).toBe(cap - 2n);
    expect(BigInt(await rpc('eth_call', [{ to: GAS_LEFT_ADDRESS, gas: '0x5208' }, 'latest']))).toBe(21_000n - 2n);
  });

  it('never changes state, and runs at the given block (number, tag, EIP-1898 hash object)', async () => {
    const before = await rpc('eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(await rpc('eth_call', [increment, 'latest']))).toBe(2n);
    expect(BigInt(await rpc('eth_call', [increment, 'latest']))).toBe(2n);
    expect(BigInt(await rpc('eth_call', [counter, 'latest']))).toBe(1n);
    expect(BigInt(await rpc('eth_call', [counter, '0x2']))).toBe(0n);
    const b2 = await rpc('eth_getBlockByNumber', ['0x2', false]);
    expect(BigInt(await rpc('eth_call', [counter, { blockHash: b2.hash }]))).toBe(0n);
    expect(BigInt(await rpc('eth_call', [counter, { blockHash: before.hash, requireCanonical: true }]))).toBe(1n);
    expect(BigInt(await rpc('eth_call', [counter, { blockNumber: '0x3' }]))).toBe(1n);
    expect(await rpc('eth_getBlockByNumber', ['latest', false])).toEqual(before);
    expect((await call(url, 'eth_call', [counter, '0x99'])).error).toEqual({ code: -32000, message: 'header not found' });
    expect(await rpcError('eth_call', [{ from: '0x000000000000000000000000000000000000dEaD', to: ACCOUNT1, value: '0x1' }, 'latest'])).toEqual({
      code: -32000,
      message: 'insufficient funds for gas * price + value: address 0x000000000000000000000000000000000000dEaD have 0 want 1',
    });
  });

  it('answers a revert with code 3, the decoded reason and the payload', async () => {
    expect(await rpcError('eth_call', [{ to: REVERTER, data: toFunctionSelector('revertWithReason()') }, 'latest'])).toEqual({
      code: 3,
      message: 'execution reverted: Reverter: always reverts',
      data: '0x08c379a0' + pad32('0x20').slice(2) + pad32('0x18').slice(2) + Buffer.from('Reverter: always reverts').toString('hex').padEnd(64, '0'),
    });
    const custom = await rpcError('eth_call', [
      { from: ACCOUNT1, to: REVERTER, data: toFunctionSelector('revertWithCustomError(uint256)') + pad32('0x7').slice(2) },
      'latest',
    ]);
    expect(custom).toEqual({
      code: 3,
      message: `execution reverted: Unauthorized(${ACCOUNT1}, 7)`,
      data: toFunctionSelector('Unauthorized(address,uint256)') + pad32(ACCOUNT1).slice(2) + pad32('0x7').slice(2),
    });
    expect(await rpcError('eth_call', [{ to: REVERTER, data: toFunctionSelector('revertWithoutData()') }, 'latest'])).toEqual({
      code: 3,
      message: 'execution reverted',
      data: '0x',
    });
    expect(await rpcError('eth_call', [{ to: REVERTER, data: toFunctionSelector('panicAssert()') }, 'latest'])).toEqual({
      code: 3,
      message: 'execution reverted: assert(false)',
      data: '0x4e487b71' + pad32('0x1').slice(2),
    });
  });
});

describe('eth_getProof and eth_getStorageAt', () => {
  it('echo storage keys as geth does and give values as minimal quantities', async () => {
    const full = pad32('0x0');
    const proof = await rpc('eth_getProof', [STORAGE_LAYOUT, ['0x0', full, '0x00', '0x5'], 'latest']);
    expect(Object.keys(proof)).toEqual(['address', 'accountProof', 'balance', 'codeHash', 'nonce', 'storageHash', 'storageProof']);
    expect(proof.storageProof.map((s: { key: string }) => s.key)).toEqual(['0x0', full, '0x0', '0x5']);
    expect(proof.storageProof.map((s: { value: string }) => s.value)).toEqual(['0x2a', '0x2a', '0x2a', '0x3']);
    for (const s of proof.storageProof) expect(Object.keys(s)).toEqual(['key', 'value', 'proof']);
    const empty = await rpc('eth_getProof', [ACCOUNT1, [], 'latest']);
    expect(empty.storageProof).toEqual([]);
    expect(empty.storageHash).toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    expect(empty.codeHash).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('storage values are 32 bytes, at any block', async () => {
    expect(await rpc('eth_getStorageAt', [STORAGE_LAYOUT, '0x0', 'latest'])).toBe(pad32('0x2a'));
    expect(await rpc('eth_getStorageAt', [STORAGE_LAYOUT, pad32('0x0'), '0x1'])).toBe(pad32('0x2a'));
    expect(await rpc('eth_getStorageAt', [STORAGE_LAYOUT, '0x0', '0x0'])).toBe(pad32('0x0'));
    expect(await rpc('eth_getStorageAt', ['0x000000000000000000000000000000000000dead', '0x0', 'latest'])).toBe(pad32('0x0'));
  });
});

describe('the calls around them', () => {
  it('answer in geth forms', async () => {
    expect(await rpc('eth_chainId')).toBe('0x539');
    expect(await rpc('net_version')).toBe('1337');
    expect(await rpc('net_listening')).toBe(true);
    expect(await rpc('web3_clientVersion')).toMatch(/^anvil\/v1\.7\.1\/devgate\//);
    expect(await rpc('web3_sha3', ['0x68656c6c6f20776f726c64'])).toBe('0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad');
    expect(await rpc('eth_syncing')).toBe(false);
    expect(await rpc('eth_blockNumber')).toBe('0x4');
    expect((await rpc('eth_accounts'))[0]).toBe(ACCOUNT0);
    expect(await rpc('eth_getCode', [ACCOUNT1, 'latest'])).toBe('0x');
    expect(await rpc('eth_estimateGas', [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }])).toBe('0x5208');
    const fees = await rpc('eth_feeHistory', ['0x2', 'latest', [10, 90]]);
    expect(Object.keys(fees)).toEqual(['oldestBlock', 'reward', 'baseFeePerGas', 'gasUsedRatio', 'baseFeePerBlobGas', 'blobGasUsedRatio']);
    expect(fees.oldestBlock).toBe('0x3');
    expect(fees.gasUsedRatio).toHaveLength(2);
    expect(fees.gasUsedRatio[1]).toBe(0);
    expect(await rpc('eth_feeHistory', [2, 'latest'])).not.toHaveProperty('reward');
    expect(await rpc('eth_feeHistory', ['0x2', 'latest', []])).not.toHaveProperty('reward');
    expect(await rpc('eth_feeHistory', ['0x0', 'latest'])).toEqual({ oldestBlock: '0x0', gasUsedRatio: null });
    expect(BigInt(await rpc('eth_call', [{ to: GAS_LEFT_ADDRESS }, 'latest', {}]))).toBe(GAS_LIMIT * 10n - 2n);
    const poor = '0x000000000000000000000000000000000000dead';
    expect(await rpcError('eth_estimateGas', [{ from: poor, to: REVERTER, gasPrice: '0x3b9aca00' }])).toEqual({
      code: -32000,
      message: 'gas required exceeds allowance (0)',
    });
    expect(await rpcError('eth_estimateGas', [{ from: poor, to: ACCOUNT1, value: '0x10' }])).toEqual({
      code: -32000,
      message: 'insufficient funds for gas * price + value: address 0x000000000000000000000000000000000000dEaD have 0 want 16',
    });
    const code = await rpc('eth_getCode', [GAS_LEFT_ADDRESS, 'latest']);
    const initCode = '0x69' + code.slice(2).padEnd(20, '0') + '600052600a6016f3'; // PUSH10 runtime, MSTORE, RETURN(22, 10)
    expect(await rpc('eth_call', [{ from: ACCOUNT0, data: initCode }, 'latest'])).toBe(code.padEnd(22, '0'));
    const creation = await rpc('eth_createAccessList', [{ from: ACCOUNT0, data: initCode }, 'latest']);
    expect(creation.accessList).toEqual([]);
    const list = await rpc('eth_createAccessList', [{ from: ACCOUNT0, to: REVERTER, data: toFunctionSelector('revertWithReason()') }, 'latest']);
    expect(list).toEqual({ accessList: [], error: 'execution reverted', gasUsed: expect.stringMatching(QUANTITY) });
  });
});

describe('WebSocket (SPEC 4.1)', () => {
  it('answers eth_getBlockByHash, eth_getBlockByNumber and eth_getProof exactly as HTTP does', async () => {
    const ws = await WsClient.open(gw.wsUrl('dev'));
    try {
      const hash = (await rpc('eth_getBlockByNumber', ['0x2', false])).hash;
      for (const [method, params] of [
        ['eth_getBlockByHash', [hash, true]],
        ['eth_getBlockByNumber', ['0x3', true]],
        ['eth_getBlockByNumber', ['pending', false]],
        ['eth_getProof', [STORAGE_LAYOUT, ['0x0', '0x3'], '0x2']],
      ] as [string, unknown[]][]) {
        const viaWs = await ws.request({ jsonrpc: '2.0', id: 7, method, params });
        expect(viaWs).toEqual(await call(url, method, params, 7));
        expect(viaWs.result).toBeTruthy();
      }
    } finally {
      ws.close();
    }
  });
});

describe('wrong input', () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['short address', 'eth_getBalance', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb922', 'latest'], /^invalid argument 0: hex string has length 38, want 40/],
    ['missing address', 'eth_getBalance', [], /^missing value for required argument 0$/],
    ['missing flag', 'eth_getBlockByNumber', ['0x1'], /^missing value for required argument 1$/],
    ['number type', 'eth_getBlockByNumber', [1, false], /^invalid argument 0: expected a block number or tag/],
    ['unknown tag', 'eth_getBlockByNumber', ['newest', false], /^invalid argument 0: unknown block tag "newest"/],
    ['leading zeros', 'eth_getBlockByNumber', ['0x01', false], /^invalid argument 0: hex number with leading zero digits/],
    ['negative', 'eth_getBlockByNumber', ['-0x1', false], /^invalid argument 0/],
    ['oversized', 'eth_getBlockByNumber', ['0x10000000000000000', false], /^invalid argument 0: hex number > 64 bits/],
    ['flag type', 'eth_getBlockByHash', ['0x' + '11'.repeat(32), 'yes'], /^invalid argument 1: expected a boolean/],
    ['short hash', 'eth_getTransactionByHash', ['0x1234'], /^invalid argument 0: hex string has length 4, want 64/],
    ['odd data', 'eth_call', [{ to: REVERTER, data: '0x123' }, 'latest'], /^invalid argument 0: "data": hex string of odd length/],
    ['bad to', 'eth_call', [{ to: '0x12' }, 'latest'], /^invalid argument 0: "to": hex string has length 2, want 40/],
    ['call object', 'eth_call', [], /^missing value for required argument 0$/],
    // eth_getStorageAt reads its key as geth does, with geth's messages (quoting the key, not naming the argument).
    ['not hex', 'eth_getStorageAt', [STORAGE_LAYOUT, '0xzz', 'latest'], /^invalid hex in storage key: "0xzz"$/],
    ['long slot', 'eth_getStorageAt', [STORAGE_LAYOUT, '0x' + '1'.repeat(66), 'latest'], /^storage key too long \(want at most 32 bytes\): "0x1{66}"$/],
    ['keys type', 'eth_getProof', [STORAGE_LAYOUT, '0x0', 'latest'], /^invalid argument 1: expected an array of storage keys/],
    ['index', 'eth_getTransactionByBlockNumberAndIndex', ['latest', 0], /^invalid argument 1: expected a 0x-prefixed hex quantity/],
    ['range', 'eth_getLogs', [{ fromBlock: '0x2', toBlock: '0x1' }], /^invalid block range params$/],
    [
      'hash and range',
      'eth_getLogs',
      [{ blockHash: '0x' + '11'.repeat(32), fromBlock: '0x1' }],
      /^invalid argument 0: cannot specify both BlockHash and FromBlock\/ToBlock/,
    ],
    ['topic', 'eth_getLogs', [{ topics: ['0x12'] }], /^invalid argument 0: "topics\[0\]": hex string has length 2, want 64/],
    ['percentiles', 'eth_feeHistory', ['0x2', 'latest', [75, 25]], /invalid reward percentile: #0:75 > #1:25/],
    ['too many', 'eth_chainId', [1], /^too many arguments, want at most 0$/],
    ['params type', 'eth_getBalance', { address: ACCOUNT0 }, /^non-array args$/],
    [
      'overrides',
      'eth_call',
      [{ to: REVERTER }, 'latest', { [REVERTER]: { balance: '0x' } }],
      /^invalid argument 2: "0x[0-9a-f]{40}": "balance": hex string "0x" is not a quantity$/,
    ],
  ];
  it.each(cases)('%s -> -32602 naming the argument', async (_name, method, params, message) => {
    const err = await rpcError(method, params);
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(message);
  });

  it('an unknown method -> -32601', async () => {
    expect(await rpcError('eth_getFoo', [])).toEqual({ code: -32601, message: 'the method eth_getFoo does not exist/is not available' });
  });
});
