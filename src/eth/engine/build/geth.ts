/**
 * Reading a geth genesis.json: its hardfork schedule as a @ethereumjs Common, its alloc as genesis
 * state, and its genesis header. Blocks are numbered forks up to the merge, the merge itself by
 * terminal total difficulty (resolved against the chain's own difficulties), then timestamps.
 */
import {
  createCommonFromGethGenesis,
  parseGethGenesisState,
  type Common,
  type CustomCrypto,
  type AccountState,
  type GenesisState,
  type GethGenesis,
} from '@ethereumjs/common';
import type { HeaderData } from '@ethereumjs/block';
import { bigIntToHex, bytesToHex, hexToBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util';
import { z } from 'zod';
import { lazyKzg } from '../exec/kzg.js';

const hexOrDecimal = z.union([z.string().regex(/^(0x[0-9a-fA-F]*|[0-9]+)$/, 'not a hex or decimal quantity'), z.number().int().nonnegative()]);
const hexData = z.string().regex(/^(0x)?[0-9a-fA-F]*$/, 'not a hex string');
const forkAt = z.number().int().nonnegative().optional();

/** The bpo forks ethereumjs knows, whose blob parameters must come from `params` (see gethCommon). */
const BPO_FORKS = ['bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5'] as const;

/** The fields of a geth genesis.json that devgate reads; others are kept and ignored. */
export const GethGenesisFile = z.looseObject({
  config: z.looseObject({
    chainId: z.number().int().positive(),
    homesteadBlock: forkAt,
    eip150Block: forkAt,
    eip155Block: forkAt,
    eip158Block: forkAt,
    byzantiumBlock: forkAt,
    constantinopleBlock: forkAt,
    petersburgBlock: forkAt,
    istanbulBlock: forkAt,
    muirGlacierBlock: forkAt,
    berlinBlock: forkAt,
    londonBlock: forkAt,
    arrowGlacierBlock: forkAt,
    grayGlacierBlock: forkAt,
    mergeNetsplitBlock: forkAt,
    terminalTotalDifficulty: hexOrDecimal.optional(),
    terminalTotalDifficultyPassed: z.boolean().optional(),
    shanghaiTime: forkAt,
    cancunTime: forkAt,
    pragueTime: forkAt,
    osakaTime: forkAt,
    bpo1Time: forkAt,
    bpo2Time: forkAt,
    blobSchedule: z
      .record(
        z.string(),
        z.object({
          target: z.number().int().nonnegative(),
          max: z.number().int().nonnegative(),
          baseFeeUpdateFraction: z.number().int().positive(),
        }),
      )
      .optional(),
  }),
  nonce: hexOrDecimal.optional(),
  timestamp: hexOrDecimal.optional(),
  extraData: hexData.optional(),
  gasLimit: hexOrDecimal.optional(),
  difficulty: hexOrDecimal.optional(),
  mixHash: hexData.optional(),
  coinbase: hexData.optional(),
  baseFeePerGas: hexOrDecimal.nullable().optional(),
  excessBlobGas: hexOrDecimal.nullable().optional(),
  blobGasUsed: hexOrDecimal.nullable().optional(),
  alloc: z.record(
    z.string().regex(/^(0x)?[0-9a-fA-F]{40}$/, 'not a 20-byte address'),
    z.looseObject({
      balance: hexOrDecimal.optional(),
      nonce: hexOrDecimal.optional(),
      code: hexData.optional(),
      storage: z.record(hexData, hexData).optional(),
    }),
  ),
});
export type GethGenesisFile = z.infer<typeof GethGenesisFile>;

const big = (v: string | number | null | undefined, fallback: bigint): bigint => (v === undefined || v === null ? fallback : BigInt(v));
const hex0x = (v: string): PrefixedHexString => (v.startsWith('0x') ? v : `0x${v}`) as PrefixedHexString;

/** geth's defaults for absent header fields (core/genesis.go). */
const GENESIS_GAS_LIMIT = 4_712_388n;
const GENESIS_DIFFICULTY = 131_072n;

/** The genesis difficulty geth uses: the file's, else 0 without an `ethash` config and 131072 with one. */
export function genesisDifficulty(g: GethGenesisFile): bigint {
  return big(g.difficulty, g.config.ethash === undefined ? 0n : GENESIS_DIFFICULTY);
}

/** The terminal total difficulty, if the genesis names one. */
export function terminalTotalDifficulty(g: GethGenesisFile): bigint | undefined {
  const ttd = g.config.terminalTotalDifficulty;
  return ttd === undefined ? undefined : BigInt(ttd);
}

/**
 * The number of the first proof-of-stake block, as geth decides it: the first block whose parent's
 * total difficulty reached the terminal total difficulty (a genesis with difficulty 0 and TTD 0 is
 * already merged). `difficulties` are the chain's blocks from 1 on, as their headers say. When the
 * chain never reaches the TTD, the merge is put after its last block and after every fork scheduled
 * by block number (so the fork order stays the canonical one). Undefined without a TTD.
 */
export function resolveMergeBlock(g: GethGenesisFile, difficulties: readonly bigint[]): bigint | undefined {
  const ttd = terminalTotalDifficulty(g);
  if (ttd === undefined) return undefined;
  let td = genesisDifficulty(g);
  if (td === 0n && ttd === 0n) return 0n;
  for (let i = 0; i < difficulties.length; i++) {
    if (td >= ttd) return BigInt(i + 1);
    td += difficulties[i]!;
  }
  if (td >= ttd) return BigInt(difficulties.length + 1);
  const numbered = Object.entries(g.config).filter(([k, v]) => k.endsWith('Block') && k !== 'mergeNetsplitBlock' && typeof v === 'number');
  const lastFork = Math.max(0, ...numbered.map(([, v]) => v as number));
  return BigInt(Math.max(difficulties.length + 1, lastFork + 1));
}

export interface GethCommonOptions {
  /** The first proof-of-stake block (see resolveMergeBlock); needed when the merge is by TTD. */
  readonly mergeBlock?: bigint;
  /** Extra crypto for the Common (e.g. a native ecrecover); a lazy real KZG is always added. */
  readonly customCrypto?: CustomCrypto;
}

/**
 * The Common of a geth genesis, with its whole hardfork schedule; its hardfork is set to genesis's
 * (set it per block with `setHardforkBy`). Maps what @ethereumjs does not: the merge by TTD, and the
 * bpo blob parameters of `blobSchedule` (ethereumjs puts them where bpo code does not read them).
 */
export function gethCommon(g: GethGenesisFile, opts: GethCommonOptions = {}): Common {
  const config: Record<string, unknown> = { ...g.config };
  // ethereumjs reads Paris from `mergeForkBlock` (or from `mergeNetsplitBlock`, or puts it at 0 when a
  // timestamp fork exists); a merge by TTD must name the block explicitly, or PoW blocks run as PoS.
  const hasTimestampForks = Object.keys(config).some((k) => k.endsWith('Time') && typeof config[k] === 'number');
  const mergeNamed = config.mergeNetsplitBlock !== undefined || config.mergeForkBlock !== undefined;
  if (opts.mergeBlock !== undefined && !mergeNamed) {
    config.mergeForkBlock = Number(opts.mergeBlock);
  } else if (terminalTotalDifficulty(g) !== undefined && !mergeNamed && hasTimestampForks) {
    throw new Error('genesis merges by terminalTotalDifficulty: the merge block must be resolved from the chain first');
  }
  delete config.terminalTotalDifficulty; // ethereumjs v10 does not schedule by TTD; resolved above
  const params: Record<string, Record<string, number>> = {};
  for (const [fork, schedule] of Object.entries(g.config.blobSchedule ?? {})) {
    if ((BPO_FORKS as readonly string[]).includes(fork)) {
      params[fork] = { target: schedule.target, max: schedule.max, blobGasPriceUpdateFraction: schedule.baseFeeUpdateFraction };
    }
  }
  const input = {
    ...g,
    config,
    nonce: hex0x(BigInt(g.nonce ?? 0).toString(16)),
    timestamp: hex0x(big(g.timestamp, 0n).toString(16)),
    gasLimit: hex0x(big(g.gasLimit, GENESIS_GAS_LIMIT).toString(16)),
    difficulty: hex0x(genesisDifficulty(g).toString(16)),
  } as unknown as GethGenesis;
  const common = createCommonFromGethGenesis(input, {
    chain: 'custom',
    params: params as never,
    customCrypto: { ...opts.customCrypto, kzg: opts.customCrypto?.kzg ?? lazyKzg },
  });
  common.setHardforkBy({ blockNumber: 0n, timestamp: big(g.timestamp, 0n) });
  return common;
}

/**
 * The alloc as genesis state (`parseGethGenesisState`'s shape, which EthChain.fromGenesis takes),
 * made strict: even-length hex everywhere and storage keys as 32-byte words, as geth reads them.
 */
export function gethState(g: GethGenesisFile): GenesisState {
  const state = parseGethGenesisState(g as unknown as GethGenesis);
  const out: GenesisState = {};
  for (const [address, entry] of Object.entries(state)) {
    const [balance, code, storage, nonce]: AccountState = Array.isArray(entry) ? (entry as AccountState) : [entry as PrefixedHexString];
    out[address as PrefixedHexString] = [
      bigIntToHex(BigInt(balance === '0x' ? 0 : balance)),
      evenHex(code ?? '0x'),
      (storage ?? []).map(([k, v]) => [bytesToHex(setLengthLeft(hexToBytes(evenHex(k)), 32)), evenHex(v)] as [PrefixedHexString, PrefixedHexString]),
      bigIntToHex(BigInt(nonce === undefined || nonce === '0x' ? 0 : nonce)),
    ];
  }
  return out;
}

const evenHex = (v: string): PrefixedHexString => (v.length % 2 === 0 ? v : `0x0${v.slice(2)}`) as PrefixedHexString;

/**
 * The genesis header's fields. Fields the file leaves out and the genesis hardfork requires
 * (base fee, withdrawals root, blob gas, beacon root, requests hash) take geth's defaults, which
 * are also @ethereumjs's.
 */
export function gethGenesisHeader(g: GethGenesisFile): HeaderData {
  const bytes = (v: string | undefined) => (v === undefined ? undefined : hexToBytes(evenHex(hex0x(v))));
  return {
    number: 0n,
    timestamp: big(g.timestamp, 0n),
    gasLimit: big(g.gasLimit, GENESIS_GAS_LIMIT),
    difficulty: genesisDifficulty(g),
    nonce: setLengthLeft(bytes(hex0x(BigInt(g.nonce ?? 0).toString(16))) ?? new Uint8Array(), 8),
    extraData: bytes(g.extraData),
    mixHash: bytes(g.mixHash),
    coinbase: bytes(g.coinbase),
    ...(g.baseFeePerGas !== undefined && g.baseFeePerGas !== null && { baseFeePerGas: BigInt(g.baseFeePerGas) }),
    ...(g.excessBlobGas !== undefined && g.excessBlobGas !== null && { excessBlobGas: BigInt(g.excessBlobGas) }),
    ...(g.blobGasUsed !== undefined && g.blobGasUsed !== null && { blobGasUsed: BigInt(g.blobGasUsed) }),
  };
}
