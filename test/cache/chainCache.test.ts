/**
 * The cache of built chains: a chain restored from its chain image answers as the freshly built one
 * (hashes, roots, receipts, historical balances and proofs, the pending block); a changed seed or
 * artifact misses; a corrupt, truncated or foreign file is rebuilt, never trusted. Every test uses
 * its own temporary directory, so nothing depends on an earlier run.
 */
import { nodeOf } from '../support/node.js';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedEthChain, chainKey } from '../../src/cache/chainCache.js';
import { EthChain } from '../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../src/eth/engine/build/chainFromSeed.js';
import { ethMethods } from '../../src/eth/methods/index.js';
import { encodeChainImage, restoreChainImage, ChainImageError } from '../../src/eth/engine/image/chainImage.js';
import { seedGenesis } from '../../src/eth/engine/build/seed.js';
import { loadSeedFile, parseSeed, type LoadedSeed } from '../../src/seed/load.js';
import type { MinedBlock } from '../../src/eth/engine/chain/types.js';
import { blockLogIndex } from '../../src/eth/engine/query/logIndex.js';
import { minedBlockJson } from '../../src/eth/format/block.js';
import { minedLogJson } from '../../src/eth/format/log.js';
import { blockReceiptsJson, receiptJson } from '../../src/eth/format/receipt.js';
import { minedTransactionJson } from '../../src/eth/format/transaction.js';

const work = mkdtempSync(join(tmpdir(), 'devgate-cache-test-'));
const seedDir = join(work, 'seed');
mkdirSync(join(seedDir, 'contracts'), { recursive: true });
copyFileSync('chains/contracts/Token.json', join(seedDir, 'contracts', 'Token.json'));
const seedValue = JSON.parse(readFileSync('test/fixtures/eth/small.json', 'utf8')) as { blocks: { transactions: unknown[] }[]; genesis: { timestamp: string } };
const load = (value: unknown = seedValue): LoadedSeed => parseSeed(value, 'small', seedDir);
let dirCount = 0;
const freshDir = () => join(work, `cache-${dirCount++}`);
const files = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.chain'));

let fresh: EthChain;
let restored: EthChain;
let dir: string;
/** Head of the seeded chain (the tests below mine on `fresh` and `restored`). */
let seededHead: { number: bigint; hash: Uint8Array };

