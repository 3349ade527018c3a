/**
 * A round trip of a bench-like chain (bench/seed.ts: an ERC-20 and blocks of token and ether transfers from the dev
 * accounts, here 30 blocks x 10 transactions) after mining on top of it (more transfers, and a snapshot reverted, so
 * the node store holds nodes no kept block reaches): dumped to a file with gw.dumpState(file) and loaded at start into
 * a gateway serving only the seed's genesis (every block comes from the file, none is executed), then compared
 * answer by answer: blocks, receipts, transactions, balances and token balances at every block, proofs, logs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWalletClient, defineChain, encodeFunctionData, http, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../../../../../../src/index.js';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS, MNEMONIC } from '../../../../../../bench/seed.js';
import { call } from '../../../../../support/http.js';

const dir = mkdtempSync(join(tmpdir(), 'devgate-dump-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TRANSFER_ABI = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
] as const;

describe('dump and load of a bench-like chain after mining', () => {
  it('answers every query byte for byte after a load that brings every block', async () => {
    const bench = await benchChain({ ...DEFAULT_CHAIN_OPTIONS, blocks: 30 }, () => {}, join(CACHE_DIR, 'dump-test'));
    const { token, holders } = bench.meta;
    const a = await start({ port: 0, chains: [bench.seedPath] });
    const file = join(dir, 'state.bin');
    const hashes: Hex[] = [...bench.meta.txHashes.filter((_, i) => i % 7 === 0)];
    let head: number;
    try {
      const url = a.url('bench');
      const chain = defineChain({
        id: DEFAULT_CHAIN_OPTIONS.chainId,
        name: 'bench',
        nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      });
      const wallets = [0, 1, 2].map((i) => createWalletClient({ account: mnemonicToAccount(MNEMONIC, { addressIndex: i }), chain, transport: http(url) }));
      await call(url, 'evm_setAutomine', [false]);
      for (let b = 0; b < 6; b++) {
        for (let i = 0; i < 3; i++) {
          const data = encodeFunctionData({ abi: TRANSFER_ABI, functionName: 'transfer', args: [holders[(b * 3 + i) % holders.length]!, 1000n + BigInt(b)] });
          hashes.push(await wallets[i]!.sendTransaction(i === 0 ? { to: token, data, gas: 100_000n } : { to: holders[b]!, value: 12345n, gas: 21_000n }));
        }
        await call(url, 'evm_mine', []);
        if (b === 2) {
          // Blocks that leave again: their state nodes stay in the store, the dump leaves them out.
          const snap = (await call(url, 'evm_snapshot', [])).result;
          await call(url, 'anvil_setBalance', [holders[0], '0x123456789']);
          await call(url, 'anvil_mine', ['0x3']);
          expect((await call(url, 'evm_revert', [snap])).result).toBe(true);
        }
      }
      hashes.push(await wallets[1]!.sendTransaction({ to: holders[1]!, value: 1n, gas: 21_000n })); // stays pending
      head = Number(a.eth('bench').blockNumber());
      await a.dumpState(file);
    } catch (err) {
      await a.stop();
      throw err;
    }
    const seed = JSON.parse(readFileSync(bench.seedPath, 'utf8')) as Record<string, unknown>;
    const genesisOnly = join(dir, 'genesis-only.json');
    writeFileSync(genesisOnly, JSON.stringify({ ...seed, blocks: [] }));
    const b = await start({ port: 0, chains: [genesisOnly], state: { load: file } });
    try {
      expect(b.stateLoaded).toEqual([`bench: head ${head} (blocks 0-0 kept, ${head} loaded), 1 pending`]);
      const [ua, ub] = [a.url('bench'), b.url('bench')];
      const balanceOf = (who: Hex) => `0x70a08231${who.slice(2).padStart(64, '0')}`;
      const q: [string, unknown[]][] = [
        ['eth_blockNumber', []],
        ['txpool_content', []],
        ['eth_getBlockByNumber', ['pending', false]],
        ['eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: token }]],
      ];
      for (let n = 0; n <= head; n++) {
        const tag = `0x${n.toString(16)}`;
        q.push(['eth_getBlockByNumber', [tag, true]], ['eth_getBlockReceipts', [tag]], ['eth_getBalance', [holders[n % holders.length], tag]]);
        q.push(['eth_call', [{ to: token, data: balanceOf(holders[n % 5]!) }, tag]], ['eth_getProof', [token, ['0x0', '0x2'], tag]]);
      }
      for (const h of hashes) q.push(['eth_getTransactionByHash', [h]], ['eth_getTransactionReceipt', [h]]);
      for (const [method, params] of q) {
        const [ra, rb] = await Promise.all([call(ua, method, params), call(ub, method, params)]);
        expect(ra.error, `${method} ${JSON.stringify(params)}`).toBeUndefined();
        expect(JSON.stringify(rb), `${method} ${JSON.stringify(params)}`).toBe(JSON.stringify(ra));
      }
      // Both mine the pending transaction into the same block.
      const [ma, mb] = await Promise.all([call(ua, 'evm_mine', []), call(ub, 'evm_mine', [])]);
      expect(mb).toEqual(ma);
      const [ba, bb] = await Promise.all([call(ua, 'eth_getBlockByNumber', ['latest', false]), call(ub, 'eth_getBlockByNumber', ['latest', false])]);
      expect(bb.result.transactions).toHaveLength(1);
      expect(bb.result.hash).toBe(ba.result.hash);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
