/**
 * anvil_mine of many blocks (issue 25): reads are served between blocks while the writer stays held, and a call
 * whose work (blocks + pool transactions) is past the limit is refused with -32005 naming it, before anything is
 * mined. Before, 10,000 blocks held every network for 17.8 s and 1,000,000 was accepted (~30 min, ~33 GB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { call } from '../../../../support/http.js';

const SEED = 'test/fixtures/eth/small.json';
let gw: Gateway;
let u: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], cache: false, limits: { maxMineBlocks: 200 } });
  u = gw.url('small');
});
afterAll(() => gw.stop());
const head = async () => BigInt((await call(u, 'eth_blockNumber', [])).result);

describe('mining many blocks', () => {
  it('serves reads of the same network between blocks, and no other write comes between', async () => {
    const from = (await call(u, 'eth_accounts', [])).result[0];
    const start = await head();
    const N = 150n;
    let mined = false;
    const mining = call(u, 'anvil_mine', [`0x${N.toString(16)}`]).then((r) => {
      mined = true;
      return r;
    });
    // A read while the blocks are mined sees a head between the first and the last; a send waits for the writer.
    let seen: bigint | undefined;
    for (let i = 0; i < 200 && !mined; i++) {
      await new Promise((r) => setTimeout(r, 10));
      const n = await head();
      if (!mined && n > start && n < start + N) {
        seen = n;
        break;
      }
    }
    const send = call(u, 'eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    expect((await mining).error).toBeUndefined();
    expect(seen, 'a read answered between two blocks').toBeDefined();
    const hash = (await send).result;
    const receipt = (await call(u, 'eth_getTransactionReceipt', [hash])).result;
    expect(BigInt(receipt.blockNumber)).toBe(start + N + 1n);
  });

  it('refuses a count past the limit with -32005 naming it, and mines nothing', async () => {
    const before = await head();
    for (const [method, params] of [
      ['hardhat_mine', ['0xc9']],
      ['evm_mine', [{ blocks: 201 }]],
      ['anvil_mine', ['0xf4240']],
    ] as const) {
      const res = await call(u, method, [...params]);
      expect(res.error?.code, method).toBe(-32005);
      expect(res.error?.message).toMatch(/past the limit of 200 blocks .*--max-mine-blocks/);
    }
    expect(await head()).toBe(before);
    expect((await call(u, 'anvil_mine', ['0x5'])).error).toBeUndefined();
    expect(await head()).toBe(before + 5n);
  });
});
