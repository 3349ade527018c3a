/** Long JSON answers (sent as bytes encoded once) carry the same body and a Content-Length that matches it. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 1 }], keys: { open: true, defaultPlan: 'growth' } });
});
afterAll(() => gw.stop());

function post(body: string): Promise<{ status: number; length: string | undefined; type: string | undefined; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: gw.port, path: '/alpha/v3/k', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], type: res.headers['content-type'], bytes: Buffer.concat(parts) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('long answers', () => {
  for (const count of [1, 200]) {
    it(`a batch of ${count} answers with multi-byte text`, async () => {
      const calls = Array.from({ length: count }, (_, i) => ({ jsonrpc: '2.0', id: `ñ-${i}-€`, method: `eth_ünknown_${'é'.repeat(40)}` }));
      const res = await post(JSON.stringify(calls));
      expect(res.status).toBe(200);
      expect(res.type).toBe('application/json; charset=utf-8');
      expect(Number(res.length)).toBe(res.bytes.length);
      const answers = JSON.parse(res.bytes.toString('utf8')) as { id: string; error: { message: string } }[];
      expect(answers).toHaveLength(count);
      expect(answers[count - 1]!.id).toBe(`ñ-${count - 1}-€`);
      expect(answers[0]!.error.message).toContain('é'.repeat(40));
      if (count > 1) expect(res.bytes.length).toBeGreaterThan(16_384 * 1.2);
    });
  }
});
