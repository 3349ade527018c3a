/**
 * Tracing across forks: every block of hive's test chain (test/fixtures/execution-apis: homestead to the merge, then
 * shanghai, cancun, prague, osaka, bpo1, bpo2; blob, set-code, access-list and legacy transactions, contract
 * creations, system contracts) traced with callTracer and the struct logger, each transaction held to its receipt:
 * gas used, success, the created contract. Blocks at a fork boundary run under their own rules (a VM of their own);
 * before Byzantium on a VM of their own too.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { UNLIMITED } from '../../../methods/seed.js';
import { call } from '../../../../support/http.js';

const SEED = fileURLToPath(new URL('../../../../conformance/seed.json', import.meta.url));

let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], keys: UNLIMITED });
  url = gw.url('hive');
});
afterAll(async () => {
  await gw?.stop();
});

const result = async (method: string, params: unknown[]) => {
  const res = await call(url, method, params);
  expect(res.error, `${method} ${JSON.stringify(params)}`).toBeUndefined();
  return res.result;
};

describe('hive test chain', () => {
  it('every transaction of every block traces to its receipt', async () => {
    const head = Number(await result('eth_blockNumber', []));
    let traced = 0;
    const types = new Set<string>();
    for (let n = 1; n <= head; n++) {
      const tag = '0x' + n.toString(16);
      const receipts: any[] = await result('eth_getBlockReceipts', [tag]);
      const calls: any[] = await result('debug_traceBlockByNumber', [tag, { tracer: 'callTracer' }]);
      const structs: any[] = await result('debug_traceBlockByNumber', [tag, { disableStack: true, disableStorage: true }]);
      expect(calls.map((t) => t.txHash)).toEqual(receipts.map((r) => r.transactionHash));
      receipts.forEach((r, i) => {
        const at = `block ${n} tx ${i} (type ${r.type})`;
        types.add(r.type);
        expect(calls[i].result.gasUsed, at).toBe(r.gasUsed);
        expect(structs[i].result.gas, at).toBe(Number(r.gasUsed));
        if (r.status !== undefined) {
          expect(calls[i].result.error === undefined, at).toBe(r.status === '0x1');
          expect(structs[i].result.failed, at).toBe(r.status === '0x0');
        }
        if (r.contractAddress && r.status === '0x1') expect(calls[i].result, at).toMatchObject({ type: 'CREATE', to: r.contractAddress });
        traced++;
      });
    }
    expect(traced).toBeGreaterThan(50);
    expect([...types].sort()).toEqual(['0x0', '0x1', '0x2', '0x3', '0x4']);
  }, 120_000);
});
