/**
 * eth_config's fork configuration (query/forkConfig.ts) against geth's own figures: the EIP-2124 fork hashes of
 * geth's forkid_test.go for mainnet and sepolia at each fork from Shanghai to BPO2 (mainnet counts the DAO block
 * and not Paris; sepolia counts its MergeNetsplit block), current/next/last as geth's Config picks them, the
 * precompiles and system contracts of geth's eth_config testdata (Cancun: 10 precompiles and the beacon roots
 * contract; Prague: 17 and five contracts, mainnet's deposit contract), and the blob schedules.
 */
import { Common, createCustomCommon, Mainnet, Sepolia, type ChainConfig } from '@ethereumjs/common';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { prepareCommon } from '../../../../src/eth/engine/exec/common.js';
import { chainForkConfig } from '../../../../src/eth/engine/query/forkConfig.js';
import { eth_config } from '../../../../src/eth/methods/eth_config.js';
import type { RawJson } from '../../../../src/rpc/rawJson.js';

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

/** What chainForkConfig reads of a chain: its Common, its genesis (hash, time) and head's time. */
function chainAt(config: ChainConfig, genesisHash: string, headTime: bigint): EthChain {
  const common = prepareCommon(new Common({ chain: config }));
  const genesis = { hash: Buffer.from(genesisHash.slice(2), 'hex'), header: { timestamp: 0n } };
  return { common, blockByNumber: () => genesis, head: () => ({ header: { timestamp: headTime } }) } as unknown as EthChain;
}

const MAINNET_GENESIS = '0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3';
const SEPOLIA_GENESIS = '0x25a5cc106eea7138acab33231d7160d69cb777ee0c2c553fcddf5138993e6dd9';

// geth core/forkid/forkid_test.go: [first second of the fork, fork hash].
const MAINNET: [string, bigint, string][] = [
  ['shanghai', 1681338455n, '0xdce96c2d'],
  ['cancun', 1710338135n, '0x9f3d2254'],
  ['prague', 1746612311n, '0xc376cf8b'],
  ['osaka', 1764798551n, '0x5167e2a6'],
  ['bpo1', 1765290071n, '0xcba2a1c0'],
  ['bpo2', 1767747671n, '0x07c9462e'],
];
const SEPOLIA: [string, bigint, string][] = [
  ['shanghai', 1677557088n, '0xf7f9bc08'],
  ['cancun', 1706655072n, '0x88cf81d9'],
  ['prague', 1741159776n, '0xed88b5fd'],
  ['osaka', 1760427360n, '0xe2ae4999'],
  ['bpo1', 1761017184n, '0x56078a1e'],
  ['bpo2', 1761607008n, '0x268956b6'],
];

