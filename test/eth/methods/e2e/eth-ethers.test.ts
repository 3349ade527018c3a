/**
 * The eth_ read surface through ethers v6 (JsonRpcProvider and WebSocketProvider): blocks,
 * transactions, receipts, calls and reverts, storage, proofs (raw `send`), logs and estimates.
 */
import { readFileSync } from 'node:fs';
import { AbiCoder, Contract, JsonRpcProvider, Network, WebSocketProvider, isCallException, keccak256, zeroPadValue, type AbstractProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { ACCOUNT0, ACCOUNT1, ACCOUNT2, REVERTER, STORAGE_LAYOUT, TOKEN, UNLIMITED, readSurfaceSeed } from '../seed.js';

const abi = (name: string) => JSON.parse(readFileSync(new URL(`../../../../chains/contracts/${name}.json`, import.meta.url), 'utf8')).abi;

let gw: Gateway;
const providers: Record<string, JsonRpcProvider | WebSocketProvider> = {};

beforeAll(async () => {
  gw = await start({ port: 0, chains: [readSurfaceSeed()], keys: UNLIMITED });
  const network = Network.from(1337);
  providers.http = new JsonRpcProvider(gw.url('dev'), network, { staticNetwork: network, batchMaxCount: 1 });
  providers.ws = new WebSocketProvider(gw.wsUrl('dev'), network);
});

afterAll(async () => {
  await providers.ws?.destroy();
  providers.http?.destroy();
  await gw?.stop();
});

describe.each(['http', 'ws'])('ethers over %s', (transport) => {
  const p = () => providers[transport]! as AbstractProvider & { send(method: string, params: unknown[]): Promise<any> };

  it('reads blocks, transactions and receipts', async () => {
    expect(await p().getBlockNumber()).toBe(4);
    const block = (await p().getBlock(2, true))!;
    expect(block.number).toBe(2);
    expect(block.prefetchedTransactions.map((t) => t.type)).toEqual([2, 0, 1, 2, 2]);
    expect((await p().getBlock(block.hash!))!.transactions).toEqual(block.transactions);
    const tx = (await p().getTransaction(block.transactions[1]!))!;
    expect(tx.type).toBe(0);
    expect(tx.chainId).toBe(1337n);
    expect(tx.from.toLowerCase()).toBe(ACCOUNT0);
    expect(tx.to!.toLowerCase()).toBe(ACCOUNT1);
    expect(tx.value).toBe(1n);
    expect(tx.blockNumber).toBe(2);
    const receipt = (await p().getTransactionReceipt(block.transactions[0]!))!;
    expect(receipt.status).toBe(1);
    expect(receipt.logs).toHaveLength(1);
    expect(receipt.blockHash).toBe(block.hash);
    expect(receipt.gasPrice).toBe(block.baseFeePerGas! + 10n ** 9n);
    // ethers' block formatter requires a number, so the SPEC-shaped pending block (number null) is read raw.
    const pending = await p().send('eth_getBlockByNumber', ['pending', false]);
    expect(pending.hash).toBeNull();
    expect(pending.number).toBeNull();
    const pendingTx = (await p().getTransaction(pending.transactions[0]))!;
    expect(pendingTx.blockNumber).toBeNull();
    expect(pendingTx.blockHash).toBeNull();
    expect(await p().getTransactionReceipt(pending.transactions[0]!)).toBeNull();
    expect(await p().getBlock(99)).toBeNull();
  });

  it('calls contracts and reports reverts with their reason', async () => {
    const token = new Contract(TOKEN, abi('Token'), p());
    expect(await token.getFunction('balanceOf')(ACCOUNT1)).toBe(990n);
    expect(await token.getFunction('balanceOf')(ACCOUNT1, { blockTag: 2 })).toBe(1000n);
    const reverter = new Contract(REVERTER, abi('Reverter'), p());
    const err = await reverter
      .getFunction('revertWithReason')()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isCallException(err)).toBe(true);
    expect((err as { reason: string }).reason).toBe('Reverter: always reverts');
    const panic = await reverter
      .getFunction('panicAssert')()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isCallException(panic)).toBe(true);
    expect((panic as { revert: { name: string; args: unknown[] } }).revert.name).toBe('Panic');
    const custom = await reverter
      .getFunction('revertWithCustomError')(5n, { from: ACCOUNT2 })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((custom as { revert: { name: string; args: unknown[] } }).revert.name).toBe('Unauthorized');
    expect(await reverter.getFunction('succeed')()).toBe(42n);
  });

  it('reads storage slots and mapping entries, and proofs', async () => {
    expect(BigInt(await p().getStorage(STORAGE_LAYOUT, 0))).toBe(42n);
    const position = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [ACCOUNT0, 3]));
    expect(BigInt(await p().getStorage(STORAGE_LAYOUT, position))).toBe(1000n);
    const proof = await p().send('eth_getProof', [STORAGE_LAYOUT, [zeroPadValue('0x05', 32)], 'latest']);
    expect(proof.storageProof[0].key).toBe(zeroPadValue('0x05', 32));
    expect(proof.storageProof[0].value).toBe('0x3');
    expect(proof.accountProof.length).toBeGreaterThan(0);
  });

  it('filters logs and estimates gas, fees and balances', async () => {
    const transferTopic = keccak256(Buffer.from('Transfer(address,address,uint256)'));
    const logs = await p().getLogs({ address: TOKEN, topics: [transferTopic], fromBlock: 0, toBlock: 'latest' });
    expect(logs.map((l) => l.blockNumber)).toEqual([1, 2, 3]);
    const toAccount1 = await p().getLogs({ address: TOKEN, topics: [transferTopic, null, zeroPadValue(ACCOUNT1, 32)], fromBlock: 0 });
    expect(toAccount1).toHaveLength(1);
    expect(await p().estimateGas({ from: ACCOUNT0, to: ACCOUNT1, value: 1n })).toBe(21_000n);
    const fees = await p().getFeeData();
    expect(fees.maxPriorityFeePerGas).toBe(10n ** 9n);
    expect(fees.gasPrice).toBeGreaterThan(0n);
    expect(await p().getBalance(ACCOUNT2, 1)).toBe(10_000n * 10n ** 18n);
    expect(await p().getTransactionCount(ACCOUNT0, 'pending')).toBe(12);
    expect(await p().getCode(ACCOUNT1)).toBe('0x');
  });
});
