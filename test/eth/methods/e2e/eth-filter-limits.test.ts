/**
 * Polling filters per API key: at most `maxFiltersPerKey` per key and network (-32005 past it, over HTTP and
 * WebSocket alike), a key sees only its own filters, and uninstalled or expired filters free their place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import WebSocket from 'ws';

let gw: Gateway;
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const KEYS = { open: true, defaultPlan: 'growth', keys: [] };

beforeAll(async () => {
  gw = await start({ port: 0, clock, keys: KEYS, chains: ['chains/sepolia.json'], limits: { maxFiltersPerKey: 3 } });
});
afterAll(() => gw.stop());

const rpc = (key: string, method: string, params: unknown[] = []) => call(gw.url('sepolia', key), method, params);
const wsCall = (key: string, method: string, params: unknown[] = []): Promise<any> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(gw.wsUrl('sepolia', key));
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })));
    ws.once('message', (data) => {
      resolve(JSON.parse(data.toString()));
      ws.close();
    });
  });

describe('filters per key', () => {
  it('holds at most maxFiltersPerKey per key, with a clear -32005 past it; other keys are not affected', async () => {
    const a = [await rpc('key-a', 'eth_newBlockFilter'), await rpc('key-a', 'eth_newFilter', [{}]), await wsCall('key-a', 'eth_newPendingTransactionFilter')];
    expect(a.map((r) => r.result)).toEqual([expect.stringMatching(/^0x/), expect.stringMatching(/^0x/), expect.stringMatching(/^0x/)]);
    const over = await rpc('key-a', 'eth_newBlockFilter');
    expect(over.error).toEqual({
      code: -32005,
      message: 'too many filters for this key (at most 3); uninstall some with eth_uninstallFilter or let them expire (5 minutes unpolled)',
      data: { limit: 3 },
    });
    expect((await wsCall('key-a', 'eth_newFilter', [{}])).error).toMatchObject({ code: -32005 });
    const b = await rpc('key-b', 'eth_newBlockFilter');
    expect(b.result).toMatch(/^0x/);

    // A key sees only its own filters.
    expect((await rpc('key-b', 'eth_getFilterChanges', [a[0].result])).error).toEqual({ code: -32000, message: 'filter not found' });
    expect((await rpc('key-b', 'eth_uninstallFilter', [a[0].result])).result).toBe(false);
    expect((await rpc('key-a', 'eth_getFilterChanges', [a[0].result])).result).toEqual([]);

    // Uninstalling frees a place, from any connection of the key.
    expect((await wsCall('key-a', 'eth_uninstallFilter', [a[0].result])).result).toBe(true);
    expect((await rpc('key-a', 'eth_newBlockFilter')).result).toMatch(/^0x/);
    expect((await rpc('key-a', 'eth_newBlockFilter')).error).toMatchObject({ code: -32005 });

    // Expired filters (5 minutes unpolled) free theirs too.
    clock.advance(5 * 60_000);
    expect((await rpc('key-a', 'eth_newBlockFilter')).result).toMatch(/^0x/);
  });
});
