/**
 * One key cannot hold the gateway: heavy calls per key are bounded (past the slots they wait within a byte budget on
 * devgate's own plan, or answer -32005 on a hosted one; other keys unaffected), proofs are
 * bounded in keys, a silent WebSocket peer is closed after an unanswered ping, and a peer that does not read
 * is closed past the buffered-bytes limit while others go on.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call, post } from '../support/http.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: ['chains/sepolia.json'],
    // A long ping interval here: a busy test process may answer pings late (the ping test has its own gateway).
    // Room for two loop calls (~105 bytes each) to wait for a slot.
    limits: { maxConcurrentHeavy: 2, maxQueuedHeavyBytes: 300, maxBufferedBytes: 64 * 1024 },
    keys: {
      open: true,
      defaultPlan: 'unlimited',
      keys: [
        { key: 'hosted', plan: 'growth' },
        { key: 'one', plan: 'growth', limits: { maxConcurrentHeavy: 1 } },
      ],
    },
  });
});
afterAll(() => gw.stop());

const loop = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'eth_call', params: [{ data: `0x5b6000560${i}`, gas: '0x2faf080' }, 'latest'] });

describe('fair sharing', () => {
  it('a key on a hosted plan runs at most maxConcurrentHeavy heavy calls at once; the rest answer -32005; another key is served meanwhile', async () => {
    const url = gw.url('sepolia', 'hosted');
    const answers = Promise.all([0, 1, 2].map((i) => post(url, loop(i))));
    await new Promise((r) => setTimeout(r, 50));
    const other = await call(gw.url('sepolia', 'other'), 'eth_call', [{ to: '0x5fbdb2315678afecb367f032d93f642f64180aa3', data: '0x18160ddd' }, 'latest']);
    expect(other.result).toMatch(/^0x[0-9a-f]{64}$/);
    const codes = (await answers).map((r) => r.json.error.code).sort((a: number, b: number) => a - b);
    expect(codes).toEqual([-32005, -32000, -32000]);
    const refused = (await answers).find((r) => r.json.error.code === -32005)!.json.error;
    expect(refused).toMatchObject({ message: expect.stringMatching(/^too many concurrent requests: at most 2 heavy calls/), data: { limit: 2 } });
    // Cheap calls of the busy key are never refused.
    expect((await call(url, 'eth_blockNumber')).result).toBe('0x28');
  });

  it("on devgate's own plan, calls past the slots wait their turn and are answered; past maxQueuedHeavyBytes: -32005", async () => {
    // As anvil answers a test suite's Promise.all of calls: none is refused while the waiting ones fit the budget.
    const url = gw.url('sepolia', 'busy');
    const short = (i: number) => ({ ...loop(i), params: [{ data: `0x5b6000560${i}`, gas: '0x989680' }, 'latest'] });
    const answers = await Promise.all([0, 1, 2, 3, 4].map((i) => post(url, short(i))));
    const errors = answers.map((r) => r.json.error);
    const refused = errors.filter((e) => e.code === -32005);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      message: expect.stringMatching(/heavy calls .* of one key at once, and at most 300 bytes of requests waiting for one$/),
      data: { limit: 2, maxWaitingBytes: 300 },
    });
    // The other four ran, two at a time: each the loop's own error (out of gas), not a refusal.
    expect(errors.filter((e) => e.code !== -32005).map((e) => e.code)).toEqual([-32000, -32000, -32000, -32000]);
  });

  it("a key's own maxConcurrentHeavy in the keys file wins", async () => {
    const url = gw.url('sepolia', 'one');
    const codes = (await Promise.all([0, 1].map((i) => post(url, loop(i))))).map((r) => r.json.error.code).sort((a: number, b: number) => a - b);
    expect(codes).toEqual([-32005, -32000]);
  });

  it('eth_getProof takes at most 1,024 storage keys', async () => {
    const keys = Array.from({ length: 1025 }, (_, i) => '0x' + i.toString(16));
    const r = await call(gw.url('sepolia'), 'eth_getProof', ['0x5fbdb2315678afecb367f032d93f642f64180aa3', keys, 'latest']);
    expect(r.error).toMatchObject({ code: -32005, message: 'too many storage keys: at most 1024 in one eth_getProof, got 1025' });
  });
});

describe('WebSocket peers', () => {
  it('a peer that answers no ping is closed; one that answers stays', async () => {
    const pinging = await start({ port: 0, chains: ['chains/sepolia.json'], limits: { wsPingIntervalMs: 300 } });
    const silent = new WebSocket(pinging.wsUrl('sepolia'), { autoPong: false });
    const polite = new WebSocket(pinging.wsUrl('sepolia'));
    await Promise.all([silent, polite].map((ws) => new Promise((r) => ws.once('open', r))));
    const closed = await new Promise<number>((resolve) => silent.once('close', (code) => resolve(code)));
    expect(closed).toBe(1006);
    expect(polite.readyState).toBe(WebSocket.OPEN);
    polite.close();
    await pinging.stop();
  });

  it('a peer that does not read is closed past maxBufferedBytes (1008); others keep their notifications', async () => {
    const slow = new WebSocket(gw.wsUrl('sepolia'));
    const fine = new WebSocket(gw.wsUrl('sepolia'));
    await Promise.all([slow, fine].map((ws) => new Promise((r) => ws.once('open', r))));
    await new Promise((r) => {
      fine.once('message', r);
      fine.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    });
    let fineCount = 0;
    fine.on('message', () => fineCount++);
    // The slow peer stops reading and asks for ~30 MB of answers: the kernel's buffers fill, then devgate's.
    const socket = (slow as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    const closing = new Promise<number>((resolve) => slow.once('close', (code) => resolve(code)));
    const ask = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_getCode', params: ['0x5fbdb2315678afecb367f032d93f642f64180aa3', 'latest'] });
    for (let i = 0; i < 4000; i++) slow.send(ask);
    await new Promise((r) => setTimeout(r, 1500));
    await call(gw.url('sepolia'), 'anvil_mine', ['0x5']);
    socket.resume();
    expect(await closing).toBe(1008);
    for (let i = 0; i < 200 && fineCount < 5; i++) await new Promise((r) => setTimeout(r, 25));
    expect(fineCount).toBe(5);
    fine.close();
  });
});
