/** Reading geth genesis files: hardfork schedule, merge by TTD, blob schedule, alloc and header. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { GethGenesisFile, gethCommon, gethGenesisHeader, gethState, resolveMergeBlock } from '../../../../src/eth/engine/build/geth.js';
import { looksLikeGethGenesis } from '../../../../src/seed/load.js';
import { prepareCommon } from '../../../../src/eth/engine/exec/common.js';
import { importGethChain } from '../../../../src/eth/engine/build/import.js';

const DIR = fileURLToPath(new URL('../../../fixtures/forks/', import.meta.url));
const forks = GethGenesisFile.parse(JSON.parse(readFileSync(`${DIR}genesis.json`, 'utf8')));

/** A post-merge devnet genesis as `geth --dev` style tools write it (every fork at genesis). */
const devnet = GethGenesisFile.parse({
  config: {
    chainId: 1337,
    homesteadBlock: 0,
    eip150Block: 0,
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    berlinBlock: 0,
    londonBlock: 0,
    mergeNetsplitBlock: 0,
    terminalTotalDifficulty: 0,
    shanghaiTime: 0,
    cancunTime: 0,
    pragueTime: 0,
    blobSchedule: { cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 }, prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 } },
  },
  difficulty: '0x0',
  gasLimit: '0x1c9c380',
  timestamp: '0x0',
  extraData: '0x',
  alloc: { '0x70997970c51812dc3a010c7d01b50e0d17dc79c8': { balance: '1000000000000000000', storage: { '0x1': '0x02' } } },
});

describe('geth genesis', () => {
  it('recognises a geth genesis by its config and alloc', () => {
    expect(looksLikeGethGenesis({ config: {}, alloc: {} })).toBe(true);
    expect(looksLikeGethGenesis({ kind: 'eth', name: 'x', config: {}, alloc: {} })).toBe(false);
    expect(looksLikeGethGenesis({ config: {} })).toBe(false);
  });

  it('resolves the merge block from the terminal total difficulty', () => {
    const g = GethGenesisFile.parse({ config: { chainId: 1, terminalTotalDifficulty: 300 }, difficulty: '0x64', alloc: {} });
    expect(resolveMergeBlock(g, [100n, 100n, 0n, 0n])).toBe(3n); // TD 100, 200, 300 -> block 3 is the first PoS block
    expect(resolveMergeBlock(g, [100n, 100n])).toBe(3n); // reached by the last block: the next one is PoS
    expect(resolveMergeBlock(g, [100n])).toBe(2n); // not reached: after the last block...
    expect(resolveMergeBlock(forks, [])).toBe(16n); // ...and after the last fork by number (grayGlacier 15)
    expect(resolveMergeBlock(devnet, [])).toBe(0n); // TTD 0 and a difficulty-0 genesis: merged at genesis
    expect(resolveMergeBlock(GethGenesisFile.parse({ config: { chainId: 1 }, alloc: {} }), [1n])).toBeUndefined();
  });

  it('schedules forks by block, the merge by TTD, later forks by time', () => {
    const common = gethCommon(forks, { mergeBlock: 18n });
    const t0 = BigInt(forks.timestamp!); // PoW blocks 5 s apart
    expect(common.getHardforkBy({ blockNumber: 0n, timestamp: t0 })).toBe('homestead');
    expect(common.getHardforkBy({ blockNumber: 7n, timestamp: t0 + 35n })).toBe('byzantium');
    expect(common.getHardforkBy({ blockNumber: 17n, timestamp: t0 + 85n })).toBe('grayGlacier');
    expect(common.getHardforkBy({ blockNumber: 18n, timestamp: t0 + 90n })).toBe('mergeNetsplitBlock');
    expect(common.getHardforkBy({ blockNumber: 40n, timestamp: BigInt(forks.config.bpo2Time!) })).toBe('bpo2');
    expect(() => gethCommon(forks)).toThrow(/merge block must be resolved/);
  });

  it('maps blobSchedule onto the parameters blob gas code reads, bpo forks included', () => {
    const common = prepareCommon(gethCommon(forks, { mergeBlock: 18n }));
    const schedule = (fork: string) => {
      common.setHardfork(fork);
      return common.getBlobGasSchedule();
    };
    expect(schedule('cancun')).toEqual({ targetBlobGasPerBlock: 3n * 131072n, maxBlobGasPerBlock: 6n * 131072n, blobGasPriceUpdateFraction: 3338477n });
    expect(schedule('bpo1')).toEqual({ targetBlobGasPerBlock: 4n * 131072n, maxBlobGasPerBlock: 6n * 131072n, blobGasPriceUpdateFraction: 4000000n });
    expect(schedule('bpo2')).toEqual({ targetBlobGasPerBlock: 5n * 131072n, maxBlobGasPerBlock: 8n * 131072n, blobGasPriceUpdateFraction: 4500000n });
    expect(common.customCrypto.kzg).toBeDefined();
  });

  it('keeps the Prague system contracts of the alloc, and pads storage keys to 32 bytes', () => {
    const state = gethState(forks);
    for (const a of [
      '0x000f3df6d732807ef1319fb7b8bb8522d0beac02',
      '0x0000f90827f1c53a10cb7a02335b175320002935',
      '0x00000961ef480eb55e80d19ad83579a64c007002',
      '0x0000bbddc7ce488642fb579f8b00f3a590007251',
    ]) {
      const entry = state[a as `0x${string}`] as string[];
      expect(entry[1]!.length).toBeGreaterThan(100);
      expect(entry[3]).toBe('0x1');
    }
    const dev = gethState(devnet)['0x70997970c51812dc3a010c7d01b50e0d17dc79c8'] as [string, string, [string, string][], string];
    expect(dev[0]).toBe('0xde0b6b3a7640000');
    expect(dev[2]).toEqual([[`0x${'0'.repeat(63)}1`, '0x02']]);
  });

  it("computes geth's own genesis hash for geth's test genesis (core/genesis_test.go customg)", async () => {
    const word1 = `0x01${'00'.repeat(31)}`;
    const genesis = {
      config: { chainId: 1, homesteadBlock: 3, ethash: {} },
      alloc: { [`0x01${'00'.repeat(19)}`]: { balance: '0x1', storage: { [word1]: word1 } } },
    };
    const { chain } = await importGethChain({ genesis, genesisSource: 'customg' });
    expect(bytesToHex(chain.head().hash)).toBe('0x89c99d90b79719238d2645c7642f2c9295246e80775b38cfd162b696817fbd50');
  });

  it('builds a post-merge genesis with the defaults of its hardfork (base fee, withdrawals, blobs, requests)', async () => {
    expect(gethGenesisHeader(devnet).difficulty).toBe(0n);
    const { chain } = await importGethChain({ genesis: devnet, genesisSource: 'devnet' });
    const h = chain.head().block.header;
    expect(chain.chainId).toBe(1337n);
    expect(h.common.hardfork()).toBe('prague');
    expect(h.baseFeePerGas).toBe(1_000_000_000n);
    expect(h.withdrawalsRoot).toBeDefined();
    expect(h.excessBlobGas).toBe(0n);
    expect(h.requestsHash).toBeDefined();
    expect((await chain.getAccount(createAddressFromString('0x70997970c51812dc3a010c7d01b50e0d17dc79c8'), chain.head()))?.balance).toBe(10n ** 18n);
  });
});
