/** Imported chains over the gateway: a seed with gethGenesis + rlpChain, and a bare genesis.json as a chain. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { loadSeedFile, parseSeed } from '../../../../src/seed/load.js';
import { splitBlocks } from '../../../../src/eth/engine/build/rlp.js';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { call } from '../../../support/http.js';

const DIR = fileURLToPath(new URL('../../../fixtures/forks/', import.meta.url));
const fileHashes = splitBlocks(new Uint8Array(readFileSync(`${DIR}chain.rlp`))).map((raw) =>
  bytesToHex(keccak_256(RLP.encode((RLP.decode(raw) as Uint8Array[][])[0]!))),
);

let gw: Gateway;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [`${DIR}seed.json`, `${DIR}genesis.json`] });
});
afterAll(async () => {
  await gw.stop();
});

describe('serving imported chains', () => {
  it('names a bare genesis.json network after its file, with the genesis chain id', () => {
    expect(gw.networks).toEqual([
      { name: 'forks', kind: 'eth', chainId: '7357' },
      { name: 'genesis', kind: 'eth', chainId: '7357' },
    ]);
  });

  it('serves the imported blocks of a gethGenesis + rlpChain seed', async () => {
    const client = createPublicClient({ transport: http(gw.url('forks')) });
    expect(await client.getBlockNumber()).toBe(33n);
    expect(await client.getChainId()).toBe(7357);
    for (const n of [0n, 1n, 17n, 18n, 25n, 33n]) {
      const block = await client.getBlock({ blockNumber: n });
      expect(block.hash).toBe(fileHashes[Number(n)]);
    }
    const merged = await client.getBlock({ blockNumber: 18n });
    expect(merged.difficulty).toBe(0n);
    const blobBlock = await client.getBlock({ blockNumber: 31n, includeTransactions: true });
    expect(blobBlock.excessBlobGas).toBeGreaterThan(0n);
    expect(blobBlock.transactions.map((tx) => tx.type)).toContain('eip4844');
  });

  it("serves a bare genesis.json with the dev accounts funded beside its alloc, as anvil --init (geth's exact genesis: a seed naming gethGenesis)", async () => {
    expect((await call(gw.url('genesis'), 'eth_blockNumber')).result).toBe('0x0');
    const block = (await call(gw.url('genesis'), 'eth_getBlockByNumber', ['0x0', false])).result;
    expect(block.number).toBe('0x0');
    // The funded accounts change the state root: not the block the export starts with (the 'forks' network serves that one).
    expect(block.hash).not.toBe(fileHashes[0]);
    expect((await call(gw.url('forks'), 'eth_getBlockByNumber', ['0x0', false])).result.hash).toBe(fileHashes[0]);
    const accounts = (await call(gw.url('genesis'), 'eth_accounts')).result as string[];
    expect(accounts).toHaveLength(10);
    expect(accounts[0]).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect((await call(gw.url('genesis'), 'eth_getBalance', [accounts[9], 'latest'])).result).toBe('0x21e19e0c9bab2400000');
  });
});

describe('seed validation of gethGenesis', () => {
  it('rejects own genesis, alloc or blocks next to gethGenesis, and rlpChain without it', () => {
    expect(() =>
      parseSeed(
        { name: 'x', kind: 'eth', chainId: 1, gethGenesis: 'g.json', alloc: { '0x00000000000000000000000000000000000000aa': { balance: '1' } }, blocks: [{}] },
        'seed.json',
      ),
    ).toThrow(
      /alloc: a seed with gethGenesis takes its chain from the geth files: remove alloc\nblocks: a seed with gethGenesis takes its chain from the geth files: remove blocks/,
    );
    expect(() => parseSeed({ name: 'x', kind: 'eth', chainId: 1, rlpChain: 'c.rlp' }, 'seed.json')).toThrow(
      /rlpChain: an rlpChain needs the gethGenesis it starts from/,
    );
  });

  it('fails the start when the seed chain id differs from the genesis, or a file is missing', async () => {
    const wrongId = { name: 'x', kind: 'eth', chainId: 1, gethGenesis: `${DIR}genesis.json` };
    await expect(start({ port: 0, chains: [wrongId] })).rejects.toThrow(/chainId: 1 differs from config\.chainId 7357/);
    await expect(start({ port: 0, chains: [{ ...wrongId, chainId: 7357, rlpChain: 'nope.rlp' }] })).rejects.toThrow(/cannot read chain file nope\.rlp: ENOENT/);
    expect(loadSeedFile(`${DIR}seed.json`).seed).toMatchObject({ gethGenesis: 'genesis.json', rlpChain: 'chain.rlp' });
  });
});