beforeAll(async () => {
  fresh = await chainFromSeed(load());
  seededHead = { number: fresh.head().number, hash: fresh.head().hash };
  dir = freshDir();
  const first = await cachedEthChain(load(), dir);
  expect(first.cache).toBe('stored');
  const second = await cachedEthChain(load(), dir);
  expect(second.cache).toBe('hit');
  restored = second.chain;
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A restored chain's blocks read before their Block is decoded (header alone, single transactions,
 * the chain image's transaction hashes) give what the built blocks give, and the same wire texts.
 */
function expectSameFirstTouch(built: Iterable<MinedBlock>, restoredAgain: EthChain): void {
  for (const m of built) {
    const r = restoredAgain.blockByNumber(m.number)!;
    expect(r.header.hash()).toEqual(m.hash);
    expect(r.header.common.hardfork()).toBe(m.block.header.common.hardfork());
    expect(r.txHashes).toEqual(m.block.transactions.map((tx) => tx.hash()));
    m.block.transactions.forEach((tx, i) => {
      const one = r.transactionAt!(i);
      expect(one.serialize()).toEqual(tx.serialize());
      expect(one.common.hardfork()).toBe(tx.common.hardfork());
      expect(receiptJson(r, i).text).toBe(receiptJson(m, i).text);
      expect(minedTransactionJson(r, i).text).toBe(minedTransactionJson(m, i).text);
    });
    blockLogIndex(m).logs.forEach((log, p) => {
      const txIndex = blockLogIndex(m).txIndexes[p]!;
      expect(minedLogJson(r, p, txIndex, blockLogIndex(r).logs[p]!)).toBe(minedLogJson(m, p, txIndex, log));
    });
    expect(blockReceiptsJson(r).text).toBe(blockReceiptsJson(m).text);
    for (const full of [false, true]) expect(minedBlockJson(r, full).text).toBe(minedBlockJson(m, full).text);
  }
}

describe('a chain restored from the cache', () => {
  it('has the same blocks, senders, receipts and total difficulty', () => {
    const a = [...fresh.blocks()];
    const b = [...restored.blocks()];
    expect(b.length).toBe(a.length);
    expect(a.length).toBeGreaterThan(4);
    a.forEach((m, i) => {
      const r = b[i]!;
      expect(r.hash).toEqual(m.hash);
      expect(r.block.serialize()).toEqual(m.block.serialize());
      expect(r.block.header.stateRoot).toEqual(m.block.header.stateRoot);
      expect(r.block.header.receiptTrie).toEqual(m.block.header.receiptTrie);
      expect(r.totalDifficulty).toBe(m.totalDifficulty);
      expect(r.senders.map(String)).toEqual(m.senders.map(String));
      expect(r.receipts).toEqual(m.receipts);
    });
    expect(restored.transaction(a[2]!.block.transactions[1]!.hash())).toMatchObject({ kind: 'mined', index: 1 });
  });

  it('reads headers, single transactions and transaction hashes without the Block, and formats the same texts', async () => {
    const again = await cachedEthChain(load(), dir);
    expect(again.cache).toBe('hit');
    expectSameFirstTouch([...fresh.blocks()].slice(0, Number(seededHead.number) + 1), again.chain);
  });

  it('answers eth_call and eth_getProof at every block like the fresh chain (trie nodes read out of the chain image)', async () => {
    const methods = ethMethods();
    const ask = (chain: EthChain, method: string, params: unknown[]) =>
      methods.execute({ node: nodeOf(chain), chain, networkName: 'small', miner: nodeOf(chain).miner }, { id: 1, method, params });
    const token = fresh.blockByNumber(1n)!.receipts[0]!.contractAddress!.toString();
    const holders = fresh.devAccounts().map((d) => d.address.toString());
    for (const m of fresh.blocks()) {
      const tag = `0x${m.number.toString(16)}`;
      for (const h of holders.slice(0, 3)) {
        const data = `0x70a08231${h.slice(2).padStart(64, '0')}`;
        expect(await ask(restored, 'eth_call', [{ to: token, data }, tag])).toEqual(await ask(fresh, 'eth_call', [{ to: token, data }, tag]));
        expect(await ask(restored, 'eth_getProof', [h, [], tag])).toEqual(await ask(fresh, 'eth_getProof', [h, [], tag]));
      }
    }
  });

  it('has the same dev accounts (saved in the chain image, not derived again)', () => {
    const show = (c: EthChain) => c.devAccounts().map((d) => [d.address.toString(), Buffer.from(d.privateKey).toString('hex')]);
    expect(show(restored)).toEqual(show(fresh));
    expect(show(restored).length).toBeGreaterThan(0);
  });

  it('answers historical balances, storage and proofs at every block', async () => {
    const addresses = [...fresh.devAccounts().map((d) => d.address), createAddressFromString('0x00000000000000000000000000000000000000b1')];
    const token = fresh.blockByNumber(1n)!.receipts[0]!.contractAddress!;
    const slot = setLengthLeft(hexToBytes('0x02'), 32);
    for (const m of fresh.blocks()) {
      const r = restored.blockByNumber(m.number)!;
      for (const a of addresses) expect((await restored.getAccount(a, r))?.balance).toBe((await fresh.getAccount(a, m))?.balance);
      expect(await restored.getStorage(token, slot, r)).toEqual(await fresh.getStorage(token, slot, m));
      const pa = await getMerkleStateProof(await restored.stateAt(r), token, [slot]);
      const pb = await getMerkleStateProof(await fresh.stateAt(m), token, [slot]);
      expect(pa).toEqual(pb);
    }
  });

  it('has the same pending pool and pending block, and keeps mining like the fresh chain', async () => {
    expect(restored.pendingTransactions().map((p) => p.tx.hash())).toEqual(fresh.pendingTransactions().map((p) => p.tx.hash()));
    expect(restored.pendingTransactions().map((p) => p.sender.toString())).toEqual(fresh.pendingTransactions().map((p) => p.sender.toString()));
    const [pa, pb] = await Promise.all([nodeOf(restored).pendingBlock(), nodeOf(fresh).pendingBlock()]);
    expect(pa.hash).toEqual(pb.hash);
    expect(pa.receipts).toEqual(pb.receipts);
    const [ma, mb] = [await nodeOf(restored).mineBlock(), await nodeOf(fresh).mineBlock()];
    expect(ma.hash).toEqual(mb.hash);
    expect(ma.block.header.stateRoot).toEqual(mb.block.header.stateRoot);
    // The hash indexes (built on first lookup, earlier tests looked up) know the new block and its transactions.
    expect(restored.blockByHash(ma.hash)).toBe(ma);
    expect(restored.blockByHash(restored.blockByNumber(1n)!.hash)).toBe(restored.blockByNumber(1n));
    ma.txHashes.forEach((h, index) => {
      expect(restored.transaction(h)).toMatchObject({ kind: 'mined', block: ma, index });
    });
  });
});

describe('cache keys', () => {
  it('a changed seed misses the cache', async () => {
    const changed = structuredClone(seedValue);
    changed.blocks.push({ transactions: [{ from: 2, to: '0x00000000000000000000000000000000000000b9', value: '5' }] });
    expect(chainKey(load(changed))).not.toEqual(chainKey(load()));
    const before = files(dir);
    expect(before).toHaveLength(1);
    const out = await cachedEthChain(load(changed), dir);
    expect(out.cache).toBe('stored');
    // The older build of the same network is pruned.
    expect(files(dir)).toHaveLength(1);
    expect(files(dir)[0]).not.toBe(before[0]);
    expect(out.chain.head().number).toBe(seededHead.number + 1n);
  });

  it('a changed artifact in the seed folder misses the cache', async () => {
    const before = chainKey(load());
    const file = join(seedDir, 'contracts', 'Token.json');
    const original = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, original + '\n');
      expect(chainKey(load())).not.toEqual(before);
    } finally {
      writeFileSync(file, original);
    }
    expect(chainKey(load())).toEqual(before);
  });

  it('cache off builds and writes nothing', async () => {
    const out = await cachedEthChain(load(), undefined);
    expect(out.cache).toBe('off');
    expect(out.chain.head().hash).toEqual(seededHead.hash);
  });
});

