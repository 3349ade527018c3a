/**
 * RLP round trip: a chain built from a devgate seed, exported as `geth export` writes it and
 * imported block by block into a fresh engine with the same genesis: same hashes and roots.
 */
import { fileURLToPath } from 'node:url';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { exportChain, importBlocks, readChainFile } from '../../../../src/eth/engine/build/import.js';
import { loadSeedFile, type LoadedSeed } from '../../../../src/seed/load.js';
import type { EthSeed } from '../../../../src/seed/eth.js';

const seedPath = (name: string) => fileURLToPath(new URL(`../../../fixtures/eth/${name}.json`, import.meta.url));

/** The same seed without blocks and pending transactions: the same genesis, nothing on top. */
function genesisOnly(loaded: LoadedSeed): LoadedSeed {
  return { ...loaded, seed: { ...(loaded.seed as EthSeed), blocks: [], pending: [] } };
}

const summary = (chain: EthChain) =>
  [...chain.blocks()].map((m) => ({
    hash: bytesToHex(m.hash),
    stateRoot: bytesToHex(m.block.header.stateRoot),
    receiptTrie: bytesToHex(m.block.header.receiptTrie),
    receipts: m.receipts.map((r) => [r.status, r.root && bytesToHex(r.root), r.cumulativeGasUsed, r.logs.length, r.contractAddress?.toString()]),
    totalDifficulty: m.totalDifficulty,
  }));

describe.each(['small', 'homestead'])('RLP round trip of the %s seed', (name) => {
  it('imports its own export into a fresh engine with the same hashes, roots and receipts', async () => {
    const loaded = loadSeedFile(seedPath(name));
    const built = await chainFromSeed(loaded);
    expect(built.head().number).toBeGreaterThan(2n);
    const file = exportChain(built);
    const fresh = await chainFromSeed(genesisOnly(loaded));
    const count = await importBlocks(fresh, readChainFile(file, `${name}.rlp`));
    expect(count).toBe([...built.blocks()].reduce((s, m) => s + m.block.transactions.length, 0));
    expect(summary(fresh)).toEqual(summary(built));
    expect(exportChain(fresh)).toEqual(file);
  });
});
