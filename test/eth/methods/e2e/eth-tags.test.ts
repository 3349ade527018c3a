/** `safe` and `finalized` trail `latest` by the seed's depths (defaults 32 and 64), clamped at genesis. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';

let gw: Gateway;
const blocks = Array.from({ length: 5 }, () => ({}));

beforeAll(async () => {
  gw = await start({
    port: 0,
    cache: false,
    chains: [
      { name: 'shallow', kind: 'eth', chainId: 1, accounts: { count: 1 }, blocks, safeDepth: 2, finalizedDepth: 3 },
      { name: 'defaults', kind: 'eth', chainId: 2, accounts: { count: 1 }, blocks },
    ],
  });
});
afterAll(() => gw.stop());

const numberOf = async (network: string, tag: string) => (await call(gw.url(network), 'eth_getBlockByNumber', [tag, false])).result.number;

describe('safe and finalized tags', () => {
  it('trail latest by the depths the seed sets', async () => {
    expect(await numberOf('shallow', 'latest')).toBe('0x5');
    expect(await numberOf('shallow', 'safe')).toBe('0x3');
    expect(await numberOf('shallow', 'finalized')).toBe('0x2');
  });

  it('default to 32 and 64 blocks, clamped at genesis', async () => {
    expect(await numberOf('defaults', 'safe')).toBe('0x0');
    expect(await numberOf('defaults', 'finalized')).toBe('0x0');
  });

  it('reject a negative depth naming the field', async () => {
    await expect(start({ port: 0, cache: false, chains: [{ name: 'bad', kind: 'eth', chainId: 1, safeDepth: -1 }] })).rejects.toThrow(/safeDepth/);
  });
});
