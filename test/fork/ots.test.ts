/**
 * Otterscan on a fork (docs/fork.md, "Otterscan on a fork"): ots_searchTransactionsBefore/After,
 * ots_getContractCreator and ots_getTransactionBySenderAndNonce see the upstream's history up to the fork block joined
 * with the fork's own blocks, in the request shapes Otterscan sends (block numbers and page sizes as JSON numbers);
 * the upstream's blocks after the fork block never show; an upstream without ots_ methods is named in the error.
 */
import { createWalletClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call, result } from '../support/http.js';
import { type CountingProxy, countingProxy } from './countingProxy.js';
import { DEV0, dev0, type SmallUpstream, smallUpstream, startFork, TO, tokenAbi } from './smallUpstream.js';

let small: SmallUpstream;
let gw: Gateway;
let forkUrl: string;
let upUrl: string;
/** The fork's own transaction (block forkBlock + 1) and the upstream's after the fork block (never on the fork). */
let localHash: string;
let upstreamLater: string;

const hashes = (page: { txs: { hash: string }[] }) => page.txs.map((t) => t.hash);

beforeAll(async () => {
  small = await smallUpstream();
  upUrl = small.up.url('small');
  ({ gw, url: forkUrl } = await startFork(small));
  const wallet = createWalletClient({ account: dev0, chain: foundry, transport: http(forkUrl) });
  localHash = await wallet.writeContract({ address: small.token, abi: tokenAbi, functionName: 'transfer', args: [TO, 3n] });
  // The upstream moves on after the fork block: dev0 sends there too.
  upstreamLater = await result(upUrl, 'eth_sendTransaction', [{ from: DEV0, to: TO, value: '0x1' }]);
});
afterAll(async () => {
  await gw?.stop();
  await small?.stop();
});

describe('ots_ searches on a fork include the upstream history before the fork block', () => {
  it('ots_searchTransactionsBefore from head: the fork block and the upstream part, newest first', async () => {
    const upstreamPart = await result(upUrl, 'ots_searchTransactionsBefore', [DEV0, Number(small.forkBlock) + 1, 25]);
    expect(upstreamPart.txs.length).toBeGreaterThan(2);
    const page = await result(forkUrl, 'ots_searchTransactionsBefore', [DEV0, 0, 25]);
    expect(hashes(page)).toEqual([localHash, ...hashes(upstreamPart)]);
    expect(page.receipts.map((r: { transactionHash: string }) => r.transactionHash)).toEqual(hashes(page));
    expect(page.receipts.slice(1)).toEqual(upstreamPart.receipts);
    expect([page.firstPage, page.lastPage]).toEqual([true, true]);
    expect(hashes(page)).not.toContain(upstreamLater);
    expect(await result(upUrl, 'eth_getTransactionReceipt', [upstreamLater])).toMatchObject({ status: '0x1' });
  });

  it('pages across the fork block as Otterscan walks them (Before then the next Before)', async () => {
    const first = await result(forkUrl, 'ots_searchTransactionsBefore', [DEV0, 0, 1]);
    expect(hashes(first)).toEqual([localHash]);
    expect([first.firstPage, first.lastPage]).toEqual([true, false]);
    const localBlock = Number((await result(forkUrl, 'eth_getTransactionByHash', [localHash])).blockNumber);
    const next = await result(forkUrl, 'ots_searchTransactionsBefore', [DEV0, localBlock, 2]);
    expect(next).toEqual(await result(upUrl, 'ots_searchTransactionsBefore', [DEV0, localBlock, 2]));
  });

  it('ots_searchTransactionsAfter from genesis: the same transactions, without the upstream later ones', async () => {
    const before = await result(forkUrl, 'ots_searchTransactionsBefore', [DEV0, 0, 25]);
    const after = await result(forkUrl, 'ots_searchTransactionsAfter', [DEV0, 0, 25]);
    expect(hashes(after)).toEqual(hashes(before));
    expect([after.firstPage, after.lastPage]).toEqual([true, true]);
    // A short page of the oldest block: more remain on the fork (the upstream's later one does not count).
    const oldest = await result(forkUrl, 'ots_searchTransactionsAfter', [DEV0, 0, 1]);
    expect(oldest.txs.length).toBeGreaterThan(0);
    expect([oldest.firstPage, oldest.lastPage]).toEqual([false, true]);
  });

  it('ots_getContractCreator and ots_getTransactionBySenderAndNonce answer the upstream part', async () => {
    expect(await result(forkUrl, 'ots_getContractCreator', [small.token])).toEqual(await result(upUrl, 'ots_getContractCreator', [small.token]));
    expect(await result(forkUrl, 'ots_getTransactionBySenderAndNonce', [DEV0, 0])).toBe(await result(upUrl, 'ots_getTransactionBySenderAndNonce', [DEV0, 0]));
    const nonce = Number((await result(forkUrl, 'eth_getTransactionByHash', [localHash])).nonce);
    expect(await result(forkUrl, 'ots_getTransactionBySenderAndNonce', [DEV0, nonce])).toBe(localHash);
    // The upstream's transaction of that nonce (mined after the fork block) is not the fork's.
    const upstreamOwn = await result(upUrl, 'ots_getTransactionBySenderAndNonce', [DEV0, nonce]);
    expect(upstreamOwn).not.toBe(localHash);
    expect(await result(upUrl, 'eth_getTransactionByHash', [upstreamOwn])).toMatchObject({ nonce: `0x${nonce.toString(16)}` });
    expect(await result(forkUrl, 'ots_getTransactionBySenderAndNonce', [DEV0, nonce + 1])).toBeNull();
  });

  it('names the upstream when it has no ots_ methods, and still answers from the fork alone', async () => {
    const bare: CountingProxy = await countingProxy(upUrl, (m) => m.startsWith('ots_'));
    const other = await start({
      port: 0,
      chains: [{ name: 'tiny', kind: 'eth', chainId: 5 }],
      fork: { url: bare.url, blockNumber: Number(small.forkBlock), retries: 0 },
      cache: false,
    });
    try {
      const res = await call(other.bareUrl(), 'ots_searchTransactionsBefore', [DEV0, 0, 25]);
      expect(res.error.code).toBe(-32000);
      expect(res.error.message).toMatch(/ots_searchTransactionsBefore needs the fork upstream's history up to the fork block \d+/);
      expect(res.error.message).toMatch(/not found/);
      expect(await result(other.bareUrl(), 'ots_getTransactionBySenderAndNonce', [TO, 0])).toBeNull();
    } finally {
      await other.stop();
      await bare.close();
    }
  });
});
