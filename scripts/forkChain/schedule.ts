/**
 * The fork-crossing chain's schedule (scripts/make-fork-chain.ts): its forks by block, the merge, the
 * timestamp forks, the blob schedule; the @ethereumjs Common that runs it and the geth genesis that describes it.
 * The Common is given the schedule directly (not read back from the genesis), so the importer's reading of
 * the geth file is checked against an independent description.
 */
import { createCustomCommon, Mainnet, type Common } from '@ethereumjs/common';
import type { Block } from '@ethereumjs/block';
import { bytesToHex, type PrefixedHexString } from '@ethereumjs/util';
import { realKzg } from '../../src/eth/engine/exec/kzg.js';
import { SYSTEM_CONTRACTS as SYSTEM_CONTRACT_LIST } from '../../src/eth/engine/build/systemContracts.js';

export const CHAIN_ID = 7357;
export const GENESIS_TIME = 1_700_000_000;
export const POW_SPACING = 5; // below the difficulty adjustment cutoffs, so PoW difficulty climbs block by block
export const POS_SPACING = 12;

/** Block-numbered forks, then the merge and the timestamp forks (by the block that first runs them). */
export const BLOCK_FORKS = {
  homestead: 0,
  tangerineWhistle: 3,
  spuriousDragon: 5,
  byzantium: 7,
  constantinople: 9,
  petersburg: 9,
  istanbul: 11,
  muirGlacier: 11,
  berlin: 13,
  london: 15,
  arrowGlacier: 15,
  grayGlacier: 15,
} as const;
export const MERGE_BLOCK = 18;
export const TIME_FORKS = { shanghai: 20, cancun: 22, prague: 25, osaka: 27, bpo1: 29, bpo2: 31 } as const;
export const LAST_BLOCK = 33;

/** Blob schedule: mainnet values up to osaka; devnet-style values for the bpo forks. */
export const BLOB_SCHEDULE = {
  cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
  prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
  osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
  bpo1: { target: 4, max: 6, baseFeeUpdateFraction: 4000000 },
  bpo2: { target: 5, max: 8, baseFeeUpdateFraction: 4500000 },
};

/** The Prague system contracts (EIP-4788, 2935, 7002, 7251), as geth's dev genesis holds them. */
export const SYSTEM_CONTRACTS: Record<string, string> = Object.fromEntries(SYSTEM_CONTRACT_LIST.map((c) => [c.address, c.code]));
export const DEPOSIT_CONTRACT = '0x00000000219ab540356cbb839cbe05303d7705fa';

export const timeOf = (n: number) =>
  n <= MERGE_BLOCK ? GENESIS_TIME + POW_SPACING * n : GENESIS_TIME + POW_SPACING * MERGE_BLOCK + POS_SPACING * (n - MERGE_BLOCK);

export function chainCommon(): Common {
  const hardforks: { name: string; block: number | null; timestamp?: number }[] = [{ name: 'chainstart', block: 0 }];
  for (const [name, block] of Object.entries(BLOCK_FORKS)) hardforks.push({ name, block });
  hardforks.push({ name: 'paris', block: MERGE_BLOCK }, { name: 'mergeNetsplitBlock', block: MERGE_BLOCK });
  for (const [name, n] of Object.entries(TIME_FORKS)) hardforks.push({ name, block: null, timestamp: timeOf(n) });
  // bpo forks with this chain's blob parameters instead of mainnet's (EIP-7892).
  const bpo = (fork: 'bpo1' | 'bpo2') => ({
    eips: [],
    params: { target: BLOB_SCHEDULE[fork].target, max: BLOB_SCHEDULE[fork].max, blobGasPriceUpdateFraction: BLOB_SCHEDULE[fork].baseFeeUpdateFraction },
  });
  return createCustomCommon(
    {
      name: 'forks',
      chainId: CHAIN_ID,
      hardforks,
      depositContractAddress: DEPOSIT_CONTRACT as PrefixedHexString,
      customHardforks: { bpo1: bpo('bpo1'), bpo2: bpo('bpo2') },
    },
    Mainnet,
    { hardfork: 'chainstart', customCrypto: { kzg: realKzg() } },
  );
}

/** The geth genesis (genesis.json) of `genesis`, with the terminal total difficulty `ttd`. */
export function gethGenesisJson(genesis: Block, ttd: bigint, alloc: Record<string, object>) {
  const config: Record<string, unknown> = { chainId: CHAIN_ID };
  const names: Record<string, string> = {
    homestead: 'homesteadBlock',
    tangerineWhistle: 'eip150Block',
    spuriousDragon: 'eip155Block',
    byzantium: 'byzantiumBlock',
    constantinople: 'constantinopleBlock',
    petersburg: 'petersburgBlock',
    istanbul: 'istanbulBlock',
    muirGlacier: 'muirGlacierBlock',
    berlin: 'berlinBlock',
    london: 'londonBlock',
    arrowGlacier: 'arrowGlacierBlock',
    grayGlacier: 'grayGlacierBlock',
  };
  for (const [fork, block] of Object.entries(BLOCK_FORKS)) {
    config[names[fork]!] = block;
    if (fork === 'spuriousDragon') config.eip158Block = block;
  }
  config.terminalTotalDifficulty = Number(ttd);
  for (const [fork, n] of Object.entries(TIME_FORKS)) config[`${fork}Time`] = timeOf(n);
  config.depositContractAddress = DEPOSIT_CONTRACT;
  config.ethash = {};
  config.blobSchedule = BLOB_SCHEDULE;
  const h = genesis.header;
  return {
    config,
    nonce: '0x0',
    timestamp: `0x${h.timestamp.toString(16)}`,
    extraData: bytesToHex(h.extraData),
    gasLimit: `0x${h.gasLimit.toString(16)}`,
    difficulty: `0x${h.difficulty.toString(16)}`,
    mixHash: bytesToHex(h.mixHash),
    coinbase: h.coinbase.toString(),
    alloc,
    number: '0x0',
    gasUsed: '0x0',
    parentHash: bytesToHex(h.parentHash),
  };
}
