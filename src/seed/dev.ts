/**
 * The built-in dev network: what anvil serves at its bare address (chain id 31337, the 10 funded accounts of the
 * `test test ... junk` mnemonic, automine, no history), as a seed object; anvil's flags (`--accounts`, `--chain-id`,
 * `--init genesis.json`, ...) change it. Its genesis timestamp is fixed (devgate is deterministic, and a fixed seed is
 * cached between starts) unless `timestamp` is given.
 */
import { readJsonFile } from '../jsonFile.js';
import type { Hardfork } from './eth.js';
import { SeedError } from './load.js';

/** The name of the built-in dev network (its gateway path is `/dev/v3/<key>`). */
export const DEV_NETWORK = 'dev';

/** anvil's flags, as options of the dev network. Every field is optional. */
export interface DevNetworkOptions {
  /** How many dev accounts (anvil `--accounts`, default 10). */
  accounts?: number;
  /** Each dev account's balance in ether (anvil `--balance`, default 10000). */
  balance?: number;
  /** The BIP-39 mnemonic the accounts derive from (anvil `--mnemonic`, default `test test ... junk`). */
  mnemonic?: string;
  /** The chain id (anvil `--chain-id`, default 31337). */
  chainId?: number;
  /** The hardfork (anvil `--hardfork`, default osaka). */
  hardfork?: Hardfork;
  /** The block gas limit (anvil `--gas-limit`, default 30000000). */
  gasLimit?: number;
  /** The genesis base fee in wei (anvil `--base-fee`, default 1 gwei). */
  baseFee?: number;
  /** The genesis timestamp in Unix seconds (anvil `--timestamp`, default 1700000000). */
  timestamp?: number;
  /** The largest contract code in bytes, or 'unlimited' (anvil `--code-size-limit` / `--disable-code-size-limit`; default 24576, EIP-170; init code may be twice it). */
  codeSizeLimit?: number | 'unlimited';
  /** An anvil/geth genesis.json the dev network starts from (anvil `--init`): its chain id, alloc and header fields; the dev accounts stay funded. */
  init?: string;
}

/** The dev network's genesis timestamp unless one is given (2023-11-14T22:13:20Z). */
export const DEV_GENESIS_TIMESTAMP = 1_700_000_000;

const WEI_PER_ETHER = 10n ** 18n;

/** The dev network's seed object for these options (checked by the seed schema, like any seed). */
export function devSeed(options: DevNetworkOptions = {}): Record<string, unknown> {
  const fromInit = options.init === undefined ? undefined : initGenesis(options.init);
  const genesis: Record<string, unknown> = { timestamp: DEV_GENESIS_TIMESTAMP, ...fromInit?.genesis };
  if (options.timestamp !== undefined) genesis.timestamp = options.timestamp;
  if (options.gasLimit !== undefined) genesis.gasLimit = options.gasLimit;
  if (options.baseFee !== undefined) genesis.baseFeePerGas = options.baseFee;
  const accounts: Record<string, unknown> = {};
  if (options.accounts !== undefined) accounts.count = options.accounts;
  if (options.mnemonic !== undefined) accounts.mnemonic = options.mnemonic;
  if (options.balance !== undefined) accounts.balance = etherToWei(options.balance).toString(10);
  return {
    name: DEV_NETWORK,
    kind: 'eth',
    chainId: options.chainId ?? fromInit?.chainId ?? 31337,
    hardfork: options.hardfork ?? 'osaka',
    genesis,
    alloc: fromInit?.alloc ?? {},
    // As anvil's genesis has the CREATE2 deployer; Multicall3 for viem's and ethers' multicall helpers.
    predeploys: ['multicall3', 'create2Deployer'],
    ...(options.codeSizeLimit === undefined ? {} : { codeSizeLimit: options.codeSizeLimit }),
    accounts,
  };
}

function etherToWei(ether: number): bigint {
  // Whole ether exactly; a fraction to the gwei.
  if (Number.isInteger(ether)) return BigInt(ether) * WEI_PER_ETHER;
  return BigInt(Math.round(ether * 1e9)) * 10n ** 9n;
}

/** The fields of an anvil/geth genesis.json the dev seed takes (chain id, alloc, header fields). */
function initGenesis(path: string): { chainId?: number; genesis: Record<string, unknown>; alloc: Record<string, unknown> } {
  const value = readJsonFile(path, 'genesis file', (message) => new SeedError(message));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SeedError(`genesis file ${path}: expected a JSON object`);
  const g = value as Record<string, unknown>;
  const config = (typeof g.config === 'object' && g.config !== null ? g.config : {}) as Record<string, unknown>;
  const genesis: Record<string, unknown> = {};
  for (const [from, to] of [
    ['timestamp', 'timestamp'],
    ['gasLimit', 'gasLimit'],
    ['baseFeePerGas', 'baseFeePerGas'],
    ['extraData', 'extraData'],
    ['coinbase', 'coinbase'],
  ] as const) {
    if (g[from] !== undefined && g[from] !== null) genesis[to] = g[from];
  }
  const alloc: Record<string, unknown> = {};
  for (const [address, account] of Object.entries((g.alloc ?? {}) as Record<string, unknown>)) {
    const a = address.startsWith('0x') ? address : `0x${address}`;
    const { balance, nonce, code, storage } = (account ?? {}) as Record<string, unknown>;
    alloc[a.toLowerCase()] = Object.fromEntries(Object.entries({ balance, nonce, code, storage }).filter(([, v]) => v !== undefined));
  }
  const chainId = typeof config.chainId === 'number' ? config.chainId : undefined;
  return chainId === undefined ? { genesis, alloc } : { chainId, genesis, alloc };
}
