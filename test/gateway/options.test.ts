/** start() options of the HTTP front: with rawHttp off, node:http answers every request, byte for byte as the raw front does. */
import { describe, expect, it } from 'vitest';
import { start } from '../../src/index.js';
import { post } from '../support/http.js';

describe('rawHttp: false', () => {
  it('answers the same bodies and statuses through node:http', async () => {
    const raw = await start({ port: 0, chains: ['chains/sepolia.json'] });
    const plain = await start({ port: 0, chains: ['chains/sepolia.json'], rawHttp: false });
    try {
      for (const body of [
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        [
          { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
          { jsonrpc: '2.0', id: 2, method: 'nope' },
        ],
        { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['0x12'] },
      ]) {
        const a = await post(raw.url('sepolia'), body);
        const b = await post(plain.url('sepolia'), body);
        expect([b.status, b.text, b.headers.get('content-type')]).toEqual([a.status, a.text, a.headers.get('content-type')]);
      }
    } finally {
      await Promise.all([raw.stop(), plain.stop()]);
    }
  });
});
