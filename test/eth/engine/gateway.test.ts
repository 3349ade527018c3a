/** The engine behind the gateway: a shipped chain served over HTTP, read with viem at several blocks. */
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../src/index.js';

const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

describe('chains/sepolia.json over the gateway', () => {
  let gw: Gateway;
  let client: PublicClient;
  beforeAll(async () => {
    gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
    client = createPublicClient({ transport: http(gw.url('sepolia')) });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('serves real blocks: the engine head, hashes and parents', async () => {
    const engine = gw.eth('sepolia');
    expect(await client.getChainId()).toBe(11155111);
    expect(await client.getBlockNumber()).toBe(engine.head().number);
    const block = await client.getBlock({ blockNumber: 5n });
    const mined = engine.blockByNumber(5n)!;
    expect(block.hash).toBe(`0x${Buffer.from(mined.hash).toString('hex')}`);
    expect(block.parentHash).toBe(`0x${Buffer.from(engine.blockByNumber(4n)!.hash).toString('hex')}`);
    expect(block.transactions).toHaveLength(mined.block.transactions.length);
    expect(block.gasUsed).toBe(mined.block.header.gasUsed);
  });

  it('answers balances at any block from the historical state', async () => {
    const engine = gw.eth('sepolia');
    const dev2 = engine.devAccounts()[2]!.address; // sends in block 2
    for (const n of [0n, 1n, 2n, 20n, engine.head().number]) {
      const expected = (await engine.getAccount(dev2, engine.blockByNumber(n)!))?.balance ?? 0n;
      expect(await client.getBalance({ address: dev2.toString() as `0x${string}`, blockNumber: n })).toBe(expected);
    }
    expect(await client.getBalance({ address: DEV0, blockNumber: 0n })).toBe(10_000n * 10n ** 18n);
    const atTwo = await client.getBalance({ address: dev2.toString() as `0x${string}`, blockNumber: 2n });
    const atOne = await client.getBalance({ address: dev2.toString() as `0x${string}`, blockNumber: 1n });
    expect(atTwo).not.toBe(atOne);
  });
});
