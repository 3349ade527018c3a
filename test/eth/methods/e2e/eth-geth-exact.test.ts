/**
 * Where devgate follows what geth answers today: an omitted block parameter means latest; a call without a price
 * runs at a zero base fee (BASEFEE reads 0, geth's NoBaseFee); blockTimestamp on mined transactions and logs;
 * eth_getLogs past head is an error; a gethGenesis seed takes its chain id from the genesis.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
/** Init code that returns BASEFEE as a word: BASEFEE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURN_BASEFEE = '0x4860005260206000f3';

let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

describe('as geth answers', () => {
  it('an omitted block parameter reads latest', async () => {
    const cases: [string, unknown[]][] = [
      ['eth_getBalance', [DEV0]],
      ['eth_getCode', [TOKEN]],
      ['eth_getTransactionCount', [DEV0]],
      ['eth_getStorageAt', [TOKEN, '0x2']],
      ['eth_getProof', [TOKEN, ['0x0']]],
      ['eth_call', [{ to: TOKEN, data: '0x18160ddd' }]],
    ];
    for (const [method, params] of cases) {
      const omitted = await call(url, method, params);
      expect(omitted.error, method).toBeUndefined();
      expect(omitted.result, method).toEqual((await call(url, method, [...params, 'latest'])).result);
    }
  });

  it("eth_call and eth_estimateGas without a price run at a zero base fee; with one, at the block's", async () => {
    const baseFee = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).result.baseFeePerGas);
    expect(baseFee).toBeGreaterThan(0n);
    expect(BigInt((await call(url, 'eth_call', [{ data: RETURN_BASEFEE }, 'latest'])).result)).toBe(0n);
    expect(
      BigInt((await call(url, 'eth_call', [{ from: DEV0, data: RETURN_BASEFEE, maxFeePerGas: '0x' + (baseFee * 2n).toString(16) }, 'latest'])).result),
    ).toBe(baseFee);
    expect((await call(url, 'eth_estimateGas', [{ data: RETURN_BASEFEE }])).error).toBeUndefined();
  });

  it('blockTimestamp on mined transactions and on logs (receipts, block receipts, eth_getLogs)', async () => {
    const block = (await call(url, 'eth_getBlockByNumber', ['0x1', true])).result;
    for (const tx of block.transactions) expect(tx.blockTimestamp).toBe(block.timestamp);
    const logs = (await call(url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5' }])).result;
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) expect(log.blockTimestamp).toBe((await call(url, 'eth_getBlockByNumber', [log.blockNumber, false])).result.timestamp);
    const receipt = (await call(url, 'eth_getTransactionReceipt', [logs[0].transactionHash])).result;
    expect(receipt.logs[0].blockTimestamp).toBe(logs[0].blockTimestamp);
    expect((await call(url, 'eth_getBlockReceipts', [logs[0].blockNumber])).result[0].logs.every((l: any) => l.blockTimestamp === logs[0].blockTimestamp)).toBe(
      true,
    );
  });

  it('eth_getLogs with a toBlock past head: -32602 block range extends beyond current head block', async () => {
    const head = BigInt((await call(url, 'eth_blockNumber')).result);
    expect((await call(url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x' + (head + 1n).toString(16) }])).error).toEqual({
      code: -32602,
      message: 'block range extends beyond current head block',
    });
  });

  it('a gethGenesis seed without chainId takes config.chainId; one that differs is refused naming both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devgate-geth-'));
    const forks = resolve('test/fixtures/forks');
    const seed = (extra: object) => ({ name: 'forks', kind: 'eth', gethGenesis: join(forks, 'genesis.json'), rlpChain: join(forks, 'chain.rlp'), ...extra });
    writeFileSync(join(dir, 'a.json'), JSON.stringify(seed({})));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(seed({ chainId: 1 })));
    const own = await start({ port: 0, chains: [join(dir, 'a.json')], cache: false });
    try {
      expect((await call(own.url('forks'), 'eth_chainId')).result).toBe('0x1cbd');
    } finally {
      await own.stop();
    }
    await expect(start({ port: 0, chains: [join(dir, 'b.json')], cache: false })).rejects.toThrow(/chainId: 1 differs from config.chainId 7357/);
  });
});
