/**
 * The contracts allowlist reads each method's `reveals` fact (issue 25): a key allowed only `Token` on the shipped
 * mainnet chain cannot read `StorageLayout` or `Emitter` through proofs, traces, simulation, state overrides, access
 * lists, log filters or log subscriptions; every refusal is the allowlist's 403 / -32002. Its own contract stays readable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { post } from '../support/http.js';
import { ask, openWs, rpc } from './helpers.js';

// The seed's first block deploys Token, StorageLayout, Reverter, Emitter from dev account 0 (nonces 0-3).
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const LAYOUT = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const EMITTER = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
const FORBIDDEN = { code: -32002, message: 'rejected due to project ID settings' };
/** StorageLayout.a() */
const GET_A = '0x0dbe671f';
/** Code that forwards its calldata to StorageLayout (STATICCALL) and returns the answer: a proxy set by state override. */
const PROXY = `0x3660006000376000600036600073${LAYOUT.slice(2)}5afa3d600060003e3d6000f3`;

let gw: Gateway;
let url: string;
let open: string;
beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: ['chains/mainnet.json'],
    keys: {
      keys: [
        { key: 'token', plan: 'growth', allowlist: { contracts: [TOKEN] } },
        { key: 'open', plan: 'growth' },
      ],
    },
  });
  url = gw.url('mainnet', 'token');
  open = gw.url('mainnet', 'open');
});
afterAll(() => gw.stop());

const status = async (method: string, params: unknown[]) => (await post(url, rpc(method, params))).status;

describe('the contracts allowlist reads the reveals facts', () => {
  it('eth_getProof of another contract is refused; of the allowed one answered', async () => {
    expect(await status('eth_getProof', [LAYOUT, ['0x0'], 'latest'])).toBe(403);
    expect(await status('eth_getProof', [TOKEN, ['0x0'], 'latest'])).toBe(200);
  });

  it('debug_traceCall to another contract, or with a state override naming one, is refused', async () => {
    expect(await status('debug_traceCall', [{ to: LAYOUT, data: GET_A }, 'latest', { tracer: 'prestateTracer' }])).toBe(403);
    expect(await status('debug_traceCall', [{ to: TOKEN, data: GET_A }, 'latest', { stateOverrides: { [TOKEN]: { code: PROXY } } }])).toBe(403);
    expect(await status('debug_traceCall', [{ to: TOKEN, data: '0x18160ddd' }, 'latest', { tracer: 'callTracer' }])).toBe(200);
  });

  it('debug_traceTransaction and block traces are refused (what they touch is not known from the params)', async () => {
    const block = (await post(open, rpc('eth_getBlockByNumber', ['0x1', false]))).json.result;
    const tx = block.transactions[0];
    expect(await status('debug_traceTransaction', [tx, { tracer: 'prestateTracer' }])).toBe(403);
    expect(await status('debug_traceBlockByNumber', ['0x1', { tracer: 'prestateTracer' }])).toBe(403);
    expect(await status('debug_traceBlockByHash', [block.hash])).toBe(403);
  });

  it('eth_simulateV1 calling another contract is refused; calling the allowed one answered', async () => {
    const sim = (to: string) => [{ blockStateCalls: [{ calls: [{ to, data: GET_A }] }] }, 'latest'];
    expect(await status('eth_simulateV1', sim(LAYOUT))).toBe(403);
    expect(
      await status('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [TOKEN]: { code: PROXY } }, calls: [{ to: TOKEN, data: GET_A }] }] }, 'latest']),
    ).toBe(403);
    expect(await status('eth_simulateV1', sim(TOKEN))).toBe(200);
  });

  it('eth_call to the allowed contract with a state override that proxies to another is refused', async () => {
    // The proxy works: without an allowlist it reads StorageLayout.a() (4242) through Token's address.
    expect(BigInt((await post(open, rpc('eth_call', [{ to: TOKEN, data: GET_A }, 'latest', { [TOKEN]: { code: PROXY } }]))).json.result)).toBe(4242n);
    expect(await status('eth_call', [{ to: TOKEN, data: GET_A }, 'latest', { [TOKEN]: { code: PROXY } }])).toBe(403);
    expect(await status('eth_call', [{ to: TOKEN, data: '0x18160ddd' }, 'latest', { [LAYOUT]: { balance: '0x1' } }])).toBe(403);
    expect(await status('eth_estimateGas', [{ to: TOKEN, data: GET_A }, 'latest', { [TOKEN]: { code: PROXY } }])).toBe(403);
    expect(await status('eth_call', [{ to: TOKEN, data: '0x18160ddd' }, 'latest', { [TOKEN]: { balance: '0x1' } }])).toBe(200);
  });

  it('eth_createAccessList to another contract is refused', async () => {
    expect(await status('eth_createAccessList', [{ to: LAYOUT, data: GET_A }, 'latest'])).toBe(403);
    expect(await status('eth_createAccessList', [{ to: TOKEN, data: '0x18160ddd' }, 'latest'])).toBe(200);
  });

  it('eth_newFilter over another contract (or every contract) is refused, as eth_getLogs is', async () => {
    expect(await status('eth_getLogs', [{ address: EMITTER, fromBlock: '0x0' }])).toBe(403);
    expect(await status('eth_newFilter', [{ address: EMITTER, fromBlock: '0x0' }])).toBe(403);
    expect(await status('eth_newFilter', [{ fromBlock: '0x0' }])).toBe(403);
    const made = await post(url, rpc('eth_newFilter', [{ address: TOKEN, fromBlock: '0x0' }]));
    expect(made.status).toBe(200);
    expect((await post(url, rpc('eth_getFilterLogs', [made.json.result]))).json.result.every((l: { address: string }) => l.address === TOKEN)).toBe(true);
  });

  it('eth_subscribe to logs of another contract is refused over WebSocket; newHeads and the allowed contract are not', async () => {
    const ws = await openWs(gw.wsUrl('mainnet', 'token'));
    try {
      expect((await ask(ws, rpc('eth_subscribe', ['logs', { address: EMITTER }]))).error).toEqual(FORBIDDEN);
      expect((await ask(ws, rpc('eth_subscribe', ['logs', {}]))).error).toEqual(FORBIDDEN);
      expect((await ask(ws, rpc('eth_subscribe', ['logs', { address: TOKEN }]))).result).toMatch(/^0x/);
      expect((await ask(ws, rpc('eth_subscribe', ['newHeads']))).result).toMatch(/^0x/);
    } finally {
      ws.close();
    }
  });
});
