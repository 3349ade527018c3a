/**
 * viem's test client in its three modes (anvil, hardhat, ganache) against one gateway: each mode sends its own method
 * names (anvil_/hardhat_ twins, ganache's evm_setAccountBalance, evm_setAccountCode, eth_mining, miner_start and
 * miner_stop, hardhat_setBlockTimestampInterval as viem's hardhat mode names it), and each must act, not just answer.
 */
import { createPublicClient, createTestClient, http } from 'viem';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';

const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };
let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw?.stop());

describe("viem's test actions in every mode", () => {
  for (const [i, mode] of (['anvil', 'hardhat', 'ganache'] as const).entries()) {
    it(`${mode}: balance, code, automine on and off, timestamp interval, mine`, async () => {
      const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
      const test = createTestClient({ chain, mode, transport: http(url) });
      const address = `0x00000000000000000000000000000000000000d${i}` as const;
      await test.setBalance({ address, value: 12345n + BigInt(i) });
      expect(await client.getBalance({ address })).toBe(12345n + BigInt(i));
      await test.setCode({ address, bytecode: '0x6001' });
      expect(await client.getCode({ address })).toBe('0x6001');
      await test.setAutomine(false);
      expect(await test.getAutomine()).toBe(false);
      await test.setAutomine(true);
      expect(await test.getAutomine()).toBe(true);
      if (mode !== 'ganache') {
        await test.setBlockTimestampInterval({ interval: 100 });
        const before = await client.getBlock();
        await test.mine({ blocks: 1 });
        const after = await client.getBlock();
        expect(after.timestamp - before.timestamp).toBe(100n);
        await test.removeBlockTimestampInterval();
      }
      const n = await client.getBlockNumber();
      await test.mine({ blocks: 1 });
      expect(await client.getBlockNumber()).toBe(n + 1n);
    });
  }
});
