/**
 * Restarting a fork with the same cache directory: what the first run fetched (the fork block's header, proof nodes,
 * code) comes from the disk cache, so the second start and the same reads ask the upstream only eth_chainId.
 * Upstream requests are counted by a proxy in front of a second devgate (the small test seed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';

const SMALL = 'test/fixtures/eth/small.json';
const AA = '0x00000000000000000000000000000000000000aa';
let up: Gateway;
let proxy: Server;
let proxyUrl: string;
let dir: string;
const seen: string[] = [];

beforeAll(async () => {
  up = await start({ port: 0, chains: [SMALL] });
  const target = up.url('small');
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body);
      for (const c of Array.isArray(parsed) ? parsed : [parsed]) seen.push(c.method);
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
  dir = mkdtempSync(join(tmpdir(), 'devgate-fork-restart-'));
});
afterAll(async () => {
  await up?.stop();
  await new Promise<void>((r) => proxy.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the fork, reads 0xaa's balance, code, a slot and a call, and stops; gives the upstream methods it asked. */
async function run(): Promise<{ methods: string[]; answers: unknown[] }> {
  seen.length = 0;
  const gw = await start({ port: 0, chains: [{ name: 'tiny', kind: 'eth', chainId: 5 }], fork: { url: proxyUrl, blockNumber: 2 }, cache: { dir } });
  const url = gw.bareUrl();
  const answers = [];
  for (const [method, params] of [
    ['eth_getBalance', [AA, 'latest']],
    ['eth_getCode', [AA, 'latest']],
    ['eth_getStorageAt', [AA, '0x1', 'latest']],
    ['eth_call', [{ to: AA }, 'latest']],
  ] as const) {
    answers.push((await call(url, method, params)).result);
  }
  await gw.stop();
  return { methods: [...seen], answers };
}

describe('a fork restarted with the same cache', () => {
  it('asks the upstream only eth_chainId the second time, and answers the same', async () => {
    const first = await run();
    expect(first.methods).toContain('eth_getProof');
    expect(first.answers[3]).toBe(`0x${'2a'.padStart(64, '0')}`);
    const second = await run();
    expect(second.methods).toEqual(['eth_chainId']);
    expect(second.answers).toEqual(first.answers);
  });
});
