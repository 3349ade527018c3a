/**
 * Dump and load on a fork (docs/fork.md, "Dump, load and the data directory"): a fork's dump holds what it fetched
 * and its local blocks; loaded into a fresh fork of the same upstream block it answers the same balances, storage,
 * blocks, roots and proofs, asking the upstream nothing for what the dump holds. Driven with viem's testClient
 * (dumpState / loadState) against a second devgate (the small test seed) behind a counting proxy.
 */
import { createPublicClient, createTestClient, createWalletClient, http, type PublicClient } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';
import type { CountingProxy } from './countingProxy.js';
import { type SmallUpstream, smallUpstream, startFork, tokenAbi, DEV0, dev0, TO } from './smallUpstream.js';

let small: SmallUpstream;
let proxy: CountingProxy;
let forkBlock: bigint;
let token: `0x${string}`;
const started: Gateway[] = [];

/** A fresh fork of the proxy at the fork block, without a disk cache (so only a load can spare upstream requests). */
async function freshFork(): Promise<{ gw: Gateway; client: PublicClient; url: string }> {
  const forked = await startFork(small);
  started.push(forked.gw);
  return forked;
}

beforeAll(async () => {
  small = await smallUpstream();
  ({ proxy, forkBlock, token } = small);
});
afterAll(async () => {
  for (const gw of started) await gw.stop();
  await small?.stop();
});

describe('dump and load of a fork', () => {
  it('loads into a fresh fork with the same answers and roots, asking the upstream nothing it holds', async () => {
    const a = await freshFork();
    const wallet = createWalletClient({ chain: foundry, transport: http(a.url), account: dev0 });
    const hash = await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 7n] });
    const receipt = await a.client.waitForTransactionReceipt({ hash });
    expect(receipt.blockNumber).toBe(forkBlock + 1n);
    // An unmined edit at head goes in too.
    await call(a.url, 'anvil_setBalance', [TO, '0x1234']);

    const reads = async (client: PublicClient) => ({
      head: await client.getBlock({ blockTag: 'latest' }),
      to: await client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [TO] }),
      from: await client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [DEV0] }),
      balance: await client.getBalance({ address: TO }),
      nonce: await client.getTransactionCount({ address: DEV0 }),
      code: await client.getCode({ address: token }),
      proof: await client.getProof({ address: token, storageKeys: ['0x0'], blockNumber: receipt.blockNumber }),
      receipt: (await client.getTransactionReceipt({ hash })).transactionHash,
    });
    const before = await reads(a.client);
    const dump = await createTestClient({ chain: foundry, mode: 'anvil', transport: http(a.url) }).dumpState();

    const b = await freshFork();
    proxy.seen.length = 0;
    await createTestClient({ chain: foundry, mode: 'anvil', transport: http(b.url) }).loadState({ state: dump });
    const after = await reads(b.client);
    expect(after).toEqual(before);
    expect(after.head.stateRoot).toBe(before.head.stateRoot);
    // Nothing the dump holds was asked again (the fork block's history is not state: none was asked either).
    expect(proxy.seen).toEqual([]);

    // The loaded fork goes on as the dumped one would: the next block's root is the same on both.
    const next = async (url: string) => {
      const w = createWalletClient({ chain: foundry, transport: http(url), account: dev0 });
      const h = await w.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 1n] });
      const r = await createPublicClient({ chain: foundry, transport: http(url) }).waitForTransactionReceipt({ hash: h });
      return (await createPublicClient({ chain: foundry, transport: http(url) }).getBlock({ blockNumber: r.blockNumber })).stateRoot;
    };
    expect(await next(b.url)).toBe(await next(a.url));
  });

  it('refuses a fork dump on a plain network and a plain dump on a fork, naming why, changing nothing', async () => {
    const a = await freshFork();
    const forkDump = (await call(a.url, 'anvil_dumpState', [])).result;
    const plain = await start({ port: 0, chains: [{ name: 'tiny', kind: 'eth', chainId: 31337 }], cache: false });
    started.push(plain);
    const plainDump = (await call(plain.bareUrl(), 'anvil_dumpState', [])).result;
    const intoPlain = await call(plain.bareUrl(), 'anvil_loadState', [forkDump]);
    expect(intoPlain.error.code).toBe(-32602);
    expect(intoPlain.error.message).toMatch(/starts from block 0x[0-9a-f]{64}; network "tiny" starts from genesis/);
    const intoFork = await call(a.url, 'anvil_loadState', [plainDump]);
    expect(intoFork.error.code).toBe(-32602);
    expect(intoFork.error.message).toMatch(new RegExp(`starts from block ${forkBlock} 0x`));
    expect((await call(a.url, 'eth_blockNumber', [])).result).toBe(`0x${forkBlock.toString(16)}`);
  });
});
