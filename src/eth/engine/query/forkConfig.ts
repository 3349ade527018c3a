/**
 * The chain's fork configuration as EIP-7910 (eth_config) describes it, computed as geth's BlockChainAPI.Config
 * does, from the chain's own Common (the rules its blocks run under): the fork active at head's time (`current`),
 * the next scheduled one and the last scheduled one, each with its activation time, blob schedule, chain id,
 * EIP-2124 fork id, the precompiles the EVM runs under it and the system contracts.
 *
 * As geth: only time-based forks (Shanghai on) have an entry, so a chain whose head is before Shanghai has no
 * `current`; `next` is the fork right after current in the fork order (none when that one is not scheduled), and
 * `last` is given only with a `next`. A fork active at genesis has activation time 0. Devgate seeds (one
 * hardfork, every fork at block 0) are read as geth reads a dev chain whose forks are all at time 0.
 */
import { Mainnet, type Common } from '@ethereumjs/common';
import { getActivePrecompiles } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { crc32 } from 'node:zlib';
import type { EthChain } from '../chain/chain.js';
import { chainDepositContract } from '../evm/common.js';
import { hexBytes } from '../../../hex.js';

/** geth's time-based forks, in geth's fork order (forks.Fork from Paris on); @ethereumjs names them alike. */
const TIME_FORKS = ['shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5', 'amsterdam'] as const;
type TimeFork = (typeof TIME_FORKS)[number];

/** Forks geth schedules by block (its ChainConfig's `...Block` fields); Paris is by total difficulty in geth. */
const BLOCK_FORKS = [
  'homestead',
  'dao',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'muirGlacier',
  'berlin',
  'london',
  'arrowGlacier',
  'grayGlacier',
  'mergeNetsplitBlock',
];

/** geth's names of the precompiles, by address (each precompile's Name() in geth's core/vm/contracts.go). */
const PRECOMPILE_NAMES: ReadonlyMap<string, string> = new Map([
  ['0000000000000000000000000000000000000001', 'ECREC'],
  ['0000000000000000000000000000000000000002', 'SHA256'],
  ['0000000000000000000000000000000000000003', 'RIPEMD160'],
  ['0000000000000000000000000000000000000004', 'ID'],
  ['0000000000000000000000000000000000000005', 'MODEXP'],
  ['0000000000000000000000000000000000000006', 'BN254_ADD'],
  ['0000000000000000000000000000000000000007', 'BN254_MUL'],
  ['0000000000000000000000000000000000000008', 'BN254_PAIRING'],
  ['0000000000000000000000000000000000000009', 'BLAKE2F'],
  ['000000000000000000000000000000000000000a', 'KZG_POINT_EVALUATION'],
  ['000000000000000000000000000000000000000b', 'BLS12_G1ADD'],
  ['000000000000000000000000000000000000000c', 'BLS12_G1MSM'],
  ['000000000000000000000000000000000000000d', 'BLS12_G2ADD'],
  ['000000000000000000000000000000000000000e', 'BLS12_G2MSM'],
  ['000000000000000000000000000000000000000f', 'BLS12_PAIRING_CHECK'],
  ['0000000000000000000000000000000000000010', 'BLS12_MAP_FP_TO_G1'],
  ['0000000000000000000000000000000000000011', 'BLS12_MAP_FP2_TO_G2'],
  ['0000000000000000000000000000000000000100', 'P256VERIFY'],
]);

/** The system contracts' addresses (EIP-4788, 2935, 7002, 7251), as @ethereumjs's VM calls them. */
const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
const HISTORY_STORAGE = '0x0000f90827f1c53a10cb7a02335b175320002935';
const WITHDRAWAL_QUEUE = '0x00000961ef480eb55e80d19ad83579a64c007002';
const CONSOLIDATION_QUEUE = '0x0000bbddc7ce488642fb579f8b00f3a590007251';

/** A blob schedule in blobs per block (EIP-7840's form). */
export interface BlobSchedule {
  readonly target: bigint;
  readonly max: bigint;
  readonly baseFeeUpdateFraction: bigint;
}

/** One fork's configuration (EIP-7910). Names are sorted as geth's maps give them. */
export interface ForkConfig {
  readonly fork: TimeFork;
  readonly activationTime: bigint;
  /** Absent before Cancun. */
  readonly blobSchedule: BlobSchedule | undefined;
  readonly chainId: bigint;
  /** EIP-2124 fork hash (4 bytes) at the fork's activation. */
  readonly forkId: Uint8Array;
  readonly precompiles: readonly (readonly [string, Address])[];
  readonly systemContracts: readonly (readonly [string, Address])[];
}

export interface ChainForkConfig {
  readonly current: ForkConfig | undefined;
  readonly next: ForkConfig | undefined;
  readonly last: ForkConfig | undefined;
}

/** When each time-based fork activates on this chain (absent: not scheduled). A fork at block 0 without a time (devgate seeds) is at time 0. */
function forkTimes(common: Common): Map<TimeFork, bigint> {
  const times = new Map<TimeFork, bigint>();
  for (const hf of common.hardforks()) {
    if (!(TIME_FORKS as readonly string[]).includes(hf.name)) continue;
    const time = hf.timestamp !== undefined && hf.timestamp !== null ? BigInt(hf.timestamp) : hf.block === 0 ? 0n : undefined;
    if (time !== undefined) times.set(hf.name as TimeFork, time);
  }
  return times;
}

