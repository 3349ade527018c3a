/**
 * Batched proof fetches on a fork (docs/fork.md, "What is fetched"): a transaction's known keys (sender, recipient
 * and its code, coinbase, its access list's addresses and slots) are fetched in one batch request before it runs.
 * Counted at a proxy in front of a second devgate (the small test seed), on a fresh fork with no disk cache; the
 * balances after the send equal those of the same transfer done on the upstream.
 */
import { createWalletClient, encodeAbiParameters, encodeFunctionData, http, keccak256, type PublicClient } from 'viem';
import { foundry } from 'viem/chains';
import { result } from '../support/http.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/index.js';
import type { CountingProxy } from './countingProxy.js';
import { type SmallUpstream, smallUpstream, startFork, tokenAbi, dev0, TO } from './smallUpstream.js';

/** The Token's balances mapping is at slot 0. */
const balanceSlot = (holder: `0x${string}`) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 0n]));

let small: SmallUpstream;
let gw: Gateway;
let proxy: CountingProxy;
let fork: PublicClient;
let token: `0x${string}`;

beforeAll(async () => {
  small = await smallUpstream();
  ({ proxy, token } = small);
  const forked = await startFork(small);
  gw = forked.gw;
  fork = forked.client;
});
afterAll(async () => {
  await gw?.stop();
  await small?.stop();
});

describe('batched fetches on a fork', () => {
  it("fetches a send's recipient, its code and its access list's slots in one batch request, and the block's system reads in another", async () => {
    const wallet = createWalletClient({ account: dev0, chain: foundry, transport: http(gw.bareUrl()) });
    const before = proxy.requests();
    proxy.seen.length = 0;
    const hash = await wallet.sendTransaction({
      to: token,
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [TO, 7n] }),
      gas: 200_000n,
      accessList: [{ address: token, storageKeys: [balanceSlot(dev0.address), balanceSlot(TO)] }],
    });
    const receipt = await fork.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    // Old code, 7 requests in a row: opening the block read the two system contracts' codes and the beacon root slot
    // one at a time, then the transaction the token's account, its code and each balance slot. Now one batch each.
    expect(proxy.requests() - before).toBe(2);
    expect(proxy.seen).toEqual(['eth_getProof', 'eth_getProof', 'eth_getProof', 'eth_getCode']);
    const balance = (who: `0x${string}`) => fork.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [who] });
    expect(await balance(TO)).toBe(7n);
    const upstream = small.upstream;
    const upBalance = await upstream.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [dev0.address] });
    expect(await balance(dev0.address)).toBe((upBalance as bigint) - 7n);
  });

  it("fetches a call's callee and its code in one batch request", async () => {
    const upstream = small.upstream;
    // A contract of the seed other than the token (the other test fetches the token).
    let other: `0x${string}` | undefined;
    for (let n = 1n; other === undefined && n <= 4n; n++) {
      for (const hash of (await upstream.getBlock({ blockNumber: n })).transactions) {
        const created = (await upstream.getTransactionReceipt({ hash })).contractAddress;
        if (created != null && created.toLowerCase() !== token.toLowerCase()) other = created;
      }
    }
    expect(other).toBeDefined();
    const before = proxy.requests();
    proxy.seen.length = 0;
    const data = '0x6d4ce63c'; // get()
    const answer = async (client: PublicClient) => (await client.call({ to: other, data }).catch((e: Error) => e.message)) as unknown;
    expect(JSON.stringify(await answer(fork))).toBe(JSON.stringify(await answer(upstream)));
    // Old code: the contract's account, then its code, one request each; now one batch (then any slot it reads).
    expect(proxy.seen.slice(0, 2).sort()).toEqual(['eth_getCode', 'eth_getProof']);
    expect(proxy.requests() - before).toBe(proxy.seen.length - 1);
  });
});

/**
 * What code reads beyond the callee (here the token's balance mapping) is learnt by one recording run and fetched in
 * one batch (fork/prefetch.ts forkRuns); old code fetched each slot as the EVM met it, one request each. The upstream's
 * token gets 64 more holders first (anvil_setStorageAt, one block), so its storage trie is deep enough that each
 * holder's slot needs a proof of its own; then a second fork forks that block.
 */
describe('slots found only by running code', () => {
  const holder = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as `0x${string}`;
  const callOf = (data: `0x${string}`, from: `0x${string}`) => ({ from, to: token, data, gas: '0x100000' });
  let deep: Gateway;
  let deepUrl: string;
  let upUrl: string;

  beforeAll(async () => {
    upUrl = small.up.url('small');
    for (let n = 0x100; n < 0x140; n++) await result(upUrl, 'anvil_setStorageAt', [token, balanceSlot(holder(n)), `0x${'0'.repeat(62)}64`]);
    await result(upUrl, 'evm_mine', []);
    const at = Number(await result(upUrl, 'eth_blockNumber', []));
    deep = (await startFork(small, { fork: { url: proxy.url, blockNumber: at, retries: 0 } })).gw;
    deepUrl = deep.bareUrl();
  });
  afterAll(async () => {
    await deep?.stop();
  });

  it('eth_call reading two unfetched balance slots fetches them in one batch request, same answer as the upstream', async () => {
    const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [holder(0x101), 1n] });
    const before = proxy.requests();
    const answer = await result(deepUrl, 'eth_call', [callOf(data, holder(0x100)), 'latest']);
    expect(answer).toBe(await result(upUrl, 'eth_call', [callOf(data, holder(0x100)), 'latest']));
    // The caller, the token and its code in one batch, then both slots in another (old code: 3, one per slot).
    expect(proxy.requests() - before).toBe(2);
  });

  it('eth_estimateGas fetches as eth_call does: the caller in one batch, the slots in another', async () => {
    const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [holder(0x103), 1n] });
    const before = proxy.requests();
    const gas = await result(deepUrl, 'eth_estimateGas', [callOf(data, holder(0x102))]);
    expect(gas).toBe(await result(upUrl, 'eth_estimateGas', [callOf(data, holder(0x102))]));
    // The caller's path is known by now (fetched proofs run past it): the two slots in one batch. Old code: one each
    // as the EVM met them (2); the binary search's runs fetch nothing more.
    expect(proxy.requests() - before).toBe(1);
  });

  it('eth_createAccessList reading three unfetched slots fetches them in one batch request', async () => {
    const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transferFrom', args: [holder(0x104), holder(0x105), 0n] });
    const before = proxy.requests();
    const list = await result(deepUrl, 'eth_createAccessList', [callOf(data, holder(0x106)), 'latest']);
    expect(list).toEqual(await result(upUrl, 'eth_createAccessList', [callOf(data, holder(0x106)), 'latest']));
    expect(list.accessList[0].storageKeys).toHaveLength(3);
    // Old code: each of the three slots as the EVM met it (3).
    expect(proxy.requests() - before).toBe(1);
  });
});
