/**
 * Dump and load over HTTP with viem's testClient, unchanged (anvil mode: dumpState / loadState): a chain grown on
 * sepolia's seed (transfers, token transfers, a contract creation, a failed transaction, unmined edits, a pending
 * pool, time controls, an impersonation) is dumped and loaded into a fresh gateway, and then every historical
 * query answers byte for byte as before, and both chains go on alike (the next block has the same hash).
 */
import { createTestClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../../src/index.js';
import { call } from '../../../../../support/http.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as const;
const WHO = '0x00000000000000000000000000000000000000d1' as const;
const WHALE = '0x00000000000000000000000000000000000000e1' as const;
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };
// transfer(address,uint256) of 5 units to WHO
const TRANSFER = `0xa9059cbb${WHO.slice(2).padStart(64, '0')}${'5'.padStart(64, '0')}` as Hex;

let a: Gateway;
let b: Gateway;

beforeAll(async () => {
  [a, b] = await Promise.all([start({ port: 0, chains: ['chains/sepolia.json'] }), start({ port: 0, chains: ['chains/sepolia.json'] })]);
});
afterAll(() => Promise.all([a?.stop(), b?.stop()]));

/** Grows a chain on `url`: what a test suite would prepare before dumping. */
async function grow(url: string): Promise<Hex[]> {
  const test = createTestClient({ chain, mode: 'anvil', transport: http(url) });
  const wallet = createWalletClient({ account: privateKeyToAccount(KEY0), chain, transport: http(url) });
  const hashes: Hex[] = [];
  hashes.push(await wallet.sendTransaction({ to: WHO, value: 1000n }));
  hashes.push(await wallet.sendTransaction({ to: TOKEN, data: TRANSFER }));
  // A contract creation (PUSH1 0x2a PUSH1 0 SSTORE, returning empty code) and a failed call (gas too low for the transfer).
  hashes.push(await wallet.sendTransaction({ data: '0x602a60005500' }));
  hashes.push(await wallet.sendTransaction({ to: TOKEN, data: TRANSFER, gas: 30_000n }));
  await test.increaseTime({ seconds: 3600 });
  await test.mine({ blocks: 3 });
  await test.impersonateAccount({ address: WHALE });
  await test.setBalance({ address: WHALE, value: 10n ** 20n });
  await test.mine({ blocks: 1 });
  hashes.push((await call(url, 'eth_sendTransaction', [{ from: WHALE, to: WHO, value: '0x7' }])).result);
  // Unmined: an edit of head's state and a pending pool, in manual mining.
  await test.setAutomine(false);
  await test.setStorageAt({ address: TOKEN, index: ('0x' + '77'.padStart(64, '0')) as Hex, value: ('0x' + '1'.padStart(64, '0')) as Hex });
  hashes.push(await wallet.sendTransaction({ to: WHO, value: 3n }));
  hashes.push((await call(url, 'eth_sendTransaction', [{ from: WHALE, to: WHO, value: '0x9' }])).result); // pooled, impersonated
  await test.setNextBlockTimestamp({ timestamp: 2_000_000_000n });
  return hashes;
}

