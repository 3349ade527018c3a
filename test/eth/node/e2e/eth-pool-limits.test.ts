/**
 * The pool's size limits, as geth's legacypool (issue 25): a transaction over 128 KB is refused ("oversized data:
 * transaction size N, limit 131072"); an account's nonce-gap transactions past AccountQueue are refused ("account
 * limit exceeded"); a full pool evicts the cheapest of other senders for a better-paying one, and refuses one that
 * pays no more ("transaction underpriced"). Before, 86 queued transactions of 1.5 MB each were all taken and
 * txpool_content answered 258 MB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';

const SEED = 'test/fixtures/eth/small.json';
const TO = '0x00000000000000000000000000000000000000b1';
let gw: Gateway;
let u: string;
let accounts: string[];
beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [SEED],
    cache: false,
    mining: { automine: false },
    limits: { txpoolAccountQueue: 3, txpoolGlobalSlots: 4, txpoolGlobalQueue: 4 },
  });
  u = gw.url('small');
  accounts = (await call(u, 'eth_accounts', [])).result;
  await call(u, 'evm_mine', []);
});
afterAll(() => gw.stop());

const send = (from: string, fields: Record<string, string> = {}) => call(u, 'eth_sendTransaction', [{ from, to: TO, value: '0x1', ...fields }]);
const nonce = async (a: string) => BigInt((await call(u, 'eth_getTransactionCount', [a, 'latest'])).result);
const hex = (n: bigint) => `0x${n.toString(16)}`;

describe('pool limits', () => {
  it('refuses a transaction over 128 KB with geth text, whatever its nonce', async () => {
    const from = accounts[0]!;
    const data = `0x${'ab'.repeat(200 * 1024)}`;
    for (const n of [await nonce(from), (await nonce(from)) + 5n]) {
      const res = await send(from, { data, gas: '0xf00000', nonce: hex(n) });
      expect(res.error?.code).toBe(-32000);
      expect(res.error?.message).toMatch(/^oversized data: transaction size 20\d{4}, limit 131072$/);
    }
    expect((await call(u, 'txpool_status', [])).result).toEqual({ pending: '0x0', queued: '0x0' });
  });

  it("refuses an account's nonce-gap transactions past its queue limit", async () => {
    const from = accounts[1]!;
    const base = (await nonce(from)) + 10n;
    for (let i = 0n; i < 3n; i++) expect((await send(from, { nonce: hex(base + i) })).error).toBeUndefined();
    const res = await send(from, { nonce: hex(base + 3n) });
    expect(res.error).toMatchObject({ code: -32000, message: 'account limit exceeded' });
    expect((await call(u, 'txpool_status', [])).result).toEqual({ pending: '0x0', queued: '0x3' });
  });

  it('a full pool evicts the cheapest for a better-paying transaction, and refuses one that pays no more', async () => {
    await call(u, 'anvil_dropAllTransactions', []);
    const fee = (gwei: number) => ({ maxFeePerGas: hex(BigInt(gwei) * 10n ** 9n), maxPriorityFeePerGas: '0x1' });
    // 8 slots in all: four executable transactions of four senders at 10..13 gwei, four of a fifth at 20 gwei.
    for (let i = 0; i < 4; i++) expect((await send(accounts[i]!, fee(10 + i))).error).toBeUndefined();
    for (let i = 0; i < 4; i++) expect((await send(accounts[4]!, fee(20))).error).toBeUndefined();
    const under = await send(accounts[0]!, { ...fee(9), nonce: hex((await nonce(accounts[0]!)) + 1n) });
    expect(under.error).toMatchObject({ code: -32000, message: 'transaction underpriced' });
    const cheapest = (await call(u, 'txpool_contentFrom', [accounts[0]])).result.pending;
    expect(Object.keys(cheapest)).toHaveLength(1);
    // 30 gwei from account 1 (its second): account 0's 10 gwei transaction leaves.
    expect((await send(accounts[1]!, fee(30))).error).toBeUndefined();
    expect((await call(u, 'txpool_contentFrom', [accounts[0]])).result.pending).toEqual({});
    expect((await call(u, 'txpool_status', [])).result).toEqual({ pending: '0x8', queued: '0x0' });
  });
});
