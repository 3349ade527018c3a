/**
 * Far-future block times (issue 25): a head devgate accepted always reopens from its data directory, and a block
 * time past 2^64-1 is refused by every control that sets one, as anvil refuses it ("The timestamp is too big").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';

const SEED = 'test/fixtures/eth/small.json';
const dirs: string[] = [];
afterAll(() =>
  dirs.forEach((d) => {
    rmSync(d, { recursive: true, force: true });
  }),
);
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'devgate-ts-'));
  dirs.push(d);
  return d;
};
const open = (dataDir?: string) => start({ port: 0, chains: [SEED], cache: false, ...(dataDir ? { dataDir } : {}) });
const rpc = async (gw: Gateway, method: string, params: unknown[] = []) => {
  const res = await call(gw.url('small'), method, params);
  if (res.error !== undefined) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
  return res.result;
};

describe('block times far in the future', () => {
  it.each([
    ['0x4000000000000000', 1],
    ['0x123456789abcdef0', 2],
  ])('a head mined at %s reopens from the data directory with every block', async (ts, mines) => {
    const dir = fresh();
    let gw = await open(dir);
    const [from] = await rpc(gw, 'eth_accounts');
    await rpc(gw, 'evm_setNextBlockTimestamp', [ts]);
    for (let i = 0; i < mines; i++) await rpc(gw, 'evm_mine');
    await rpc(gw, 'eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    const head = await rpc(gw, 'eth_getBlockByNumber', ['latest', false]);
    expect(BigInt(head.timestamp)).toBeGreaterThan(BigInt(ts));
    await gw.stop();
    gw = await open(dir);
    try {
      const again = await rpc(gw, 'eth_getBlockByNumber', ['latest', false]);
      expect(again.hash).toBe(head.hash);
      expect(again.timestamp).toBe(head.timestamp);
      await rpc(gw, 'eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    } finally {
      await gw.stop();
    }
  });

  it('refuses a block time past 2^64-1 from every control, and the chain stays as it was', async () => {
    const gw = await open();
    try {
      const u = gw.url('small');
      const before = await rpc(gw, 'eth_getBlockByNumber', ['latest', false]);
      const refused = async (method: string, params: unknown[], text = /^The timestamp is too big/) => {
        const res = await call(u, method, params);
        expect(res.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
        expect(res.error?.message).toMatch(text);
      };
      // Past 64 bits: the param decoder refuses them.
      await refused('evm_setNextBlockTimestamp', ['0x10000000000000008'], /> 64 bits/);
      await refused('evm_mine', [{ timestamp: '0x10000000000000008' }], /> 64 bits/);
      // Within 64 bits, but the next block would be past 2^64-1.
      await refused('evm_increaseTime', ['0xffffffffffffffff']);
      await refused('anvil_setBlockTimestampInterval', ['0xffffffffffffffff']);
      // Blocks that step past 2^64-1 from a time just below it: refused before any is mined.
      await rpc(gw, 'evm_setNextBlockTimestamp', ['0xfffffffffffffff0']);
      await refused('anvil_mine', ['0x3']);
      expect((await rpc(gw, 'eth_getBlockByNumber', ['latest', false])).hash).toBe(before.hash);
      await rpc(gw, 'evm_mine');
      await rpc(gw, 'evm_mine');
      await refused('evm_mine', []);
      await rpc(gw, 'evm_setNextBlockTimestamp', ['0xffffffffffffffff']);
      await rpc(gw, 'evm_mine');
      await refused('evm_mine', []);
      await refused('evm_increaseTime', ['0x1']);
      expect(BigInt(await rpc(gw, 'eth_blockNumber'))).toBe(BigInt(before.number) + 3n);
    } finally {
      await gw.stop();
    }
  });
});
