/** A chain file or genesis that does not match fails the load, naming the block and what differs. */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { RLP } from '@ethereumjs/rlp';
import { concatBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { importGethChain } from '../../../../src/eth/engine/build/import.js';
import { splitBlocks } from '../../../../src/eth/engine/build/rlp.js';

const DIR = fileURLToPath(new URL('../../../fixtures/forks/', import.meta.url));
const genesisText = readFileSync(`${DIR}genesis.json`, 'utf8');
const chainFile = new Uint8Array(readFileSync(`${DIR}chain.rlp`));
const raws = splitBlocks(chainFile);

/** The file with header field `field` (index in the header list) of block `n` replaced. */
function withHeaderField(n: number, field: number, value: Uint8Array): Uint8Array {
  const decoded = RLP.decode(raws[n]!) as unknown as [Uint8Array[], ...unknown[]];
  decoded[0][field] = value;
  const blocks = [...raws];
  blocks[n] = RLP.encode(decoded as never);
  return concatBytes(...blocks.slice(0, n + 1));
}

const load = (chain: Uint8Array, genesis: unknown = JSON.parse(genesisText)) =>
  importGethChain({ genesis, genesisSource: 'genesis.json', chain, chainSource: 'chain.rlp' });

describe('importing a chain that does not add up', () => {
  it('fails on a block whose state root is wrong, naming the block', async () => {
    await expect(load(withHeaderField(24, 3, new Uint8Array(32).fill(7)))).rejects.toThrow(/cannot import chain\.rlp: block 24 .*stateRoot/);
  });

  it('fails on a pre-byzantium block whose receipts root is wrong, naming the block', async () => {
    await expect(load(withHeaderField(4, 5, new Uint8Array(32).fill(9)))).rejects.toThrow(/block 4 .*receiptTrie/);
  });

  it('fails on an uncle whose difficulty is not the ethash one, even with a matching uncle hash', async () => {
    const decoded = RLP.decode(raws[10]!) as unknown as [Uint8Array[], Uint8Array[], Uint8Array[][]];
    decoded[2][0]![7] = RLP.decode(RLP.encode(131072n)) as Uint8Array;
    decoded[0][1] = keccak_256(RLP.encode(decoded[2] as never));
    const file = concatBytes(...raws.slice(0, 10), RLP.encode(decoded as never));
    await expect(load(file)).rejects.toThrow(/block 10: uncle 0 difficulty 131072 != \d+/);
  });

  it('fails on a london block whose base fee is not the initial one', async () => {
    await expect(load(withHeaderField(15, 15, RLP.decode(RLP.encode(7n)) as Uint8Array))).rejects.toThrow(
      /block 15 cannot be decoded: Initial EIP1559 block does not have initial base fee/,
    );
  });

  it('fails on a PoW block whose difficulty is not the ethash one', async () => {
    await expect(load(withHeaderField(3, 7, RLP.decode(RLP.encode(1n)) as Uint8Array))).rejects.toThrow(/block 3.*difficulty/);
  });

  it('fails when the terminal total difficulty puts the merge where PoW blocks still are', async () => {
    const genesis = JSON.parse(genesisText);
    genesis.config.terminalTotalDifficulty = 1_000_000;
    await expect(load(chainFile, genesis)).rejects.toThrow(/block \d+ cannot be decoded: .*difficulty/i);
  });

  it('fails when block 0 of the file is not the genesis the genesis.json describes', async () => {
    const genesis = JSON.parse(genesisText);
    genesis.alloc['0x00000000000000000000000000000000000000ff'] = { balance: '0x1' };
    await expect(load(chainFile, genesis)).rejects.toThrow(/block 0 .* is not this chain's genesis .*stateRoot/);
  });

  it('fails on a truncated file and on a gap, and names the bad genesis field', async () => {
    await expect(load(chainFile.subarray(0, chainFile.length - 10))).rejects.toThrow(/block 33 of the file is truncated/);
    await expect(load(concatBytes(raws[0]!, raws[1]!, raws[3]!))).rejects.toThrow(/item 2 of the file is block 3, expected block 2/);
    const genesis = JSON.parse(genesisText);
    delete genesis.config.chainId;
    await expect(load(chainFile, genesis)).rejects.toThrow(/invalid geth genesis genesis\.json:\nconfig\.chainId:/);
  });

  it('reads a gzip-compressed export as geth writes it for .gz names', async () => {
    const { chain } = await load(new Uint8Array(gzipSync(concatBytes(...raws.slice(0, 4)))));
    expect(chain.head().number).toBe(3n);
  });
});