describe('a damaged cache file', () => {
  const damage = async (how: (bytes: Buffer) => Buffer) => {
    const d = freshDir();
    expect((await cachedEthChain(load(), d)).cache).toBe('stored');
    const file = join(d, files(d)[0]!);
    writeFileSync(file, how(readFileSync(file)));
    const out = await cachedEthChain(load(), d);
    expect(out.cache).toBe('stored');
    expect(out.chain.head().hash).toEqual(seededHead.hash);
    expect((await cachedEthChain(load(), d)).cache).toBe('hit');
  };

  it('is rebuilt when a byte is flipped', () =>
    damage((b) => {
      b[b.length >> 1] ^= 0xff;
      return b;
    }));
  it('is rebuilt when truncated', () => damage((b) => b.subarray(0, b.length - 100)));
  it('is rebuilt when it is not a chain image at all', () => damage(() => Buffer.from('{"not":"a chain"}')));

  it('a chain image of another chain is refused by its key', async () => {
    const bytes = encodeChainImage(fresh.parts(), new Uint8Array(32).fill(7));
    const { common, accounts = [] } = seedGenesis(load());
    await expect(restoreChainImage(bytes, { key: chainKey(load()), common, accounts })).rejects.toThrow(ChainImageError);
    await expect(restoreChainImage(bytes, { key: new Uint8Array(32).fill(7), common, accounts })).resolves.toBeInstanceOf(EthChain);
  });

  it('a chain image whose head state is missing from the node store is refused', async () => {
    const parts = fresh.parts();
    const nodes = new Map(parts.nodes);
    nodes.delete(Buffer.from(fresh.head().block.header.stateRoot).toString('hex'));
    const key = new Uint8Array(32).fill(9);
    const bytes = encodeChainImage({ ...parts, nodes }, key);
    const { common, accounts = [] } = seedGenesis(load());
    await expect(restoreChainImage(bytes, { key, common, accounts })).rejects.toThrow(/sound chain/);
  });

  it('a chain image whose blocks do not chain up is refused', async () => {
    const other = structuredClone(seedValue);
    other.genesis.timestamp = '0x6553f101';
    const foreign = await chainFromSeed(load(other));
    const parts = fresh.parts();
    const blocks = [parts.blocks[0]!, foreign.blockByNumber(1n)!, ...parts.blocks.slice(2)];
    const key = new Uint8Array(32).fill(5);
    const { common, accounts = [] } = seedGenesis(load());
    await expect(restoreChainImage(encodeChainImage({ ...parts, blocks }, key), { key, common, accounts })).rejects.toThrow(/block 1 does not follow block 0/);
  });
});

describe('an imported geth chain (genesis.json + chain.rlp)', () => {
  it('is restored from the cache with the same blocks, receipts, state and hardfork schedule', async () => {
    const forks = loadSeedFile('test/fixtures/forks/seed.json');
    const built = await chainFromSeed(forks);
    const d = freshDir();
    expect((await cachedEthChain(forks, d)).cache).toBe('stored');
    const out = await cachedEthChain(forks, d);
    expect(out.cache).toBe('hit');
    const r = out.chain;
    expect(r.head().number).toBe(built.head().number);
    for (const m of built.blocks()) {
      const x = r.blockByNumber(m.number)!;
      expect(x.hash).toEqual(m.hash);
      expect(x.totalDifficulty).toBe(m.totalDifficulty);
      expect(x.block.common.hardfork()).toBe(m.block.common.hardfork());
      expect(x.block.uncleHeaders.map((u) => u.hash())).toEqual(m.block.uncleHeaders.map((u) => u.hash()));
      expect(x.receipts).toEqual(m.receipts);
      expect(x.senders.map(String)).toEqual(m.senders.map(String));
      for (const s of m.senders) expect((await r.getAccount(s, x))?.balance).toBe((await built.getAccount(s, m))?.balance);
    }
    expect(r.common.hardfork()).toBe(built.common.hardfork());
    expect((await nodeOf(r).pendingBlock()).hash).toEqual((await nodeOf(built).pendingBlock()).hash);
    const again = await cachedEthChain(forks, d);
    expectSameFirstTouch(built.blocks(), again.chain);
  });
});
