/**
 * The hive test chain's fork schedule as forkenv.json gives it (the HIVE_* variables hive hands its clients), in
 * @ethereumjs's hardfork names: which fork a block runs under, and the blob parameters of each blob fork.
 */

/** Forks by block number, in order; the merge block (HIVE_MERGE_BLOCK_ID) starts paris. */
const BY_NUMBER = [
  ['HIVE_FORK_HOMESTEAD', 'homestead'],
  ['HIVE_FORK_TANGERINE', 'tangerineWhistle'],
  ['HIVE_FORK_SPURIOUS', 'spuriousDragon'],
  ['HIVE_FORK_BYZANTIUM', 'byzantium'],
  ['HIVE_FORK_CONSTANTINOPLE', 'constantinople'],
  ['HIVE_FORK_PETERSBURG', 'petersburg'],
  ['HIVE_FORK_ISTANBUL', 'istanbul'],
  ['HIVE_FORK_MUIR_GLACIER', 'muirGlacier'],
  ['HIVE_FORK_BERLIN', 'berlin'],
  ['HIVE_FORK_LONDON', 'london'],
  ['HIVE_FORK_ARROW_GLACIER', 'arrowGlacier'],
  ['HIVE_FORK_GRAY_GLACIER', 'grayGlacier'],
  ['HIVE_MERGE_BLOCK_ID', 'paris'],
] as const;

/** Forks by timestamp, in order, with the prefix of their blob variables. */
const BY_TIME = [
  ['SHANGHAI', 'shanghai'],
  ['CANCUN', 'cancun'],
  ['PRAGUE', 'prague'],
  ['OSAKA', 'osaka'],
  ['BPO1', 'bpo1'],
  ['BPO2', 'bpo2'],
] as const;

const BLOB_GAS_PER_BLOB = 131_072n;

function need(env: Record<string, string>, key: string): bigint {
  const v = env[key];
  if (v === undefined) throw new Error(`forkenv.json has no ${key}`);
  return BigInt(v);
}

/** The fork block `number` at `timestamp` runs under. */
export function forkAt(env: Record<string, string>, number: bigint, timestamp: bigint): string {
  let fork = 'chainstart';
  for (const [key, name] of BY_NUMBER) if (number >= need(env, key)) fork = name;
  if (fork !== 'paris') return fork;
  for (const [prefix, name] of BY_TIME) if (timestamp >= need(env, `HIVE_${prefix}_TIMESTAMP`)) fork = name;
  return fork;
}

/** The blob gas schedule of a blob fork (as @ethereumjs's Common.getBlobGasSchedule gives it), else undefined. */
export function blobParams(env: Record<string, string>, fork: string) {
  const prefix = BY_TIME.find(([, name]) => name === fork)?.[0];
  if (prefix === undefined || prefix === 'SHANGHAI') return undefined;
  return {
    targetBlobGasPerBlock: need(env, `HIVE_${prefix}_BLOB_TARGET`) * BLOB_GAS_PER_BLOB,
    maxBlobGasPerBlock: need(env, `HIVE_${prefix}_BLOB_MAX`) * BLOB_GAS_PER_BLOB,
    blobGasPriceUpdateFraction: need(env, `HIVE_${prefix}_BLOB_BASE_FEE_UPDATE_FRACTION`),
  };
}