/** The requests whose answers must not change across a dump and load. */
function queries(head: number, hashes: readonly Hex[]): [string, unknown[]][] {
  const q: [string, unknown[]][] = [
    ['eth_blockNumber', []],
    ['eth_getBlockByNumber', ['pending', true]],
    ['txpool_content', []],
    ['eth_getProof', [TOKEN, ['0x0', '0x77'], 'latest']],
  ];
  for (let n = 0; n <= head; n++) {
    const tag = `0x${n.toString(16)}`;
    q.push(['eth_getBlockByNumber', [tag, true]], ['eth_getBlockReceipts', [tag]], ['eth_getBalance', [WHO, tag]], ['eth_getStorageAt', [TOKEN, '0x2', tag]]);
    q.push(['eth_call', [{ to: TOKEN, data: `0x70a08231${WHO.slice(2).padStart(64, '0')}` }, tag]], ['eth_getProof', [TOKEN, ['0x0', '0x1'], tag]]);
  }
  for (const h of hashes) q.push(['eth_getTransactionByHash', [h]], ['eth_getTransactionReceipt', [h]]);
  q.push(['eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]], ['eth_feeHistory', ['0x20', 'latest', [10, 50]]], ['eth_getCode', [TOKEN, 'latest']]);
  return q;
}

describe('dump and load', () => {
  it('anvil_dumpState then anvil_loadState into a fresh gateway: every answer byte for byte, and the next block alike', async () => {
    const ua = a.url('sepolia');
    const ub = b.url('sepolia');
    const hashes = await grow(ua);
    const head = Number(a.eth('sepolia').blockNumber());

    const ta = createTestClient({ chain, mode: 'anvil', transport: http(ua) });
    const tb = createTestClient({ chain, mode: 'anvil', transport: http(ub) });
    const dumped = await ta.dumpState();
    expect(dumped).toMatch(/^0x1f8b/); // gzip'd, as anvil answers
    await tb.loadState({ state: dumped });
    expect(b.eth('sepolia').blockNumber()).toBe(BigInt(head));

    for (const [method, params] of queries(head, hashes)) {
      const [ra, rb] = await Promise.all([call(ua, method, params), call(ub, method, params)]);
      expect(ra.error, `${method} ${JSON.stringify(params)}`).toBeUndefined();
      expect(JSON.stringify(rb), `${method} ${JSON.stringify(params)}`).toBe(JSON.stringify(ra));
    }
    // A dump of the loaded chain is the same bytes (nothing of the wall clock goes in).
    expect(await tb.dumpState()).toBe(dumped);
    // Both go on alike: the miner's settings, the coinbase, the pool and head's edits came along.
    expect((await call(ub, 'anvil_getAutomine', [])).result).toBe(false);
    const [ma, mb] = await Promise.all([call(ua, 'evm_mine', []), call(ub, 'evm_mine', [])]);
    expect(mb).toEqual(ma);
    const [ba, bb] = await Promise.all([call(ua, 'eth_getBlockByNumber', ['latest', false]), call(ub, 'eth_getBlockByNumber', ['latest', false])]);
    expect(bb.result.transactions).toHaveLength(2); // the signed and the impersonated pooled transactions
    expect(bb.result.hash).toBe(ba.result.hash);
    expect(BigInt(bb.result.timestamp)).toBe(2_000_000_000n);
    const sent = await call(ub, 'eth_sendTransaction', [{ from: WHALE, to: WHO, value: '0x8' }]);
    expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/); // the impersonation came along
    // The load forgot the snapshots; reset still goes back to the seeded chain (its head is on the loaded chain).
    expect((await call(ub, 'evm_revert', ['0x0'])).result).toBe(false);
    await tb.reset();
    expect((await call(ub, 'eth_blockNumber', [])).result).toBe('0x28');
    expect((await call(ub, 'eth_getBlockByNumber', ['0x28', false])).result.hash).toBe((await call(ua, 'eth_getBlockByNumber', ['0x28', false])).result.hash);
  });

  it('viem testClient in hardhat mode dumps and loads too (hardhat_dumpState / hardhat_loadState, devgate extensions)', async () => {
    const ua = a.url('sepolia');
    const ub = b.url('sepolia');
    const ta = createTestClient({ chain, mode: 'hardhat', transport: http(ua) });
    const tb = createTestClient({ chain, mode: 'hardhat', transport: http(ub) });
    await ta.mine({ blocks: 2 });
    await tb.loadState({ state: await ta.dumpState() });
    const [ha, hb] = await Promise.all([call(ua, 'eth_getBlockByNumber', ['latest', false]), call(ub, 'eth_getBlockByNumber', ['latest', false])]);
    expect(hb.result.hash).toBe(ha.result.hash);
  });

  it('refuses a damaged, truncated or foreign state with a clear error, changing nothing', async () => {
    const ub = b.url('sepolia');
    const before = (await call(ub, 'eth_getBlockByNumber', ['latest', false])).result.hash;
    const dumped: string = (await call(ub, 'anvil_dumpState', [])).result;
    for (const [state, message] of [
      [dumped.slice(0, dumped.length - 200), /unzip|truncated/],
      ['0x' + Buffer.from('hello').toString('hex'), /not a devgate state file, nor an anvil state file/],
      ['0x' + Buffer.from('{"accounts": 5}').toString('hex'), /not an anvil state file/],
    ] as const) {
      const r = await call(ub, 'anvil_loadState', [state]);
      expect(r.error?.code).toBe(-32602);
      expect(r.error?.message).toMatch(message);
    }
    // A dump of another chain (mainnet's seed) into sepolia.
    const other = await start({ port: 0, chains: ['chains/mainnet.json'] });
    try {
      const foreign: string = (await call(other.url('mainnet'), 'anvil_dumpState', [])).result;
      const r = await call(ub, 'anvil_loadState', [foreign]);
      expect(r.error?.code).toBe(-32602);
      expect(r.error?.message).toMatch(/chain id 1; network "sepolia" has chain id 11155111/);
    } finally {
      await other.stop();
    }
    expect((await call(ub, 'eth_getBlockByNumber', ['latest', false])).result.hash).toBe(before);
  });
});