describe('eth_config fork configuration', () => {
  for (const [name, config, genesis, forks] of [
    ['mainnet', Mainnet, MAINNET_GENESIS, MAINNET],
    ['sepolia', Sepolia, SEPOLIA_GENESIS, SEPOLIA],
  ] as const) {
    it(`${name}: current, next and last at each fork carry geth's fork ids and activation times`, () => {
      forks.forEach(([fork, time, forkId], i) => {
        for (const t of [time, time + 1000n]) {
          const { current, next, last } = chainForkConfig(chainAt(config, genesis, t));
          expect(current?.fork, `${fork} at ${t}`).toBe(fork);
          expect(hex(current!.forkId)).toBe(forkId);
          expect(current!.activationTime).toBe(time);
          expect(current!.chainId).toBe(BigInt(config.chainId));
          const following = forks[i + 1];
          if (following === undefined) {
            // BPO2 is the last fork scheduled: neither next nor last.
            expect(next).toBeUndefined();
            expect(last).toBeUndefined();
          } else {
            expect([next!.fork, next!.activationTime, hex(next!.forkId)]).toEqual(following);
            expect([last!.fork, hex(last!.forkId)]).toEqual(['bpo2', forks.at(-1)![2]]);
          }
        }
      });
      // One second before Shanghai: Paris, which has no entry; next is Shanghai.
      const before = chainForkConfig(chainAt(config, genesis, forks[0]![1] - 1n));
      expect(before.current).toBeUndefined();
      expect([before.next!.fork, hex(before.next!.forkId)]).toEqual(['shanghai', forks[0]![2]]);
      expect(before.last!.fork).toBe('bpo2');
    });
  }

  it("precompiles and system contracts as geth's eth_config testdata; blob schedules per fork", () => {
    const at = (fork: string) => chainForkConfig(chainAt(Mainnet, MAINNET_GENESIS, MAINNET.find(([f]) => f === fork)![1])).current!;
    const names = (entries: readonly (readonly [string, { toString(): string }])[]) => Object.fromEntries(entries.map(([n, a]) => [n, a.toString()]));
    const cancun = at('cancun');
    expect(names(cancun.precompiles)).toEqual({
      BLAKE2F: '0x0000000000000000000000000000000000000009',
      BN254_ADD: '0x0000000000000000000000000000000000000006',
      BN254_MUL: '0x0000000000000000000000000000000000000007',
      BN254_PAIRING: '0x0000000000000000000000000000000000000008',
      ECREC: '0x0000000000000000000000000000000000000001',
      ID: '0x0000000000000000000000000000000000000004',
      KZG_POINT_EVALUATION: '0x000000000000000000000000000000000000000a',
      MODEXP: '0x0000000000000000000000000000000000000005',
      RIPEMD160: '0x0000000000000000000000000000000000000003',
      SHA256: '0x0000000000000000000000000000000000000002',
    });
    expect(Object.keys(names(cancun.precompiles))).toEqual(Object.keys(names(cancun.precompiles)).sort());
    expect(names(cancun.systemContracts)).toEqual({ BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02' });
    const prague = at('prague');
    expect(prague.precompiles).toHaveLength(17);
    expect(names(prague.precompiles).BLS12_MAP_FP2_TO_G2).toBe('0x0000000000000000000000000000000000000011');
    expect(names(prague.systemContracts)).toEqual({
      BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02',
      CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS: '0x0000bbddc7ce488642fb579f8b00f3a590007251',
      DEPOSIT_CONTRACT_ADDRESS: '0x00000000219ab540356cbb839cbe05303d7705fa',
      HISTORY_STORAGE_ADDRESS: '0x0000f90827f1c53a10cb7a02335b175320002935',
      WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS: '0x00000961ef480eb55e80d19ad83579a64c007002',
    });
    expect(names(at('osaka').precompiles).P256VERIFY).toBe('0x0000000000000000000000000000000000000100');
    expect(at('osaka').precompiles).toHaveLength(18);
    expect(at('shanghai').blobSchedule).toBeUndefined();
    expect(at('shanghai').precompiles).toHaveLength(9);
    const blobs = (fork: string) => Object.values(at(fork).blobSchedule!).map(Number);
    expect(blobs('cancun')).toEqual([3, 6, 3338477]);
    expect(blobs('prague')).toEqual([6, 9, 5007716]);
    expect(blobs('osaka')).toEqual([6, 9, 5007716]);
    expect(blobs('bpo1')).toEqual([10, 15, 8346193]);
    expect(blobs('bpo2')).toEqual([14, 21, 11684671]);
  });

  it("a devgate-style schedule (forks at block 0) with a fork far in the future: times are written exactly, as geth's uint64", () => {
    const upToPrague = Mainnet.hardforks.slice(0, Mainnet.hardforks.findIndex((h) => h.name === 'prague') + 1).map((h) => ({ name: h.name, block: 0 }));
    const far = 2n ** 60n + 1n;
    const common = prepareCommon(
      createCustomCommon({ chainId: 5, hardforks: [...upToPrague, { name: 'osaka', block: null, timestamp: far.toString() }] }, Mainnet, {
        hardfork: 'prague',
      }),
    );
    const genesis = { hash: new Uint8Array(32), header: { timestamp: 0n } };
    const chain = { common, blockByNumber: () => genesis, head: () => ({ header: { timestamp: 12n } }) } as unknown as EthChain;
    const answer = eth_config.handler({ chain } as never) as RawJson;
    expect(answer.text).toContain(`"next":{"activationTime":${far},`);
    const parsed = JSON.parse(answer.text);
    expect(parsed.current.activationTime).toBe(0);
    expect(parsed.current.forkId).toBe('0x' + (crc32(new Uint8Array(32)) >>> 0).toString(16).padStart(8, '0'));
    expect(parsed.last.forkId).toBe(parsed.next.forkId);
    expect(parsed.next.forkId).not.toBe(parsed.current.forkId);
  });
});
