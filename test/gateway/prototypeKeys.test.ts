/**
 * Client strings that name Object.prototype's members (`__proto__`, `constructor`, ...) as method names, param
 * names, keys and header values, over HTTP and WebSocket: each gets its proper answer, and afterwards every network
 * answers a fixed set of reads and calls exactly as before, and Object.prototype is as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { post, WsClient } from '../support/http.js';
import { rpc } from './helpers.js';

const HOSTILE = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const ETH_NETS = ['mainnet', 'sepolia'];
const ROLLUP = 'starknet-mainnet';

let gw: Gateway;
let admin: string;
const bearer = () => ({ authorization: `Bearer ${gw.adminToken}` });
const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();

/** A fixed set of reads and calls per network; their answers must not change. */
function probes(net: string): unknown[] {
  if (net === ROLLUP) {
    return [rpc('rollup_blockNumber', [], 1), rpc('rollup_chainId', [], 2), rpc('rollup_getBlockWithTxHashes', ['latest'], 3)];
  }
  return [
    rpc('eth_call', [{ to: TOKEN, data: '0x18160ddd' }, 'latest'], 1),
    rpc('eth_blockNumber', [], 2),
    rpc('eth_getBalance', [TOKEN, 'latest'], 3),
    rpc('eth_getBlockByNumber', ['0x1', false], 4),
    rpc('eth_estimateGas', [{ to: TOKEN, data: '0x18160ddd' }], 5),
    rpc('eth_getProof', [TOKEN, ['0x0'], 'latest'], 6),
  ];
}

async function answers(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const net of [...ETH_NETS, ROLLUP]) out[net] = (await post(gw.url(net), probes(net))).text;
  return out;
}

let before: Record<string, string>;

beforeAll(async () => {
  gw = await start({ port: 0 });
  admin = `http://127.0.0.1:${gw.port}/admin`;
  before = await answers();
  for (const net of ETH_NETS) expect(JSON.parse(before[net]!)[0].result).toMatch(/^0x[0-9a-f]{64}$/);
});
afterAll(() => gw.stop());

describe('names of Object.prototype members from clients', () => {
  it('as method names over HTTP, singly and in batches, on every network', async () => {
    for (const net of [...ETH_NETS, ROLLUP]) {
      for (const name of HOSTILE) {
        const r = await post(gw.url(net), { jsonrpc: '2.0', method: name, params: ['0x' + 'f'.repeat(65), []], id: null });
        expect(r.status).toBe(200);
        expect(r.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32601, message: `the method ${name} does not exist/is not available` } });
        const batch = await post(gw.url(net), [rpc(name, [], 1), { ...rpc(name, [], 2), params: { [name]: 1 } }]);
        expect(batch.json.map((x: any) => x.error.code)).toEqual([-32601, -32601]);
      }
    }
  });

  it('as method names over WebSocket', async () => {
    for (const net of [...ETH_NETS, ROLLUP]) {
      const ws = await WsClient.open(gw.wsUrl(net, 'wskey'));
      for (const name of HOSTILE) expect((await ws.request(rpc(name, [], 7))).error.code).toBe(-32601);
      ws.socket.close();
    }
  });

  it('as param names: call objects, filters, block selectors and named rollup params', async () => {
    for (const name of HOSTILE) {
      const extra = JSON.parse(`{"${name}": {"gas": "0x1", "to": "0x${'ab'.repeat(20)}"}}`);
      const call = await post(gw.url('mainnet'), rpc('eth_call', [{ to: TOKEN, data: '0x18160ddd', ...extra }, 'latest']));
      // An unknown member of a call object is ignored, as geth ignores it.
      expect(call.json.result).toBe(JSON.parse(before.mainnet!)[0].result);
      const sel = await post(gw.url('mainnet'), rpc('eth_getBalance', [TOKEN, JSON.parse(`{"${name}": "0x1"}`)]));
      expect(sel.json.error?.code ?? 0).not.toBe(-32603);
      const logs = await post(gw.url('mainnet'), rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x1', ...extra }]));
      expect(logs.json.error?.code ?? 0).not.toBe(-32603);
      const named = await post(gw.url(ROLLUP), rpc('rollup_getBlockWithTxHashes', JSON.parse(`{"${name}": 1}`)));
      expect(named.json.error.code).toBe(-32602);
      const blockId = await post(gw.url(ROLLUP), rpc('rollup_getBlockWithTxHashes', [JSON.parse(`{"${name}": 1}`)]));
      expect(blockId.json.error.code).toBe(-32602);
    }
  });

  it('as keys and header values', async () => {
    for (const name of HOSTILE.filter((n) => /^[A-Za-z0-9_-]+$/.test(n))) {
      const r = await post(gw.url('mainnet', name), rpc('eth_chainId'), { origin: name, 'user-agent': name, [name.toLowerCase()]: name });
      expect(r.json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' });
      const ws = await WsClient.open(gw.wsUrl('sepolia', name));
      expect((await ws.request(rpc('eth_chainId'))).result).toBe('0xaa36a7');
      ws.socket.close();
    }
    const usage = (await post(admin, rpc('devgate_getUsage', ['__proto__']), bearer())).json.result;
    expect(usage.total.methods.eth_chainId.requests).toBeGreaterThan(0);
    const byMethod = (await post(admin, rpc('devgate_getUsage', ['devgate']), bearer())).json.result.total.methods;
    expect(Object.hasOwn(byMethod, '__proto__')).toBe(true);
    // biome-ignore lint/suspicious/noProto: the test reads what a client's method name `__proto__` was counted as
    expect(byMethod.__proto__).toEqual({ requests: expect.any(Number), credits: expect.any(Number) });
  });

  it('leave every network answering as before, and Object.prototype untouched', async () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
    expect(({} as any).requests).toBeUndefined();
    expect(await answers()).toEqual(before);
  });
});
