/**
 * Moving an anvil setup over: an anvil state file (test/fixtures/anvil/state.json, anvil's --dump-state shape) loaded
 * with viem's testClient.loadState (gzip'd hex, as anvil_dumpState answers) and at start (`state: { load }`):
 * balances, code, storage and nonces (the larger one, as anvil) are read at latest at once, and the next block commits
 * them into its stateRoot. Also: the rollup network's chain goes through gw.dumpState() / start({ state }).
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createTestClient, http, toHex } from 'viem';
import { sepolia } from 'viem/chains';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../../../../../../src/index.js';
import { call } from '../../../../../support/http.js';

const FIXTURE = 'test/fixtures/anvil/state.json';
const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const DEV1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const FRESH = '0x00000000000000000000000000000000000000a1';
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };
const dir = mkdtempSync(join(tmpdir(), 'devgate-dump-anvil-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function expectFixtureAt(url: string, nonceBefore: bigint): Promise<void> {
  expect(BigInt((await call(url, 'eth_getBalance', [DEV1, 'latest'])).result)).toBe(0x21e19e0c9bab2400000n);
  expect(BigInt((await call(url, 'eth_getBalance', [FRESH, 'latest'])).result)).toBe(10n ** 18n);
  expect((await call(url, 'eth_getTransactionCount', [FRESH, 'latest'])).result).toBe('0x3');
  // The file's nonce 0 is below the chain's: the larger stays, as anvil's load does.
  expect(BigInt((await call(url, 'eth_getTransactionCount', [DEV1, 'latest'])).result)).toBe(nonceBefore);
  expect((await call(url, 'eth_getCode', [CONTRACT, 'latest'])).result).toBe('0x60005460005260206000f3');
  expect(BigInt((await call(url, 'eth_getStorageAt', [CONTRACT, '0x7', 'latest'])).result)).toBe(1n);
  expect(BigInt((await call(url, 'eth_call', [{ to: CONTRACT }, 'latest'])).result)).toBe(42n);
}

describe('an anvil state file', () => {
  it('loads with testClient.loadState (gzip, as anvil_dumpState answers): accounts at latest at once, committed by the next block', async () => {
    const gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
    try {
      const url = gw.url('sepolia');
      const nonceBefore = BigInt((await call(url, 'eth_getTransactionCount', [DEV1, 'latest'])).result);
      expect(nonceBefore).toBeGreaterThan(0n);
      const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
      const test = createTestClient({ chain, mode: 'anvil', transport: http(url) });
      await test.loadState({ state: toHex(gzipSync(readFileSync(FIXTURE))) });
      await expectFixtureAt(url, nonceBefore);
      // No block was added; the next one commits the edit.
      expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).result.hash).toBe(head.result.hash);
      await test.mine({ blocks: 1 });
      const mined = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result;
      expect(mined.stateRoot).not.toBe(head.result.stateRoot);
      const proof = (await call(url, 'eth_getProof', [CONTRACT, ['0x0'], mined.number])).result;
      expect(BigInt(proof.storageProof[0].value)).toBe(42n);
      await expectFixtureAt(url, nonceBefore);
      // Plain JSON (not gzip'd) is taken too; a broken account is refused naming it, changing nothing.
      expect((await call(url, 'anvil_loadState', [toHex(readFileSync(FIXTURE))])).result).toBe(true);
      const bad = JSON.stringify({ accounts: { [FRESH]: { nonce: 1, balance: 'lots', code: '0x', storage: {} } } });
      const r = await call(url, 'anvil_loadState', [toHex(Buffer.from(bad))]);
      expect(r.error).toEqual({ code: -32602, message: `anvil state: balance of ${FRESH} is not a number ("lots")` });
    } finally {
      await gw.stop();
    }
  });

  it("is not taken by start({ state: FILE }) (--state), which would write devgate's file over it on stop", async () => {
    await expect(start({ port: 0, chains: ['chains/sepolia.json'], state: FIXTURE })).rejects.toThrow(
      `${FIXTURE} is an anvil state file, which the state file written on exit would replace: load it with --load-state ${FIXTURE} and dump to another file (--dump-state)`,
    );
  });

  it('loads at start into the first eth network (start({ state: { load } }))', async () => {
    const gw = await start({ port: 0, chains: ['chains/sepolia.json'], state: { load: FIXTURE } });
    try {
      expect(gw.stateLoaded).toEqual(["sepolia: 4 accounts of an anvil state file put into head's state (its 1 blocks and 0 transactions are not replayed)"]);
      await expectFixtureAt(gw.url('sepolia'), 4n);
    } finally {
      await gw.stop();
    }
  });
});

describe('the rollup network in a state file', () => {
  it('dumps and loads its blocks, statuses, receipts and time', async () => {
    const file = join(dir, 'gateway.bin');
    const a = await start({ port: 0, chains: ['chains/sepolia.json', 'chains/starknet-mainnet.json'] });
    let before: unknown[];
    const ask = (url: string) =>
      Promise.all([
        call(url, 'starknet_blockNumber'),
        call(url, 'starknet_getBlockWithTxHashes', [{ block_number: 3 }]),
        call(url, 'starknet_getBlockWithTxHashes', ['latest']),
      ]);
    try {
      const url = a.url('starknet-mainnet');
      await call(url, 'devnet_createBlock', []);
      await call(url, 'devnet_acceptOnL1', []);
      before = await ask(url);
      for (const r of before as { result?: unknown }[]) expect(r.result).toBeDefined();
      await a.dumpState(file);
    } finally {
      await a.stop();
    }
    const b = await start({ port: 0, chains: ['chains/sepolia.json', 'chains/starknet-mainnet.json'], state: { load: file } });
    try {
      expect(b.stateLoaded.some((l) => l.startsWith('starknet-mainnet: '))).toBe(true);
      const after = await ask(b.url('starknet-mainnet'));
      expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    } finally {
      await b.stop();
    }
    // A gateway that does not serve every network of the file refuses it whole (its sepolia is left as it was).
    const c = await start({ port: 0, chains: ['chains/sepolia.json'] });
    try {
      await call(c.url('sepolia'), 'anvil_mine', ['0x2']);
      await expect(c.loadState(file)).rejects.toThrow('the state file holds network "starknet-mainnet", which this gateway does not serve (it serves sepolia)');
      expect(c.eth('sepolia').blockNumber()).toBe(42n);
    } finally {
      await c.stop();
    }
  });
});
