/**
 * eth_simulateV1 from a block before the merge with times past the time forks, on the execution-apis chain (merge at
 * block 36; Shanghai at time 390, Cancun 420, Prague 450). geth takes the EVM's rules from the number, the time and
 * "difficulty is 0" (its Rules), and a simulated header copies the base's difficulty: the blocks run under the rules of
 * their number (pre-merge), with a proof-of-work reward, while the header carries the fields of the time's fork
 * (ChainConfig.IsShanghai/IsCancun: London and time). Past Prague geth's EIP-2935 system call fails under those rules
 * and its server answers -32603 "method handler crashed". devgate answered -32603 "internal error" to all of these
 * (@ethereumjs: "Maximum HF determined by block number is lower than timestamp HF").
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call, result } from '../../../support/http.js';
import { UNLIMITED } from '../../methods/seed.js';

const SEED = fileURLToPath(new URL('../../../conformance/seed.json', import.meta.url));
let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], keys: UNLIMITED });
  url = gw.url('hive');
});
afterAll(() => gw?.stop());

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const A = '0xc000000000000000000000000000000000000000';
const B = '0xc100000000000000000000000000000000000000';
/** PUSH0 STOP: a valid program from Shanghai on, an invalid opcode before. */
const PUSH0 = '0xc200000000000000000000000000000000000000';
/** Returns BALANCE(COINBASE) (no PUSH0: runs under any rules). */
const COINBASE_BALANCE = '0xc300000000000000000000000000000000000000';
const EMPTY_TRIE = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const ZERO32 = `0x${'00'.repeat(32)}`;
const overrides = {
  [A]: { balance: '0xde0b6b3a7640000' },
  [PUSH0]: { code: '0x5f00' },
  [COINBASE_BALANCE]: { code: '0x413160005260206000f3' },
};

/** One block at `time` on top of block 32: a transfer, then PUSH0 code. */
const oneBlock = (time: number, base = '0x20') =>
  call(url, 'eth_simulateV1', [
    {
      blockStateCalls: [
        {
          blockOverrides: { time: hex(time) },
          stateOverrides: overrides,
          calls: [
            { from: A, to: B, value: '0x10' },
            { from: A, to: PUSH0 },
          ],
        },
      ],
    },
    base,
  ]);

describe('eth_simulateV1 before the merge with times past the time forks (geth)', () => {
  it('Shanghai time: pre-merge rules (no PUSH0), a withdrawals root in the header, the base difficulty', async () => {
    const base = await result(url, 'eth_getBlockByNumber', ['0x20', false]);
    const res = await oneBlock(400);
    expect(res.error).toBeUndefined();
    const [block] = res.result;
    expect(block.number).toBe('0x21');
    expect(block.difficulty).toBe(base.difficulty);
    expect(block.difficulty).not.toBe('0x0');
    expect(block.withdrawalsRoot).toBe(EMPTY_TRIE);
    expect(block.withdrawals).toEqual([]);
    expect(block.blobGasUsed).toBeUndefined();
    expect(block.parentBeaconBlockRoot).toBeUndefined();
    expect(block.calls[0].status).toBe('0x1');
    expect(block.calls[1].status).toBe('0x0');
    expect(block.calls[1].error.message).toMatch(/^invalid opcode/);
  });

  it('Cancun time: blob and beacon root fields, and no beacon root stored (geth system call fails at PUSH0)', async () => {
    const shanghai = (await oneBlock(400)).result[0];
    const res = await oneBlock(430);
    expect(res.error).toBeUndefined();
    const [block] = res.result;
    expect(block.blobGasUsed).toBe('0x0');
    expect(block.excessBlobGas).toBe('0x0');
    expect(block.parentBeaconBlockRoot).toBe(ZERO32);
    expect(block.withdrawalsRoot).toBe(EMPTY_TRIE);
    expect(block.calls[1].status).toBe('0x0');
    // The same calls and reward as at Shanghai time: the same state (the EIP-4788 ring buffer untouched).
    expect(block.stateRoot).toBe(shanghai.stateRoot);
    expect(block.hash).not.toBe(shanghai.hash);
  });

  it('Prague time: geth crashes in its EIP-2935 system call: -32603 "method handler crashed"', async () => {
    for (const time of [460, 490]) expect((await oneBlock(time)).error).toEqual({ code: -32603, message: 'method handler crashed' });
  });

  it('pays the proof-of-work reward of the rules (2 ETH from Constantinople) to the coinbase', async () => {
    const base = await result(url, 'eth_getBlockByNumber', ['0x20', false]);
    const before = BigInt(await result(url, 'eth_getBalance', [base.miner, '0x20']));
    const blocks = await result(url, 'eth_simulateV1', [
      {
        blockStateCalls: [{ blockOverrides: { time: hex(400) }, stateOverrides: overrides }, { calls: [{ from: A, to: COINBASE_BALANCE }] }],
      },
      '0x20',
    ]);
    expect(BigInt(blocks[1].calls[0].returnData)).toBe(before + 2n * 10n ** 18n);
  });

  it('a block past the merge number from a pre-merge base keeps the base difficulty and pre-merge rules', async () => {
    const base = await result(url, 'eth_getBlockByNumber', ['0x23', false]);
    const res = await call(url, 'eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: overrides, calls: [{ from: A, to: PUSH0 }] }] }, '0x23']);
    const [block] = res.result;
    expect(block.number).toBe('0x24');
    expect(block.difficulty).toBe(base.difficulty);
    expect(block.withdrawalsRoot).toBeUndefined();
    expect(block.calls[0].error.message).toMatch(/^invalid opcode/);
  });

  it("a non-zero difficulty override unmerges a merged chain: pre-merge rules, and past Prague geth's crash", async () => {
    const before = await call(url, 'eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { difficulty: '0x1' }, stateOverrides: overrides, calls: [{ from: A, to: PUSH0 }] }] },
      '0x24',
    ]);
    expect(before.result[0].difficulty).toBe('0x1');
    expect(before.result[0].calls[0].error.message).toMatch(/^invalid opcode/);
    const latest = await call(url, 'eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { difficulty: '0x1' } }] }, 'latest']);
    expect(latest.error).toEqual({ code: -32603, message: 'method handler crashed' });
  });

  it('a zero difficulty override merges the header: the time fork rules it (PUSH0 runs)', async () => {
    const res = await call(url, 'eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { time: hex(400), difficulty: '0x0' }, stateOverrides: overrides, calls: [{ from: A, to: PUSH0 }] }] },
      '0x20',
    ]);
    const [block] = res.result;
    expect(block.difficulty).toBe('0x0');
    expect(block.withdrawalsRoot).toBe(EMPTY_TRIE);
    expect(block.calls[0].status).toBe('0x1');
  });
});
