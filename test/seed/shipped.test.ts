/** The shipped chains load and hold what they promise; the shipped JSON Schema matches the zod schemas. */
import { nodeOf } from '../support/node.js';
import { readFileSync } from 'node:fs';
import { bytesToBigInt, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { keccak256, toEventSelector } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EthChain } from '../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../src/eth/engine/build/chainFromSeed.js';
import { loadSeedFile } from '../../src/seed/load.js';
import { seedJsonSchema } from '../../scripts/seed-schema.js';

const TRANSFER = toEventSelector('Transfer(address,address,uint256)');

describe('chains/mainnet.json', () => {
  let chain: EthChain;
  beforeAll(async () => {
    chain = await chainFromSeed(loadSeedFile('chains/mainnet.json'));
  });

  it('is chain 1 with a few hundred executed blocks of all three transaction types', () => {
    expect(chain.chainId).toBe(1n);
    expect(chain.common.hardfork()).toBe('osaka');
    expect(chain.head().number).toBe(300n);
    const types = new Set([...chain.blocks()].flatMap((b) => b.block.transactions.map((t) => t.type)));
    expect([...types].sort()).toEqual([0, 1, 2]);
  });

  it('deploys the Token, StorageLayout, Reverter and Emitter, and more contracts later', () => {
    const created = [...chain.blocks()].flatMap((b) => b.receipts.filter((r) => r.contractAddress !== undefined && r.status === 1));
    expect(created.length).toBeGreaterThanOrEqual(8);
  });

  it('has Token Transfer events to more than 100 holders, and mined failures', () => {
    const token = chain.blockByNumber(1n)!.receipts[0]!.contractAddress!;
    const holders = new Set<string>();
    let failed = 0;
    for (const b of chain.blocks()) {
      for (const r of b.receipts) {
        if (r.status === 0) failed++;
        for (const log of r.logs) if (log.address.equals(token) && bytesToHex(log.topics[0]!) === TRANSFER) holders.add(bytesToHex(log.topics[2]!));
      }
    }
    expect(holders.size).toBeGreaterThan(100);
    expect(failed).toBeGreaterThanOrEqual(20);
  });

  it('sets StorageLayout plain, packed and mapping slots', async () => {
    const layout = chain.blockByNumber(1n)!.receipts[1]!.contractAddress!;
    const head = chain.head();
    const slot = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);
    expect(bytesToBigInt(await chain.getStorage(layout, slot(0), head))).toBe(4242n);
    expect(bytesToBigInt(await chain.getStorage(layout, slot(2), head))).toBe((9n << 128n) | 7n);
    const dev1 = '70997970c51812dc3a010c7d01b50e0d17dc79c8'.padStart(64, '0');
    const balanceSlot = hexToBytes(keccak256(`0x${dev1}${'3'.padStart(64, '0')}`));
    expect(bytesToBigInt(await chain.getStorage(layout, balanceSlot, head))).toBe(100n);
  });

  it('keeps pending transactions that all apply in the pending block', async () => {
    expect(chain.pendingTransactions().length).toBe(4);
    expect((await nodeOf(chain).pendingBlock()).block.transactions.length).toBe(4);
  });
});

describe('chains/sepolia.json', () => {
  it('is chain 11155111, smaller', async () => {
    const chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
    expect(chain.chainId).toBe(11155111n);
    expect(chain.head().number).toBe(40n);
    expect(chain.pendingTransactions().length).toBe(1);
  });
});

describe('chains/seed.schema.json', () => {
  it('is what scripts/seed-schema.ts generates from the zod schemas (run it after changing them)', () => {
    expect(readFileSync('chains/seed.schema.json', 'utf8')).toBe(seedJsonSchema());
  });
});
