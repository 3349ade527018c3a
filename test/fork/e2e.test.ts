/**
 * `start({ fork })` end to end with viem: the bare address serves a fork of a second devgate (the small test seed)
 * at its head. Reads and calls at the fork block equal the upstream's; a send from a dev account is mined with
 * automine into a block whose root eth_getProof verifies against; the upstream sees none of it and its later blocks
 * do not leak in; snapshot and revert go back to the fork block.
 */
import { readFileSync } from 'node:fs';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { hexToBytes } from '@ethereumjs/util';
import { type Abi, createPublicClient, createWalletClient, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call, WsClient } from '../support/http.js';

/** The upstream's seed: a few blocks with a token, contracts with storage and logs (fast to build). */
const SMALL = 'test/fixtures/eth/small.json';
const tokenAbi = (JSON.parse(readFileSync('chains/contracts/Token.json', 'utf8')) as { abi: Abi }).abi;
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const dev0 = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const TO = '0x00000000000000000000000000000000000000e5';

let up: Gateway;
let gw: Gateway;
let upstream: PublicClient;
let fork: PublicClient;
let forkUrl: string;
let forkBlock: bigint;
let token: `0x${string}`;

beforeAll(async () => {
  up = await start({ port: 0, chains: [SMALL] });
  upstream = createPublicClient({ chain: foundry, transport: http(up.url('small')) });
  forkBlock = await upstream.getBlockNumber();
  const first = await upstream.getBlock({ blockNumber: 1n });
  token = (await upstream.getTransactionReceipt({ hash: first.transactions[0]! })).contractAddress!;
  gw = await start({
    port: 0,
    chains: [{ name: 'tiny', kind: 'eth', chainId: 5 }],
    fork: { url: up.url('small'), blockNumber: Number(forkBlock), retries: 0 },
  });
  forkUrl = gw.bareUrl();
  fork = createPublicClient({ chain: foundry, transport: http(forkUrl) });
});
afterAll(async () => {
  await gw?.stop();
  await up?.stop();
});

