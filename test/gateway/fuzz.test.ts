/**
 * A property-based fuzz (fast-check) of the JSON-RPC envelope and of every method's params on every network:
 * each answer is a valid JSON-RPC answer, never an internal error and never a stack trace, and afterwards a fixed
 * set of reads and calls on every network answers exactly as before. Methods that change the chain when they
 * succeed (dev and devnet controls, sends) are fuzzed with devMethods off or left to the refusals' tests.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../../src/eth/methods/index.js';
import { start, type Gateway } from '../../src/index.js';
import { rollupMethods } from '../../src/rollup/methods/index.js';
import { post } from '../support/http.js';

const NETS = ['sepolia', 'starknet-mainnet'] as const;
/** Succeeding calls of these change chain data by design; a fuzz must not hit them by chance. */
const CHANGES_CHAIN = /^(devnet_|rollup_addInvokeTransaction|starknet_add|eth_send|eth_signTransaction)/;
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

let gw: Gateway;
beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json', 'chains/starknet-mainnet.json'], devMethods: false });
});
afterAll(() => gw.stop());

const probes: Record<(typeof NETS)[number], unknown[]> = {
  sepolia: [
    { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: TOKEN, data: '0x18160ddd' }, 'latest'] },
    { jsonrpc: '2.0', id: 2, method: 'eth_getBlockByNumber', params: ['latest', true] },
    { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'latest'] },
    { jsonrpc: '2.0', id: 4, method: 'txpool_status', params: [] },
  ],
  'starknet-mainnet': [
    { jsonrpc: '2.0', id: 1, method: 'rollup_blockNumber', params: [] },
    { jsonrpc: '2.0', id: 2, method: 'rollup_getBlockWithTxHashes', params: ['latest'] },
  ],
};
const snapshot = async () => Promise.all(NETS.map(async (n) => (await post(gw.url(n), probes[n])).text));

/** Hostile JSON values: huge hex, deep nesting, prototype names, wrong types. */
const hostile = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    {
      weight: 5,
      arbitrary: fc.constantFrom(
        'latest',
        'pending',
        'earliest',
        '0x',
        '0x0',
        '0x1',
        '0x' + 'f'.repeat(65),
        '0x' + 'ab'.repeat(20),
        '0x' + '11'.repeat(32),
        '__proto__',
        'constructor',
        'toString',
        '',
      ),
    },
    fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 80 }).map((h: string) => '0x' + h),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.string({ maxLength: 20 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom(
        'to',
        'from',
        'data',
        'input',
        'gas',
        'value',
        'address',
        'topics',
        'fromBlock',
        'toBlock',
        'blockHash',
        'block_id',
        '__proto__',
        'constructor',
        'block_number',
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

function assertAnswer(json: any, id: unknown): void {
  const answers = Array.isArray(json) ? json : [json];
  for (const a of answers) {
    expect(a.jsonrpc).toBe('2.0');
    expect('result' in a !== 'error' in a).toBe(true);
    if ('error' in a) {
      expect(Number.isInteger(a.error.code)).toBe(true);
      expect(a.error.code).not.toBe(-32603);
      expect(typeof a.error.message).toBe('string');
      expect(JSON.stringify(a.error)).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
    }
  }
  if (!Array.isArray(json) && id !== undefined) expect(json.id).toEqual(id);
}

describe('fuzz', () => {
  it('every method of every network, with hostile params: valid answers, no internal error, chain data unchanged', async () => {
    const before = await snapshot();
    const tables = { sepolia: ethMethods(), 'starknet-mainnet': rollupMethods('starknet') };
    const methods = {
      sepolia: tables.sepolia.names().filter((m) => !CHANGES_CHAIN.test(m)),
      'starknet-mainnet': tables['starknet-mainnet'].names().filter((m) => !CHANGES_CHAIN.test(m)),
    };
    // Every method gets its own runs (a random pick over ~60 methods would leave some barely tried).
    for (const net of NETS) {
      for (const method of methods[net]) {
        // Mostly as many params as the method takes (so they reach its decoders), sometimes any number.
        const arity = tables[net].get(method)!.params.length;
        const paramsArb = fc.oneof(
          { weight: 4, arbitrary: fc.array(hostile, { minLength: arity, maxLength: arity }) },
          { weight: 1, arbitrary: fc.array(hostile, { maxLength: 4 }) },
        );
        await fc.assert(
          fc.asyncProperty(paramsArb, fc.nat(3), async (params, named) => {
            const body = {
              jsonrpc: '2.0',
              id: 7,
              method,
              params: named === 0 && params.length > 0 ? { block_id: params[0], [String(named)]: params[1] ?? null } : params,
            };
            const r = await post(gw.url(net), body);
            expect(r.status).toBe(200);
            assertAnswer(r.json, 7);
          }),
          { numRuns: 100, seed: 20261124 },
        );
      }
    }
    expect(await snapshot()).toEqual(before);
  }, 240_000); // ~15 s on a quiet machine; a fixed number of runs, so a loaded one only takes longer

  it('hostile envelopes: valid answers, never an internal error', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...NETS), hostile, async (net, message) => {
        const r = await post(gw.url(net), JSON.stringify(message));
        if (r.status !== 200) return;
        if (r.json !== undefined) assertAnswer(r.json, undefined);
      }),
      { numRuns: 400, seed: 7 },
    );
    expect(await snapshot()).toEqual(before);
  });
});
