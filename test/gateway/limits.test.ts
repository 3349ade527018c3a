/** Request limits: body and message size, batch size, HTTP timeouts; the open default; limits changed at run time. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { ask, chain, closeCode, openWs, rpc } from './helpers.js';

const FIVE_MB = 5 * 1024 * 1024;
let gw: Gateway;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [chain('alpha')] });
});
afterAll(() => gw.stop());

/** Opens a raw TCP connection, writes `text`, and resolves with what came back once the server closes it. */
function rawUntilClosed(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (c) => (data += c.toString()));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open'));
    }, 10_000);
  });
}

describe('size limits', () => {
  it('answers a body over 5 MB with 413 and a JSON-RPC error', async () => {
    const body = JSON.stringify(rpc('eth_chainId', ['x'.repeat(FIVE_MB)]));
    const r = await post(gw.url('alpha', 'big1'), body);
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005, message: expect.stringMatching(/5242880 bytes/) } });
  });

  it('closes a WebSocket that sends a message over 5 MB with code 1009', async () => {
    const ws = await openWs(gw.wsUrl('alpha', 'big2'));
    const code = closeCode(ws);
    ws.send('x'.repeat(FIVE_MB + 1));
    expect(await code).toBe(1009);
  });

  it('answers a batch over 1,000 calls with one -32005 error, at no cost', async () => {
    const batch = Array.from({ length: 1001 }, (_, i) => rpc('eth_chainId', [], i));
    const r = await post(gw.url('alpha', 'batch1'), batch);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005 } });
    expect(r.json.error.message).toMatch(/1001.*1000/);
    expect(gw.policy.getUsage('batch1').total.credits).toBe(0);
    const ws = await openWs(gw.wsUrl('alpha', 'batch1'));
    expect((await ask(ws, batch)).error.code).toBe(-32005);
    ws.close();
  });
});

describe('timeouts', () => {
  let slow: Gateway;
  beforeAll(async () => {
    slow = await start({ port: 0, chains: [chain('alpha')], limits: { requestTimeoutMs: 400, headersTimeoutMs: 300, keepAliveTimeoutMs: 200 } });
  });
  afterAll(() => slow.stop());

  it('closes a connection whose headers never finish', async () => {
    const reply = await rawUntilClosed(slow.port, 'POST /alpha/v3/slow HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('closes a connection whose body never finishes', async () => {
    const reply = await rawUntilClosed(
      slow.port,
      'POST /alpha/v3/slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('closes an idle keep-alive connection', async () => {
    const body = JSON.stringify(rpc('eth_chainId'));
    const reply = await rawUntilClosed(
      slow.port,
      `POST /alpha/v3/idle HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply).toContain('"result":"0x1"');
  });
});

describe('the open default', () => {
  it('accepts any well-formed key, with no rate or daily limit', async () => {
    expect((await post(gw.url('alpha', 'anything-at-all'), rpc('eth_chainId'))).status).toBe(200);
    const usage = gw.policy.getUsage('anything-at-all');
    expect(usage).toMatchObject({ plan: 'unlimited', limits: { creditsPerSecond: null, creditsPerDay: null }, today: { credits: 5 } });
    const batch = Array.from({ length: 1000 }, (_, i) => rpc('eth_blockNumber', [], i));
    for (let i = 0; i < 3; i++) expect((await post(gw.url('alpha', 'open-dev'), batch)).status).toBe(200);
  });

  it("applies a plan's limits once asked to (as --plan does)", async () => {
    gw.policy.setKeysMode({ defaultPlan: 'developer' });
    try {
      const batch = Array.from({ length: 51 }, (_, i) => rpc('eth_blockNumber', [], i));
      const r = await post(gw.url('alpha', 'open-dev-plan'), batch);
      expect(r.status).toBe(429);
      expect(r.json.error.data.rate).toMatchObject({ allowed_rps: 4000, current_rps: 4080 });
    } finally {
      gw.policy.setKeysMode({ defaultPlan: 'unlimited' });
    }
  });

  it('can put unlisted keys on another plan', async () => {
    gw.policy.setKeysMode({ defaultPlan: 'growth' });
    try {
      const batch = Array.from({ length: 1000 }, (_, i) => rpc('eth_blockNumber', [], i));
      expect((await post(gw.url('alpha', 'open-growth'), batch)).status).toBe(200);
      expect((await post(gw.url('alpha', 'open-growth'), batch)).status).toBe(200);
    } finally {
      gw.policy.setKeysMode({ defaultPlan: 'unlimited' });
    }
  });
});

describe('limits at run time', () => {
  it('changes the batch and body limits and names a bad value', async () => {
    const before = gw.policy.getLimits();
    expect(before).toMatchObject({ maxBatch: 1000, maxBodyBytes: FIVE_MB, maxMessageBytes: FIVE_MB, requestTimeoutMs: 30_000 });
    try {
      expect(gw.policy.setLimits({ maxBatch: 2, maxBodyBytes: 200 })).toMatchObject({ maxBatch: 2, maxBodyBytes: 200 });
      const r = await post(gw.url('alpha', 'rt1'), [rpc('eth_chainId', [], 1), rpc('eth_chainId', [], 2), rpc('eth_chainId', [], 3)]);
      expect(r.json.error).toMatchObject({ code: -32005, message: expect.stringMatching(/limit of 2/) });
      expect((await post(gw.url('alpha', 'rt1'), rpc('eth_chainId', ['y'.repeat(300)]))).status).toBe(413);
      expect(() => gw.policy.setLimits({ maxBatch: 0 })).toThrow(/maxBatch/);
      expect(() => gw.policy.setLimits({ headersTimeoutMs: 40_000 })).toThrow(/headersTimeoutMs.*requestTimeoutMs/);
      expect(() => gw.policy.setLimits({ maxBtach: 3 } as never)).toThrow(/maxBtach/);
    } finally {
      gw.policy.setLimits(before);
    }
    expect(gw.policy.getLimits()).toEqual(before);
  });

  it('rejects bad limits and keys at start with a message naming the field', async () => {
    await expect(start({ port: 0, chains: [chain('x')], limits: { maxBatch: -1 } })).rejects.toThrow(/limits\.maxBatch/);
    await expect(start({ port: 0, chains: [chain('x')], keys: { keys: [{ key: 'k', plan: 'gold' }] } })).rejects.toThrow(/keys\[0\]\.plan/);
    await expect(start({ port: 0, chains: [chain('x')], keys: '/nonexistent/keys.json' })).rejects.toThrow(/cannot read keys file/);
  });
});
