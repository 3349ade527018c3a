/**
 * Raw bytes of pooled transactions, as geth's pool gives them: every transaction execution-apis sends in its
 * eth_sendRawTransaction fixtures (legacy, access list, dynamic fee, and a blob transaction in its network form,
 * with blobs, commitments and proofs), sent to hive's test chain with mining off, comes back from
 * debug_getRawTransaction and eth_getRawTransactionByHash as the very bytes sent; the pending block carries the blob
 * transaction without its blobs (as a block does), and those bytes hash to its hash.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keccak256, type Hex } from 'viem';
import { start, type Gateway } from '../../../../src/index.js';
import { FIXTURES, parseIo } from '../../../conformance/io.js';
import { result } from '../../../support/http.js';
import { UNLIMITED } from '../../methods/seed.js';

const SEED = fileURLToPath(new URL('../../../conformance/seed.json', import.meta.url));
const DIR = join(FIXTURES, 'eth_sendRawTransaction');

let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], keys: UNLIMITED });
  url = gw.url('hive');
});
afterAll(async () => {
  await gw?.stop();
});

describe('pooled transactions', () => {
  it('come back as the bytes sent (a blob transaction with its blobs); the pending block holds them without blobs', async () => {
    const sent: { raw: string; hash: string }[] = [];
    for (const file of readdirSync(DIR).sort()) {
      const fixture = parseIo(`eth_sendRawTransaction/${file}`, readFileSync(join(DIR, file), 'utf8'));
      for (const { request, response } of fixture.exchanges) {
        const raw = JSON.parse(request).params[0] as string;
        const hash = (response as { result?: string }).result;
        if (hash === undefined) continue;
        expect(await result(url, 'eth_sendRawTransaction', [raw])).toBe(hash);
        sent.push({ raw, hash });
      }
    }
    expect(sent.some((s) => s.raw.startsWith('0x03'))).toBe(true);
    for (const { raw, hash } of sent) {
      expect(await result(url, 'debug_getRawTransaction', [hash])).toBe(raw);
      expect(await result(url, 'eth_getRawTransactionByHash', [hash])).toBe(raw);
    }
    const pending = await result(url, 'eth_getBlockByNumber', ['pending', false]);
    expect(pending.transactions).toContain(sent.find((s) => s.raw.startsWith('0x03'))!.hash);
    for (const [i, hash] of (pending.transactions as string[]).entries()) {
      const inBlock: Hex = await result(url, 'eth_getRawTransactionByBlockNumberAndIndex', ['pending', '0x' + i.toString(16)]);
      expect(keccak256(inBlock)).toBe(hash);
      const pooled = sent.find((s) => s.hash === hash)!.raw;
      if (pooled.startsWith('0x03')) expect(inBlock.length).toBeLessThan(pooled.length);
      else expect(inBlock).toBe(pooled);
    }
  });
});
