/**
 * A fork with a data directory (docs/fork.md, "Dump, load and the data directory"): the fetched state and the local
 * blocks are kept there, so a restart serves the same head (blocks, roots, balances, an unmined edit) and asks the
 * upstream for none of the state it fetched before, only its chain id and the fork block's header. Driven with viem
 * against a second devgate (the small test seed) behind a counting proxy; no disk cache, so only the directory helps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { type Abi, createPublicClient, createWalletClient, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';
import { type CountingProxy, countingProxy } from './countingProxy.js';

const SMALL = 'test/fixtures/eth/small.json';
const tokenAbi = (JSON.parse(readFileSync('chains/contracts/Token.json', 'utf8')) as { abi: Abi }).abi;
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const dev0 = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const TO = '0x00000000000000000000000000000000000000e5';

let up: Gateway;
let proxy: CountingProxy;
let dir: string;
let forkBlock: bigint;
let token: `0x${string}`;

beforeAll(async () => {
  up = await start({ port: 0, chains: [SMALL], cache: false });
  const upstream = createPublicClient({ chain: foundry, transport: http(up.url('small')) });
  forkBlock = await upstream.getBlockNumber();
  const first = await upstream.getBlock({ blockNumber: 1n });
  token = (await upstream.getTransactionReceipt({ hash: first.transactions[0]! })).contractAddress!;
  proxy = await countingProxy(up.url('small'));
  dir = mkdtempSync(join(tmpdir(), 'devgate-fork-datadir-'));
});
afterAll(async () => {
  await proxy?.close();
  await up?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const open = (blockNumber?: bigint) =>
  start({
    port: 0,
    chains: [{ name: 'tiny', kind: 'eth', chainId: 5 }],
    fork: { url: proxy.url, blockNumber: blockNumber === undefined ? undefined : Number(blockNumber), retries: 0 },
    cache: false,
    dataDir: dir,
  });

const reads = async (client: PublicClient) => ({
  head: await client.getBlock({ blockTag: 'latest' }),
  forkBlock: (await client.getBlock({ blockNumber: forkBlock })).hash,
  to: await client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [TO] }),
  from: await client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [DEV0] }),
  balance: await client.getBalance({ address: TO }),
  dev: await client.getBalance({ address: DEV0 }),
  nonce: await client.getTransactionCount({ address: DEV0 }),
  code: await client.getCode({ address: token }),
});

describe('a fork with a data directory', () => {
  it('restarts to the same head, asking the upstream for none of the state it fetched', async () => {
    const first = await open(forkBlock);
    const url = first.bareUrl();
    const client = createPublicClient({ chain: foundry, transport: http(url) });
    const wallet = createWalletClient({ chain: foundry, transport: http(url), account: dev0 });
    const hash = await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 9n] });
    expect((await client.waitForTransactionReceipt({ hash })).blockNumber).toBe(forkBlock + 1n);
    await call(url, 'anvil_setBalance', [TO, '0x4321']);
    const before = await reads(client);
    await first.stop();

    proxy.seen.length = 0;
    // Without a block number: the stored fork block is kept (the upstream's latest is not taken again).
    await call(up.url('small'), 'evm_mine', []);
    const second = await open();
    const again = createPublicClient({ chain: foundry, transport: http(second.bareUrl()) });
    const after = await reads(again);
    expect(after).toEqual(before);
    expect(after.head.number).toBe(forkBlock + 1n);
    expect(proxy.seen).not.toContain('eth_getProof');
    expect(proxy.seen).not.toContain('eth_getCode');

    // It goes on: a new block on the restored state, and a reset goes back to the fork block with its funding.
    const wallet2 = createWalletClient({ chain: foundry, transport: http(second.bareUrl()), account: dev0 });
    const h2 = await wallet2.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 1n] });
    expect((await again.waitForTransactionReceipt({ hash: h2 })).status).toBe('success');
    expect(await again.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [TO] })).toBe(10n);
    expect((await call(second.bareUrl(), 'anvil_reset', [])).result).toBeNull();
    expect(await again.getBlockNumber({ cacheTime: 0 })).toBe(forkBlock);
    expect(await again.getBalance({ address: DEV0 })).toBe(10_000n * 10n ** 18n);
    await second.stop();
  });

  it('refuses to serve the directory over another fork block, naming both', async () => {
    await expect(open(forkBlock - 1n)).rejects.toThrow(`it holds a fork at block ${forkBlock}, the seed forks at block ${forkBlock - 1n}`);
  });
});
