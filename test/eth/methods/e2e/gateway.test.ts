/** The engine behind the gateway: a shipped chain served over HTTP, read with viem at several blocks. */
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';

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
    expect(engine.chainId).toBe(11155111n);
    expect(await client.getChainId()).toBe(11155111);
    expect(await client.getBlockNumber()).toBe(engine.blockNumber());
    const block = await client.getBlock({ blockNumber: 5n });
    const mined = (await engine.getBlock(5n))!;
    expect(block.hash).toBe(mined.hash);
    expect(block.parentHash).toBe((await engine.getBlock(4n))!.hash);
    expect(block.transactions).toEqual(mined.transactions);
    expect(block.gasUsed).toBe(mined.gasUsed);
    expect(block.stateRoot).toBe(mined.stateRoot);
    expect(await engine.getBlock(engine.blockNumber() + 1n)).toBeUndefined();
  });

  it('answers balances at any block from the historical state', async () => {
    const engine = gw.eth('sepolia');
    const dev2 = engine.devAccounts()[2]!.address; // sends in block 2
    for (const n of [0n, 1n, 2n, 20n, engine.blockNumber()]) {
      expect(await client.getBalance({ address: dev2, blockNumber: n })).toBe(await engine.getBalance(dev2, n));
      expect(await client.getTransactionCount({ address: dev2, blockNumber: n })).toBe(Number(await engine.getTransactionCount(dev2, n)));
    }
    const token = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    expect(await client.getCode({ address: token })).toBe(await engine.getCode(token));
    expect(await client.getStorageAt({ address: token, slot: '0x2' })).toBe(await engine.getStorageAt(token, 2n));
    expect(await client.getBalance({ address: DEV0, blockNumber: 0n })).toBe(10_000n * 10n ** 18n);
    const atTwo = await client.getBalance({ address: dev2.toString() as `0x${string}`, blockNumber: 2n });
    const atOne = await client.getBalance({ address: dev2.toString() as `0x${string}`, blockNumber: 1n });
    expect(atTwo).not.toBe(atOne);
  });
});
