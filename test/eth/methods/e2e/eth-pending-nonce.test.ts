/**
 * eth_getTransactionCount at `pending` is geth's pool nonce (TransactionAPI.GetTransactionCount → GetPoolNonce): the
 * account's nonce past its consecutive pooled transactions, a nonce gap not counted, and no pending block built.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EthNode } from '../../../../src/eth/node/node.js';
import { start, type Gateway } from '../../../../src/index.js';
import { ACCOUNT0, ACCOUNT1, readSurfaceSeed, UNLIMITED } from '../seed.js';

let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [readSurfaceSeed()], keys: UNLIMITED });
  url = gw.url('dev');
});
afterAll(() => gw?.stop());

async function rpc(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error !== undefined) throw new Error(body.error.message);
  return body.result;
}

describe('the pending nonce', () => {
  it('counts consecutive pooled transactions, not a gapped one, and builds no pending block', async () => {
    await rpc('evm_setAutomine', [false]);
    const latest = BigInt(await rpc('eth_getTransactionCount', [ACCOUNT0, 'latest']));
    // The seed leaves transactions of ACCOUNT0 pending: the pool's nonce starts past them.
    const pooled = BigInt(await rpc('eth_getTransactionCount', [ACCOUNT0, 'pending']));
    try {
      await rpc('eth_sendTransaction', [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }]);
      await rpc('eth_sendTransaction', [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }]);
      await rpc('eth_sendTransaction', [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1', nonce: `0x${(pooled + 5n).toString(16)}` }]);
      // A spy on the prototype every EthNode shares: restored even when an expect fails (later files of this worker use it).
      const built = vi.spyOn(EthNode.prototype, 'pendingBlock');
      try {
        expect(BigInt(await rpc('eth_getTransactionCount', [ACCOUNT0, 'pending']))).toBe(pooled + 2n);
        expect(BigInt(await rpc('eth_getTransactionCount', [ACCOUNT0, 'latest']))).toBe(latest);
        expect(BigInt(await rpc('eth_getTransactionCount', ['0x000000000000000000000000000000000000dead', 'pending']))).toBe(0n);
        expect(built).not.toHaveBeenCalled();
      } finally {
        built.mockRestore();
      }
      // The pending block itself still shows the two that apply.
      const inPending = (await rpc('eth_getBlockByNumber', ['pending', false])).transactions as string[];
      expect(inPending.length).toBeGreaterThanOrEqual(Number(pooled - latest) + 2);
    } finally {
      await rpc('evm_mine', []);
      await rpc('evm_setAutomine', [true]);
    }
    expect(BigInt(await rpc('eth_getTransactionCount', [ACCOUNT0, 'latest']))).toBe(pooled + 2n);
    expect(BigInt(await rpc('eth_getTransactionCount', [ACCOUNT0, 'pending']))).toBe(pooled + 2n);
  });
});
