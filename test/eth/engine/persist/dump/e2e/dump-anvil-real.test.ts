/**
 * A state file written by anvil itself (1.7.1, the bench's @foundry-rs/anvil: `anvil --dump-state` after
 * anvil_setBalance, anvil_setCode, anvil_setStorageAt, anvil_setNonce and one transfer; see
 * test/fixtures/anvil/README.md) loads into devgate at start, its accounts at latest as anvil had them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../../src/index.js';
import { call } from '../../../../../support/http.js';

const FILE = 'test/fixtures/anvil/anvil-1.7.1-dump.json';
let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'], state: { load: FILE } });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

const rpc = async (method: string, params: unknown[]) => {
  const reply = await call(url, method, params);
  if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
  return reply.result;
};

describe("a file written by anvil's --dump-state", () => {
  it('loads at start: balance, nonce, code, storage and the transfer are read at latest, and the next block commits them', async () => {
    expect(gw.stateLoaded.length).toBeGreaterThan(0);
    const check = async () => {
      expect(await rpc('eth_getBalance', ['0x00000000000000000000000000000000000000e1', 'latest'])).toBe('0xde0b6b3a7640000');
      expect(await rpc('eth_getTransactionCount', ['0x00000000000000000000000000000000000000e1', 'latest'])).toBe('0x5');
      expect(await rpc('eth_getCode', ['0x00000000000000000000000000000000000000e2', 'latest'])).toBe('0x6001600155');
      expect(await rpc('eth_getStorageAt', ['0x00000000000000000000000000000000000000e2', '0x1', 'latest'])).toBe(`0x${'abcd'.padStart(64, '0')}`);
      expect(await rpc('eth_getBalance', ['0x00000000000000000000000000000000000000e3', 'latest'])).toBe('0x1234');
    };
    await check();
    await rpc('evm_mine', []);
    await check();
  });
});
