/** Dev methods (evm_, anvil_, hardhat_) off for a key or for the whole gateway: -32601, exactly as the hosted gateway. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call, WsClient } from '../support/http.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: ['chains/sepolia.json'],
    keys: {
      keys: [
        { key: 'nodev', plan: 'growth', devMethods: false },
        { key: 'dev', plan: 'growth' },
      ],
    },
  });
});
afterAll(() => gw.stop());

describe('dev methods', () => {
  it('a key with "devMethods": false meets them as unknown methods, over HTTP and WebSocket; other keys use them', async () => {
    for (const method of ['evm_mine', 'anvil_setBalance', 'hardhat_mine', 'evm_snapshot']) {
      expect((await call(gw.url('sepolia', 'nodev'), method, [])).error).toEqual({
        code: -32601,
        message: `the method ${method} does not exist/is not available`,
      });
    }
    expect((await call(gw.url('sepolia', 'nodev'), 'eth_blockNumber')).result).toBe('0x28');
    const ws = await WsClient.open(gw.wsUrl('sepolia', 'nodev'));
    expect((await ws.request({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] })).error.code).toBe(-32601);
    ws.socket.close();
    expect((await call(gw.url('sepolia', 'dev'), 'evm_snapshot')).result).toBe('0x0');
  });

  it('a key without dev methods cannot reach the ones outside evm_/anvil_/hardhat_ (issue 25): miner_*, keyless sends, testing_buildBlockV1', async () => {
    const nodev = gw.url('sepolia', 'nodev');
    const victim = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
    const before = (await call(nodev, 'eth_getBalance', [victim, 'latest'])).result;
    for (const [method, params] of [
      ['eth_sendUnsignedTransaction', [{ from: victim, to: '0x00000000000000000000000000000000000000c1', value: '0xde0b6b3a7640000' }]],
      ['miner_stop', []],
      ['miner_start', []],
      ['testing_buildBlockV1', ['0x' + '00'.repeat(32), {}, [], '0x']],
    ] as const) {
      expect((await call(nodev, method, params)).error, method).toEqual({ code: -32601, message: `the method ${method} does not exist/is not available` });
    }
    expect((await call(nodev, 'eth_getBalance', [victim, 'latest'])).result).toBe(before);
  });

  it('start({ devMethods: false }) serves none of them', async () => {
    const own = await start({ port: 0, chains: ['chains/sepolia.json'], devMethods: false });
    try {
      expect((await call(own.url('sepolia'), 'anvil_mine', [])).error).toEqual({
        code: -32601,
        message: 'the method anvil_mine does not exist/is not available',
      });
      expect((await call(own.url('sepolia'), 'eth_sendRawTransaction', ['0x'])).error.code).toBe(-32000);
      // No test tool takes it for anvil (it would call hardhat_mine and meet -32601).
      expect((await call(own.url('sepolia'), 'web3_clientVersion', [])).result).toMatch(/^devgate\/\d+\.\d+\.\d+$/);
    } finally {
      await own.stop();
    }
  });
});
