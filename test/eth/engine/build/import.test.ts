/**
 * Determinism, a pre-Byzantium (homestead, proof-of-work) chain, and foreign blocks: a built chain's
 * blocks, serialized and decoded again, import into a fresh engine with the same hashes and roots;
 * a block whose header does not match its execution fails naming the block.
 */
import { nodeOf } from '../../../support/node.js';
import { createBlock, createBlockFromRLP, type Block, type BlockData } from '@ethereumjs/block';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { seedGenesis } from '../../../../src/eth/engine/build/seed.js';
import { loadSeedFile } from '../../../../src/seed/load.js';

const hashes = (c: EthChain) => [...c.blocks()].map((b) => bytesToHex(b.hash));

/** A fresh engine at the seed's genesis, fed the serialized blocks of `source`. */
async function reimport(file: string, source: EthChain, tamper?: (n: bigint, block: Block) => Block): Promise<EthChain> {
  const genesis = seedGenesis(loadSeedFile(file));
  const target = await EthChain.fromGenesis({ ...genesis, genesisBlock: source.blockByNumber(0n)!.block });
  for (const mined of source.blocks(1n)) {
    let block = createBlockFromRLP(mined.block.serialize(), { common: target.common });
    if (tamper !== undefined) block = tamper(mined.number, block);
    await target.importBlock(block);
  }
  return target;
}

describe('osaka seed', () => {
  let first: EthChain;
  beforeAll(async () => {
    first = await chainFromSeed(loadSeedFile('test/fixtures/eth/small.json'));
  });

  it('is deterministic: building it twice gives the same block hashes', async () => {
    const second = await chainFromSeed(loadSeedFile('test/fixtures/eth/small.json'));
    expect(hashes(second)).toEqual(hashes(first));
    expect(bytesToHex((await nodeOf(second).pendingBlock()).hash)).toBe(bytesToHex((await nodeOf(first).pendingBlock()).hash));
  });

  it('round-trips: exported blocks import into a fresh engine with the same hashes, roots and receipts', async () => {
    const copy = await reimport('test/fixtures/eth/small.json', first);
    expect(hashes(copy)).toEqual(hashes(first));
    for (const [a, b] of [...first.blocks()].map((m, i) => [m, copy.blockByNumber(BigInt(i))!] as const)) {
      expect(b.block.header.stateRoot).toEqual(a.block.header.stateRoot);
      expect(b.receipts).toEqual(a.receipts);
      expect(b.senders.map(String)).toEqual(a.senders.map(String));
    }
    const head = copy.head();
    const dev0 = createAddressFromString('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(await copy.getAccount(dev0, head)).toEqual(await first.getAccount(dev0, first.head()));
  });

  it('rejects a block whose header does not match its execution, naming the block', async () => {
    const broken = reimport('test/fixtures/eth/small.json', first, (n, block) => {
      if (n !== 2n) return block;
      const data = block.toJSON();
      return createBlock({ ...data, header: { ...data.header, stateRoot: `0x${'11'.repeat(32)}` } } as BlockData, { common: block.common });
    });
    await expect(broken).rejects.toThrow(/block 2 does not execute to its header: .*stateRoot/);
  });

  it('leaves the chain as it was after a rejected block: the real block still imports', async () => {
    const genesis = seedGenesis(loadSeedFile('test/fixtures/eth/small.json'));
    const target = await EthChain.fromGenesis({ ...genesis, genesisBlock: first.blockByNumber(0n)!.block });
    const real = createBlockFromRLP(first.blockByNumber(1n)!.block.serialize(), { common: target.common });
    const data = real.toJSON();
    const forged = createBlock({ ...data, header: { ...data.header, stateRoot: `0x${'22'.repeat(32)}` } } as BlockData, { common: target.common });
    await expect(target.importBlock(forged)).rejects.toThrow(/block 1 /);
    expect(target.head().number).toBe(0n);
    await target.importBlock(real);
    expect(target.head().hash).toEqual(first.blockByNumber(1n)!.hash);
  });

  it('rejects a block that does not follow head', async () => {
    const genesis = seedGenesis(loadSeedFile('test/fixtures/eth/small.json'));
    const target = await EthChain.fromGenesis({ ...genesis, genesisBlock: first.blockByNumber(0n)!.block });
    const block2 = createBlockFromRLP(first.blockByNumber(2n)!.block.serialize(), { common: target.common });
    await expect(target.importBlock(block2)).rejects.toThrow(/block 2 .*parent hash/);
    expect(target.head().number).toBe(0n);
  });
});

describe('homestead seed (pre-Byzantium, proof of work)', () => {
  let chain: EthChain;
  beforeAll(async () => {
    chain = await chainFromSeed(loadSeedFile('test/fixtures/eth/homestead.json'));
  });

  it('receipts carry the intermediate state root, not a status', async () => {
    const b1 = chain.blockByNumber(1n)!;
    expect(b1.receipts).toHaveLength(2);
    for (const r of b1.receipts) {
      expect(r.status).toBeUndefined();
      expect(r.root).toHaveLength(32);
    }
    expect(b1.receipts[0]!.root).not.toEqual(b1.receipts[1]!.root);
    // the block's root adds the miner reward after the last transaction
    expect(b1.receipts[1]!.root).not.toEqual(b1.block.header.stateRoot);
    expect(b1.block.transactions.every((t) => t.type === 0)).toBe(true);
    expect(b1.block.header.baseFeePerGas).toBeUndefined();
  });

  it('has difficulty, total difficulty and miner rewards', async () => {
    const blocks = [...chain.blocks()];
    let td = 0n;
    for (const b of blocks) {
      expect(b.block.header.difficulty).toBeGreaterThanOrEqual(131072n);
      td += b.block.header.difficulty;
      expect(b.totalDifficulty).toBe(td);
    }
    const c1 = createAddressFromString('0x00000000000000000000000000000000000000c1');
    const reward = 5n * 10n ** 18n;
    const b2 = chain.blockByNumber(2n)!;
    const fees = b2.receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n);
    expect((await chain.getAccount(c1, b2))!.balance).toBe(reward + fees);
  });

  it('runs the homestead contract and the alloc code', async () => {
    const b3 = chain.blockByNumber(3n)!;
    expect(b3.receipts.flatMap((r) => r.logs).map((l) => l.logIndex)).toEqual([0, 1]);
    const store = chain.blockByNumber(2n)!.receipts[0]!.contractAddress!;
    const slot0 = new Uint8Array(32);
    expect(await chain.getStorage(store, slot0, b3)).toEqual(new Uint8Array([78]));
    const aa = createAddressFromString('0x00000000000000000000000000000000000000aa');
    expect(await chain.getStorage(aa, slot0, chain.blockByNumber(1n)!)).toEqual(new Uint8Array([5]));
    expect(await chain.getStorage(aa, slot0, chain.blockByNumber(2n)!)).toEqual(new Uint8Array([6]));
    const pending = await nodeOf(chain).pendingBlock();
    expect(pending.receipts[0]!.root).toHaveLength(32);
    expect(pending.block.header.difficulty).toBeGreaterThan(0n);
  });

  it('round-trips through import and is deterministic', async () => {
    const copy = await reimport('test/fixtures/eth/homestead.json', chain);
    expect(hashes(copy)).toEqual(hashes(chain));
    expect(copy.head().totalDifficulty).toBe(chain.head().totalDifficulty);
    expect(copy.blockByNumber(3n)!.receipts).toEqual(chain.blockByNumber(3n)!.receipts);
  });
});
