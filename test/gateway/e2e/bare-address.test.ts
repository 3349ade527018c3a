/**
 * The bare address: `POST http://127.0.0.1:PORT/` and `ws://127.0.0.1:PORT/` serve an anvil-like dev network (chain
 * id 31337, the 10 funded accounts of `test test ... junk`, automine) beside the gateway paths, as the key `devgate`;
 * `bare` picks the network or turns it off; anvil's flags (dev options, --init genesis) shape it; the node says it is
 * anvil-compatible (anvil_metadata, anvil_nodeInfo, hardhat_metadata). Before, `/` answered 404.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../src/index.js';
import { call, post, WsClient } from '../../support/http.js';

const ALPHA = { name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } };
const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

let gw: Gateway;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [ALPHA], bare: 'dev' });
});
afterAll(() => gw?.stop());

describe('the bare address', () => {
  it('serves the dev network over HTTP: chain id 31337, 10 funded accounts, automine', async () => {
    const url = gw.bareUrl();
    expect(url).toBe(`http://127.0.0.1:${gw.port}/`);
    expect((await call(url, 'eth_chainId')).result).toBe('0x7a69');
    const accounts = (await call(url, 'eth_accounts')).result as string[];
    expect(accounts).toHaveLength(10);
    expect(accounts[0]).toBe(ACCOUNT0);
    expect((await call(url, 'eth_getBalance', [ACCOUNT0, 'latest'])).result).toBe('0x21e19e0c9bab2400000');
    expect((await call(url, 'eth_blockNumber')).result).toBe('0x0');
    const hash = (await call(url, 'eth_sendTransaction', [{ from: ACCOUNT0, to: accounts[1], value: '0x1' }])).result;
    expect((await call(url, 'eth_getTransactionReceipt', [hash])).result.blockNumber).toBe('0x1');
    // The same network at its gateway path, with any key.
    expect((await call(gw.url('dev', 'k1'), 'eth_blockNumber')).result).toBe('0x1');
    expect((await call(gw.url('alpha'), 'eth_chainId')).result).toBe('0x5');
  });

  it('serves it over WebSocket at ws://host:port/', async () => {
    const ws = await WsClient.open(gw.bareUrl('ws'));
    try {
      expect((await ws.request({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).result).toBe('0x7a69');
    } finally {
      ws.close();
    }
  });

  it('opens the explorer for a browser (GET, Accept: text/html); any other GET at / is not served', async () => {
    const page = await fetch(gw.bareUrl(), { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('devgate explorer');
    const r = await fetch(gw.bareUrl());
    expect(r.status).toBe(404);
    await r.text();
  });

  it('says it is anvil-compatible: web3_clientVersion, anvil_metadata, hardhat_metadata, anvil_nodeInfo', async () => {
    const url = gw.bareUrl();
    expect((await call(url, 'web3_clientVersion')).result).toMatch(/^anvil\/v1\.7\.1\/devgate\/\d+\.\d+\.\d+$/);
    const meta = (await call(url, 'anvil_metadata')).result;
    expect(Object.keys(meta).sort()).toEqual(
      [
        'chainId',
        'clientCommitSha',
        'clientSemver',
        'clientVersion',
        'forkedNetwork',
        'instanceId',
        'latestBlockHash',
        'latestBlockNumber',
        'snapshots',
      ].sort(),
    );
    expect(meta.chainId).toBe(31337);
    expect(meta.instanceId).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await call(url, 'hardhat_metadata')).result.instanceId).toBe(meta.instanceId);
    const snap = (await call(url, 'evm_snapshot')).result;
    expect((await call(url, 'anvil_metadata')).result.snapshots[String(BigInt(snap))]).toEqual([meta.latestBlockNumber, meta.latestBlockHash]);
    const info = (await call(url, 'anvil_nodeInfo')).result;
    expect(info).toMatchObject({ hardFork: 'Osaka', transactionOrder: 'fees', environment: { chainId: 31337, gasLimit: '0x1c9c380' } });
    expect(info.forkConfig).toEqual({ forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null });
  });
});

describe('choosing the bare network', () => {
  it('with chains and no bare option: the first eth chain given, and no dev network', async () => {
    const g = await start({ port: 0, chains: [ALPHA] });
    try {
      expect(g.bare).toBe('alpha');
      expect(g.networks.map((n) => n.name)).toEqual(['alpha']);
      expect((await call(g.bareUrl(), 'eth_chainId')).result).toBe('0x5');
    } finally {
      await g.stop();
    }
  });

  it("bare: 'none' turns it off (404), and a bare network that does not exist is refused", async () => {
    const g = await start({ port: 0, chains: [ALPHA], bare: 'none' });
    try {
      expect(g.bare).toBeUndefined();
      expect((await post(`http://127.0.0.1:${g.port}/`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).status).toBe(404);
    } finally {
      await g.stop();
    }
    await expect(start({ port: 0, chains: [ALPHA], bare: 'nope' })).rejects.toThrow(/bare: no network is named "nope"; networks: alpha/);
  });

  it('is the key devgate: with a keys file that lacks it, the bare address is refused like an unknown key', async () => {
    const g = await start({ port: 0, chains: [ALPHA], keys: { keys: [{ key: 'only-me', plan: 'growth' }] } });
    try {
      expect((await post(g.bareUrl(), { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).status).toBe(401);
    } finally {
      await g.stop();
    }
  });

  it("anvil's options shape the dev network; an anvil genesis (--init) keeps the funded dev accounts", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devgate-init-'));
    const genesis = join(dir, 'genesis.json');
    const RICH = '0x00000000000000000000000000000000000000a1';
    writeFileSync(
      genesis,
      JSON.stringify({ config: { chainId: 4242 }, timestamp: '0x6553f100', gasLimit: '0x2faf080', alloc: { [RICH.slice(2)]: { balance: '0x64' } } }),
    );
    const g = await start({ port: 0, chains: [ALPHA], dev: { init: genesis, accounts: 3, balance: 5 } });
    try {
      expect(g.bare).toBe('dev');
      const url = g.bareUrl();
      expect((await call(url, 'eth_chainId')).result).toBe('0x1092');
      expect((await call(url, 'eth_accounts')).result).toHaveLength(3);
      expect(BigInt((await call(url, 'eth_getBalance', [ACCOUNT0, 'latest'])).result)).toBe(5n * 10n ** 18n);
      expect((await call(url, 'eth_getBalance', [RICH, 'latest'])).result).toBe('0x64');
      expect((await call(url, 'eth_getBlockByNumber', ['0x0', false])).result.gasLimit).toBe('0x2faf080');
    } finally {
      await g.stop();
    }
    await expect(start({ port: 0, chains: [ALPHA], dev: { init: join(dir, 'missing.json') } })).rejects.toThrow(
      /cannot read genesis file .*missing\.json: ENOENT/,
    );
  });
});
