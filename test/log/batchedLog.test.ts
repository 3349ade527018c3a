/**
 * The node log on a stream (the CLI's stdout) gathers its lines and writes them together (src/log/batchedWrite.ts):
 * before, every request's method line was one write to the stream, made before the request's answer (at one request
 * in flight, a system call per request: ~25 µs of a cheap read's ~95 µs of server CPU). Lines keep their order and
 * none is lost: stop() writes what is left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';

const ALPHA = { name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } };
const CALLS = 200;

let gw: Gateway | undefined;
const writes: string[] = [];
beforeAll(async () => {
  gw = await start({ port: 0, chains: [ALPHA], bare: 'none', log: { write: (text: string) => writes.push(text) } });
});
afterAll(() => gw?.stop());

describe('the node log on a stream', () => {
  it('writes the lines of many calls in a few writes, in order, and all of them by stop()', async () => {
    const batch = Array.from({ length: CALLS }, (_, i) => ({ jsonrpc: '2.0', id: i, method: i % 2 === 0 ? 'eth_blockNumber' : 'eth_chainId' }));
    const before = writes.length;
    const reply = await post(gw!.url('alpha'), batch);
    expect(reply.json).toHaveLength(CALLS);
    await gw!.stop();
    gw = undefined;
    const made = writes.slice(before);
    // A write per line before; now one per 10 ms (or 64 KB): a 200-call batch takes a few ms, so a tenth of the lines
    // is far more than the writes even a slow machine makes.
    expect(made.length).toBeLessThanOrEqual(CALLS / 10);
    expect(made.join('')).toBe(batch.map((c) => `${c.method}\n`).join(''));
  });
});
