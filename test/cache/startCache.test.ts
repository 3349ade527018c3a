/** start({ cache }): a second start of the same chains restores them from the cache and answers the same over HTTP. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'devgate-start-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function answers(cache: false | { dir: string }): Promise<unknown[]> {
  const gw = await start({ port: 0, chains: ['test/fixtures/eth/small.json'], cache });
  try {
    const calls = [
      { method: 'eth_getBlockByNumber', params: ['latest', true] },
      { method: 'eth_getBlockByNumber', params: ['pending', false] },
      { method: 'eth_getBalance', params: ['0x00000000000000000000000000000000000000b3', '0x2'] },
      { method: 'eth_getBlockReceipts', params: ['0x2'] },
    ].map((c, id) => ({ jsonrpc: '2.0', id, ...c }));
    const res = await fetch(gw.url('small'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(calls) });
    return (await res.json()) as unknown[];
  } finally {
    await gw.stop();
  }
}

describe('start({ cache })', () => {
  it('stores a built chain, restores it on the next start, and answers as an uncached start', async () => {
    const uncached = await answers(false);
    expect(readdirSync(dir)).toHaveLength(0);
    const first = await answers({ dir });
    expect(readdirSync(dir).filter((f) => f.endsWith('.chain'))).toHaveLength(1);
    const second = await answers({ dir });
    expect(first).toEqual(uncached);
    expect(second).toEqual(uncached);
    expect(JSON.stringify(second)).not.toContain('"error"');
  });

  it('rejects a malformed cache option naming it', async () => {
    await expect(start({ port: 0, chains: ['test/fixtures/eth/small.json'], cache: { dir: '' } })).rejects.toThrow(/cache/);
  });
});