describe('start({ fork }) at the bare address', () => {
  it("serves the upstream's chain id, fork block and state", async () => {
    expect(await fork.getChainId()).toBe(31337);
    expect(await fork.getBlockNumber({ cacheTime: 0 })).toBe(forkBlock);
    expect((await fork.getBlock()).hash).toBe((await upstream.getBlock({ blockNumber: forkBlock })).hash);
    const holder = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
    const read = (client: PublicClient) => client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [DEV0] });
    expect(await read(fork)).toBe(await read(upstream));
    expect(await fork.getCode({ address: token })).toBe(await upstream.getCode({ address: token }));
    expect(await fork.getStorageAt({ address: token, slot: '0x0' })).toBe(await upstream.getStorageAt({ address: token, slot: '0x0' }));
    expect(await fork.getTransactionCount({ address: holder })).toBe(await upstream.getTransactionCount({ address: holder }));
  });

  it('mines a send on forked state into a block whose root its proofs verify against; the upstream sees nothing', async () => {
    const snapshot = await call(forkUrl, 'evm_snapshot', []);
    const wallet = createWalletClient({ chain: foundry, transport: http(forkUrl), account: dev0 });
    const hash = await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 5n] });
    const receipt = await fork.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.blockNumber).toBe(forkBlock + 1n);
    expect(await fork.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [TO] })).toBe(5n);
    expect(await upstream.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [TO] })).toBe(0n);

    const block = await fork.getBlock({ blockNumber: receipt.blockNumber });
    const proof = await fork.getProof({ address: token, storageKeys: ['0x0'], blockNumber: receipt.blockNumber });
    const leaf = await verifyMerkleProof(
      hexToBytes(token),
      proof.accountProof.map((h) => hexToBytes(h)),
      { useKeyHashing: true, root: hexToBytes(block.stateRoot) },
    );
    expect(leaf).not.toBeNull();

    // The upstream moves on; the fork does not follow.
    await call(up.url('small'), 'evm_mine', []);
    expect(await fork.getBlockNumber({ cacheTime: 0 })).toBe(forkBlock + 1n);

    expect((await call(forkUrl, 'evm_revert', [snapshot.result])).result).toBe(true);
    expect(await fork.getBlockNumber({ cacheTime: 0 })).toBe(forkBlock);
    expect(await fork.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [TO] })).toBe(0n);
  });

  it('answers history up to the fork block from the upstream, and nothing the upstream has after it', async () => {
    const upBlock = await upstream.getBlock({ blockNumber: 1n, includeTransactions: true });
    const forkedBlock = await fork.getBlock({ blockNumber: 1n, includeTransactions: true });
    expect(forkedBlock.hash).toBe(upBlock.hash);
    expect(forkedBlock.transactions.map((t) => t.hash)).toEqual(upBlock.transactions.map((t) => t.hash));
    expect((await fork.getBlock({ blockHash: upBlock.hash })).number).toBe(1n);
    const txHash = upBlock.transactions[0]!.hash;
    expect((await fork.getTransactionReceipt({ hash: txHash })).contractAddress).toBe(token);
    expect((await fork.getTransaction({ hash: txHash })).blockNumber).toBe(1n);
    // The fork block itself, with its transactions, is the upstream's.
    const atFork = await fork.getBlock({ blockNumber: forkBlock, includeTransactions: true });
    expect(atFork.transactions.length).toBe((await upstream.getBlock({ blockNumber: forkBlock })).transactions.length);
    // State at a block before the fork block.
    expect(await fork.getBalance({ address: DEV0, blockNumber: 1n })).toBe(await upstream.getBalance({ address: DEV0, blockNumber: 1n }));

    // Logs: the upstream's up to the fork block, then the fork's own.
    const upLogs = await upstream.getLogs({ fromBlock: 0n, toBlock: forkBlock });
    expect(upLogs.length).toBeGreaterThan(0);
    const wallet = createWalletClient({ chain: foundry, transport: http(forkUrl), account: dev0 });
    const sent = await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 1n] });
    const mined = await fork.waitForTransactionReceipt({ hash: sent });
    const all = await fork.getLogs({ fromBlock: 0n, toBlock: mined.blockNumber });
    expect(all.map((l) => l.transactionHash)).toEqual([...upLogs.map((l) => l.transactionHash), sent]);

    // A transaction the upstream mines after the fork block is not the fork's.
    const later = await call(up.url('small'), 'eth_sendTransaction', [{ from: DEV0, to: TO, value: '0x1' }]);
    expect(later.result).toMatch(/^0x/);
    expect((await call(forkUrl, 'eth_getTransactionByHash', [later.result])).result).toBeNull();
    expect((await call(forkUrl, 'eth_getTransactionReceipt', [later.result])).result).toBeNull();
    const upHead = await upstream.getBlock({ blockTag: 'latest' });
    expect((await call(forkUrl, 'eth_getBlockByHash', [upHead.hash, false])).result).toBeNull();
  });

  it("answers Otterscan's ots_ methods about blocks and transactions up to the fork block from the upstream", async () => {
    const upUrl = up.url('small');
    const upBlock = await upstream.getBlock({ blockNumber: 1n });
    const txHash = upBlock.transactions[0]!;
    for (const [method, params] of [
      ['ots_getBlockDetails', ['0x1']],
      ['ots_getBlockDetailsByHash', [upBlock.hash]],
      ['ots_getBlockTransactions', ['0x1', 0, 10]],
      ['ots_getTransactionError', [txHash]],
      ['ots_traceTransaction', [txHash]],
      ['ots_getInternalOperations', [txHash]],
      ['ots_hasCode', [token, '0x1']],
    ] as const) {
      const upAnswer = await call(upUrl, method, params);
      expect(upAnswer.error, method).toBeUndefined();
      expect((await call(forkUrl, method, params)).result, method).toEqual(upAnswer.result);
    }
    expect((await call(forkUrl, 'ots_hasCode', [token, '0x1'])).result).toBe(true);
  });

  it("serves filters, subscriptions and traces of its own blocks, and the upstream's traces before the fork block", async () => {
    const ws = await WsClient.open(forkUrl.replace(/^http/, 'ws'));
    try {
      const sub = await ws.request({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['logs', { address: token }] });
      const filter = (await call(forkUrl, 'eth_newFilter', [{ address: token }])).result;
      const wallet = createWalletClient({ chain: foundry, transport: http(forkUrl), account: dev0 });
      const hash = await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 2n] });
      await fork.waitForTransactionReceipt({ hash });
      const note = await ws.next();
      expect(note.params.subscription).toBe(sub.result);
      expect(note.params.result.transactionHash).toBe(hash);
      const changes = (await call(forkUrl, 'eth_getFilterChanges', [filter])).result as { transactionHash: string }[];
      expect(changes.map((l) => l.transactionHash)).toEqual([hash]);
      const trace = (await call(forkUrl, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).result;
      expect([trace.from, trace.to]).toEqual([DEV0, token.toLowerCase()]);
      // A transaction before the fork block: the upstream's trace (old code: "transaction not found").
      const old = (await upstream.getBlock({ blockNumber: 2n })).transactions[0]!;
      for (const [method, params] of [
        ['debug_traceTransaction', [old, { tracer: 'callTracer' }]],
        ['trace_transaction', [old]],
        ['debug_traceBlockByNumber', ['0x2', { tracer: 'callTracer' }]],
      ] as [string, unknown[]][]) {
        expect((await call(forkUrl, method, params)).result).toEqual((await call(up.url('small'), method, params)).result);
      }
    } finally {
      ws.close();
    }
  });
});
