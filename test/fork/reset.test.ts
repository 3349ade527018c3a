/**
 * anvil_reset / hardhat_reset with `forking` (#29), driven by viem's testClient: a plain network becomes a fork of a
 * second devgate (the small test seed) at a given block, moves to another block of the same upstream, and goes back
 * to its seeded chain; a reset that cannot open its fork changes nothing. And a send whose automined block the
 * upstream fails (it went down) is answered with the error and leaves nothing in the pool.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Abi, createPublicClient, createTestClient, createWalletClient, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';

const SMALL = 'test/fixtures/eth/small.json';
const tokenAbi = (JSON.parse(readFileSync('chains/contracts/Token.json', 'utf8')) as { abi: Abi }).abi;
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const dev0 = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const TO = '0x00000000000000000000000000000000000000e6';

let up: Gateway;
let gw: Gateway;
let upUrl: string;
let upstream: PublicClient;
let token: `0x${string}`;
let upHead: bigint;

beforeAll(async () => {
  up = await start({ port: 0, chains: [SMALL] });
  upUrl = up.url('small');
  upstream = createPublicClient({ chain: foundry, transport: http(upUrl) });
  upHead = await upstream.getBlockNumber();
  const first = await upstream.getBlock({ blockNumber: 1n });
  token = (await upstream.getTransactionReceipt({ hash: first.transactions[0]! })).contractAddress!;
  gw = await start({ port: 0, chains: [{ name: 'tiny', kind: 'eth', chainId: 5 }] });
});
afterAll(async () => {
  await gw?.stop();
  await up?.stop();
});

describe('anvil_reset with forking', () => {
  it('forks the upstream at a block, moves to another block, and goes back to the seeded chain', async () => {
    const url = gw.bareUrl();
    const client = createPublicClient({ chain: foundry, transport: http(url) });
    const test = createTestClient({ chain: foundry, mode: 'anvil', transport: http(url) });
    const genesis = (await client.getBlock({ blockNumber: 0n })).hash;
    await test.mine({ blocks: 2 });

    const at = upHead - 1n;
    await test.reset({ jsonRpcUrl: upUrl, blockNumber: at });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(at);
    expect((await client.getBlock({ blockTag: 'latest' })).hash).toBe((await upstream.getBlock({ blockNumber: at })).hash);
    const balanceOf = (c: PublicClient, who: `0x${string}`, blockNumber?: bigint) =>
      c.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [who], blockNumber });
    expect(await balanceOf(client, DEV0)).toBe(await balanceOf(upstream, DEV0, at));
    // History before the fork block is the upstream's.
    expect((await client.getBlock({ blockNumber: 1n })).hash).toBe((await upstream.getBlock({ blockNumber: 1n })).hash);
    // The dev accounts are funded on the fork; a send is mined locally, the upstream sees nothing.
    expect(await client.getBalance({ address: DEV0 })).toBe(10_000n * 10n ** 18n);
    const wallet = createWalletClient({ chain: foundry, transport: http(url), account: dev0 });
    const hash = await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [TO, 7n] });
    expect((await client.waitForTransactionReceipt({ hash })).blockNumber).toBe(at + 1n);
    expect(await balanceOf(client, TO)).toBe(7n);
    expect(await balanceOf(upstream, TO)).toBe(0n);

    // Without jsonRpcUrl: the same upstream at another block.
    await test.reset({ blockNumber: upHead });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(upHead);
    expect((await client.getBlock({ blockTag: 'latest' })).hash).toBe((await upstream.getBlock({ blockNumber: upHead })).hash);
    expect(await balanceOf(client, TO)).toBe(0n);

    // hardhat_reset takes the same options and answers true.
    expect((await call(url, 'hardhat_reset', [{ forking: { jsonRpcUrl: upUrl, blockNumber: Number(at) } }])).result).toBe(true);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(at);

    // No forking (viem sends { forking: { blockNumber: null } }): the seeded chain as served at start.
    await test.reset();
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(0n);
    expect((await client.getBlock({ blockNumber: 0n })).hash).toBe(genesis);
    expect((await call(url, 'eth_getBlockByNumber', ['0x1', false])).result).toBeNull();
    expect(await client.getCode({ address: token })).toBeUndefined();
    expect((await call(url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [{ to: TO }] }] }, 'latest'])).error).toBeUndefined();
  });

  it('a reset whose fork cannot be opened is refused, naming why, and changes nothing', async () => {
    const url = gw.bareUrl();
    await call(url, 'evm_mine', []);
    const head = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result.hash;
    const far = await call(url, 'anvil_reset', [{ forking: { jsonRpcUrl: upUrl, blockNumber: Number(upHead + 1000n) } }]);
    expect(far.error).toMatchObject({ code: -32602, message: expect.stringMatching(/has no block/) });
    const bad = await call(url, 'anvil_reset', [{ forking: { jsonRpcUrl: upUrl, blockNumber: 'soon' } }]);
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringMatching(/forking.blockNumber/) });
    expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).result.hash).toBe(head);
  });
});

describe("hardhat-network-helpers' reset in a hardhat project", () => {
  it('reset(url, block) forks the upstream at that block; reset() goes back to the seeded chain', async () => {
    const project = mkdtempSync(join(tmpdir(), 'devgate-hardhat-reset-'));
    try {
      symlinkSync(resolve('node_modules'), join(project, 'node_modules'), 'dir');
      writeFileSync(join(project, 'package.json'), '{"name":"devgate-hardhat-reset-test","private":true}');
      writeFileSync(
        join(project, 'hardhat.config.cjs'),
        `module.exports = { defaultNetwork: 'devgate', networks: { devgate: { url: ${JSON.stringify(gw.bareUrl())} } } };\n`,
      );
      writeFileSync(
        join(project, 'run.cjs'),
        `
const helpers = require('@nomicfoundation/hardhat-network-helpers');
const p = require('hardhat').network.provider;
(async () => {
  const out = {};
  await helpers.reset(${JSON.stringify(upUrl)}, ${Number(upHead - 2n)});
  out.forked = Number(await p.request({ method: 'eth_blockNumber', params: [] }));
  out.hash = (await p.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })).hash;
  await helpers.reset();
  out.back = Number(await p.request({ method: 'eth_blockNumber', params: [] }));
  console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({ error: String((e && e.message) || e) })); process.exitCode = 1; });
`,
      );
      const { stdout } = await promisify(execFile)(process.execPath, ['run.cjs'], {
        cwd: project,
        env: { ...process.env, HARDHAT_NETWORK: 'devgate', HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', DO_NOT_TRACK: '1' },
        timeout: 50_000,
      }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: `${err.stdout ?? ''}${err.stderr ?? ''}` }));
      const out = JSON.parse(stdout.trim().split('\n').pop()!);
      expect(out).toEqual({ forked: Number(upHead - 2n), hash: (await upstream.getBlock({ blockNumber: upHead - 2n })).hash, back: 0 });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});

describe('the upstream down while a send is automined', () => {
  it('answers the error, changes no chain data and leaves nothing in the pool', async () => {
    const up2 = await start({ port: 0, chains: [SMALL] });
    const up2Url = up2.url('small');
    const port = Number(new URL(up2Url).port);
    const fork = await start({ port: 0, chains: [{ name: 'tiny', kind: 'eth', chainId: 5 }], fork: { url: up2Url, retries: 0 } });
    let again: Gateway | undefined;
    try {
      const url = fork.bareUrl();
      const head = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result;
      const nonce = Number((await call(url, 'eth_getTransactionCount', [DEV0, 'latest'])).result);
      await up2.stop();
      // The token's storage was never read: the block needs the upstream.
      const wallet = createWalletClient({ chain: foundry, transport: http(url), account: dev0 });
      // Signed here with its gas given (an estimate would ask the upstream before anything is pooled).
      const raw = await wallet.signTransaction({
        to: token,
        data: transferData(TO, 3n) as `0x${string}`,
        gas: 100_000n,
        nonce,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 1n,
      });
      const failed = await call(url, 'eth_sendRawTransaction', [raw]);
      expect(failed.error).toMatchObject({ code: -32000, message: expect.stringMatching(/upstream/) });
      expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).result.hash).toBe(head.hash);
      expect((await call(url, 'txpool_status', [])).result).toEqual({ pending: '0x0', queued: '0x0' });

      // The upstream comes back (the same seed, the same port): the next send is mined alone.
      again = await start({ port, chains: [SMALL] });
      const hash = await wallet.sendTransaction({ to: TO, value: 1n });
      const receipt = await createPublicClient({ chain: foundry, transport: http(url) }).waitForTransactionReceipt({ hash });
      const block = (await call(url, 'eth_getBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`, false])).result;
      expect(block.transactions).toEqual([hash]);
    } finally {
      await fork.stop();
      await again?.stop();
    }
  });
});

/** ERC-20 transfer(to, amount) calldata. */
function transferData(to: string, amount: bigint): string {
  return `0xa9059cbb${to.slice(2).padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;
}