/** geth's LatestFork(t): the last time-based fork active at `t` (undefined: Paris or before). */
function latestFork(times: Map<TimeFork, bigint>, t: bigint): number {
  for (let i = TIME_FORKS.length - 1; i >= 0; i--) {
    const at = times.get(TIME_FORKS[i]!);
    if (at !== undefined && at <= t) return i;
  }
  return -1;
}

/** A u64 big-endian, as geth feeds fork numbers and times to the fork id's CRC. */
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};

/** The EIP-2124 fork hash with every block fork passed and the time forks up to `t` (geth's forkid.NewID(config, genesis, MaxUint64, t).Hash). */
function forkHash(common: Common, genesisHash: Uint8Array, genesisTime: bigint, times: Map<TimeFork, bigint>, t: bigint): Uint8Array {
  const byBlock = new Set<bigint>();
  for (const hf of common.hardforks()) {
    if (
      BLOCK_FORKS.includes(hf.name) &&
      hf.block !== null &&
      hf.block !== undefined &&
      (hf.timestamp === undefined || hf.timestamp === null) &&
      BigInt(hf.block) > 0n
    )
      byBlock.add(BigInt(hf.block));
  }
  const byTime = [...new Set(times.values())].filter((at) => at > genesisTime).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let hash = crc32(genesisHash);
  for (const n of [...byBlock].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) hash = crc32(u64(n), hash);
  for (const at of byTime) {
    if (at > t) break;
    hash = crc32(u64(at), hash);
  }
  const out = Buffer.alloc(4);
  out.writeUInt32BE(hash >>> 0);
  return new Uint8Array(out);
}

/** The deposit contract the VM reads deposit requests from: the chain's, else mainnet's (as @ethereumjs/vm's requests.ts reads it). */
function depositContract(common: Common): string {
  return chainDepositContract(common) ?? Mainnet.depositContractAddress!;
}

const byName = <T>(entries: [string, T][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The configuration of the time-based fork at `index` of TIME_FORKS; undefined when there is none or it is not scheduled (geth: a nil Timestamp). */
function assemble(chain: EthChain, times: Map<TimeFork, bigint>, index: number): ForkConfig | undefined {
  const fork = TIME_FORKS[index];
  const at = fork === undefined ? undefined : times.get(fork);
  if (fork === undefined || at === undefined) return undefined;
  const genesis = chain.blockByNumber(0n)!;
  const genesisTime = genesis.header.timestamp;
  const rules = chain.common.copy();
  rules.setHardfork(fork);
  const precompiles = [...getActivePrecompiles(rules).keys()].map((address): [string, Address] => {
    const name = PRECOMPILE_NAMES.get(address.toLowerCase().replace(/^0x/, ''));
    if (name === undefined) throw new Error(`precompile ${address} has no name`);
    return [name, new Address(hexBytes(address.replace(/^0x/, '').padStart(40, '0')))];
  });
  const system: [string, string][] = [];
  if (index >= TIME_FORKS.indexOf('cancun')) system.push(['BEACON_ROOTS_ADDRESS', BEACON_ROOTS]);
  if (index >= TIME_FORKS.indexOf('prague')) {
    system.push(
      ['CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS', CONSOLIDATION_QUEUE],
      ['DEPOSIT_CONTRACT_ADDRESS', depositContract(rules)],
      ['HISTORY_STORAGE_ADDRESS', HISTORY_STORAGE],
      ['WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS', WITHDRAWAL_QUEUE],
    );
  }
  let blobSchedule: BlobSchedule | undefined;
  if (index >= TIME_FORKS.indexOf('cancun')) {
    const s = rules.getBlobGasSchedule();
    const perBlob = rules.param('blobGasPerBlob');
    blobSchedule = { target: s.targetBlobGasPerBlock / perBlob, max: s.maxBlobGasPerBlock / perBlob, baseFeeUpdateFraction: s.blobGasPriceUpdateFraction };
  }
  return {
    fork,
    activationTime: genesisTime >= at ? 0n : at,
    blobSchedule,
    chainId: chain.common.chainId(),
    forkId: forkHash(chain.common, genesis.hash, genesisTime, times, at),
    precompiles: byName(precompiles),
    systemContracts: byName(system.map(([name, address]): [string, Address] => [name, new Address(hexBytes(address.slice(2)))])),
  };
}

/** current, next and last fork configuration of the chain at head's time (geth's eth_config). */
export function chainForkConfig(chain: EthChain): ChainForkConfig {
  const times = forkTimes(chain.common);
  const now = latestFork(times, chain.head().header.timestamp);
  const next = assemble(chain, times, now + 1);
  return {
    current: now < 0 ? undefined : assemble(chain, times, now),
    next,
    last: next === undefined ? undefined : assemble(chain, times, latestFork(times, 2n ** 64n - 1n)),
  };
}
