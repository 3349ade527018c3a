/**
 * debug_traceTransaction over the wire on a chain that changes (tracing keeps the state between a block's
 * transactions: src/eth/engine/trace/replayCache.ts): blocks mined, traced out of order, then removed by evm_revert or
 * anvil_reset and mined again with other transactions at the same height; every trace equals the one
 * debug_traceBlockByNumber gives (which runs the whole block in order, keeping nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { UNLIMITED } from '../../../methods/seed.js';
import { result } from '../../../../support/http.js';
import { ACCOUNT0, encode, TOKEN, traceSeed } from '../traceSeed.js';

let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [traceSeed()], keys: UNLIMITED });
  url = gw.url('trace');
  await result(url, 'evm_setAutomine', [false]);
});

afterAll(async () => {
  await gw?.stop();
});

/** Mines a block of token transfers of `amounts` from ACCOUNT0 to `to`; gives its number and transaction hashes. */
async function mineTransfers(to: string, amounts: number[]): Promise<{ number: string; hashes: string[] }> {
  const hashes: string[] = [];
  for (const amount of amounts)
    hashes.push(await result(url, 'eth_sendTransaction', [{ from: ACCOUNT0, to: TOKEN, data: encode('transfer', [to, BigInt(amount)]), gas: '0x30000' }]));
  await result(url, 'evm_mine', []);
  const block = await result(url, 'eth_getBlockByNumber', ['latest', false]);
  expect(block.transactions).toEqual(hashes);
  return { number: block.number, hashes };
}

/** Traces the block's transactions in `order` one by one and holds each to the block trace's answer. */
async function checkTraces(block: { number: string; hashes: string[] }, order: number[], config: object): Promise<void> {
  const whole = (await result(url, 'debug_traceBlockByNumber', [block.number, config])) as { txHash: string; result: unknown }[];
  for (const i of order) expect(await result(url, 'debug_traceTransaction', [block.hashes[i], config]), `tx ${i}`).toEqual(whole[i]!.result);
}

describe('traces on a chain that is mined, reverted and reset', () => {
  const STRUCT = { enableMemory: true };
  const CALLS = { tracer: 'callTracer', tracerConfig: { withLog: true } };

  it('are those of the whole block, before and after evm_revert and anvil_reset', async () => {
    const snapshot = await result(url, 'evm_snapshot', []);
    const first = await mineTransfers('0x00000000000000000000000000000000000000a1', [1, 2, 3, 4, 5]);
    await checkTraces(first, [4, 1, 3, 0, 2], STRUCT);
    await checkTraces(first, [2, 4], CALLS);
    expect(await result(url, 'evm_revert', [snapshot])).toBe(true);

    // The same height again, other transactions: nothing of the removed block serves.
    const second = await mineTransfers('0x00000000000000000000000000000000000000a2', [6, 7, 8, 9, 10]);
    expect(second.number).toBe(first.number);
    await checkTraces(second, [3, 4, 0, 2, 1], STRUCT);
    const traced = (await result(url, 'debug_traceTransaction', [second.hashes[4], CALLS])) as { input: string };
    expect(traced.input).toContain('a2');

    await result(url, 'anvil_reset', []);
    await result(url, 'evm_setAutomine', [false]);
    const third = await mineTransfers('0x00000000000000000000000000000000000000a3', [11, 12, 13]);
    expect(third.number).toBe(first.number);
    await checkTraces(third, [2, 0, 1], STRUCT);
    await checkTraces(third, [1, 2], CALLS);
  }, 60_000);
});
