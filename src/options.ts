/**
 * The options of `start()`: a hand-written interface (its doc comments reach users' editors through the `.d.ts`),
 * and the zod schema that checks them at run time. A compile-time check below keeps the two in step.
 */
import { z } from 'zod';
import { systemClock, type Clock } from './clock.js';
import { DEFAULT_LIMITS, LimitsOptions, type GatewayLimits } from './gateway/limits.js';
import { AdminToken } from './gateway/policy/keys.js';
import { ForkSpec, HARDFORKS } from './seed/eth.js';
import type { DevNetworkOptions } from './seed/dev.js';
import type { LogTarget } from './log/nodeLog.js';

export type { DevNetworkOptions } from './seed/dev.js';
export type { LogTarget } from './log/nodeLog.js';

/** How eth networks mine. */
export interface MiningOptions {
  /** A block per sent transaction (default true unless `blockTime` is given; false: blocks only on `evm_mine`). */
  automine?: boolean;
  /** Interval mining: a block every this many seconds (fractions allowed), empty or not. */
  blockTime?: number;
}

/** Where built chains are cached between starts. */
export interface CacheOptions {
  /** The cache directory (default: node_modules/.cache/devgate, else the OS cache directory). */
  dir: string;
}

/** Dump and load (docs/persistence.md "Dump and load"): where state is loaded from at start and dumped to. */
export interface StateOptions {
  /** A state file loaded at start (devgate's, or anvil's JSON); it must exist. */
  load?: string;
  /** A state file written on `stop()` (atomically), and every `interval` seconds if given. */
  dump?: string;
  /** Seconds between dumps to `dump` while running. */
  interval?: number;
}

/** The options of `start()`. Every field is optional. */
export interface StartOptions {
  /** The TCP port to listen on (default 8545; 0 picks a free one, then read `gw.port`). */
  port?: number;
  /** The address to listen on (default `127.0.0.1`). */
  host?: string;
  /**
   * The networks to serve: seed file paths (JSON, `chains/seed.schema.json`; a geth genesis file is taken too) or
   * seed objects of the same shape. Default: the shipped chains (mainnet, sepolia, starknet-mainnet).
   */
  chains?: (string | Record<string, unknown>)[];
  /** Most calls in one JSON-RPC batch (default 1,000); `limits.maxBatch` wins. */
  maxBatch?: number;
  /** Largest HTTP body and WebSocket message in bytes (default 5 MB); `limits.maxBodyBytes` wins. */
  maxBodyBytes?: number;
  /**
   * API keys and plans: a keys file path or a keys object of the same shape (see docs/limits.md).
   * Default: open, any well-formed key, no rate or daily limit (the `unlimited` plan).
   */
  keys?: string | Record<string, unknown>;
  /**
   * The admin interface's token, sent as `Authorization: Bearer <token>` (default: the keys file's `adminToken`, else
   * 32 random bytes as hex); read it back as `gw.adminToken`.
   */
  adminToken?: string;
  /** Request and connection limits (batch, sizes, timeouts, heavy calls, WebSocket liveness); each documented on `GatewayLimits`. */
  limits?: Partial<GatewayLimits>;
  /**
   * Built chains are cached on disk (default on, in the cache directory, under vitest too: docs/persistence.md "Cache of
   * built chains"); false: always build.
   */
  cache?: false | CacheOptions;
  /** How eth networks mine: automine (default), interval (`blockTime` seconds), or manual (`automine: false`). */
  mining?: MiningOptions;
  /** Serve the dev methods (evm_, anvil_, hardhat_, devnet_); false answers them -32601, as the hosted gateway (default true). */
  devMethods?: boolean;
  /** The raw HTTP front that answers plain JSON-RPC POSTs on the socket; false: node:http serves every request (default true). */
  rawHttp?: boolean;
  /** Full GCs when the process goes idle after work, handing memory back (default false; the CLI turns it on). */
  idleGc?: boolean;
  /** Accept legacy transactions without EIP-155 replay protection (default false: refused, as geth refuses them over RPC). */
  allowUnprotectedTxs?: boolean;
  /**
   * The highest fee (gas limit x fee cap, in ether) a sent transaction may carry, as geth's `--rpc.txfeecap`
   * (default 1, geth's; 0: no cap). eth_sendRawTransaction, eth_sendTransaction and eth_signTransaction refuse more.
   */
  txFeeCap?: number;
  /**
   * Keep every eth network's chain (blocks, receipts, trie nodes, pool, mining settings) in this directory, durably:
   * each block is written before it is answered, and the next start with the same seeds restores the chain from it
   * (see docs/persistence.md "Data directory"). Default: in memory only.
   */
  dataDir?: string;
  /** devgate's clock (default: wall time); tests pass a `ManualClock` to drive rate windows, outages, interval mining and filter expiry. */
  clock?: Clock;
  /** Dump and load: a state file path (loaded at start if it exists, written on stop, as anvil's `--state`), or `{ load, dump, interval }`. */
  state?: string | StateOptions;
  /**
   * Rollup networks: the directory whose files devnet_dump / devnet_load may name by `path` (created if missing; only
   * files directly in it, no links). Default: none, and a request naming a path is refused.
   */
  dumpDir?: string;
  /**
   * Bytes a struct-logger trace (debug_trace* without a tracer) may take (default 268,435,456, 256 MB): its entries'
   * stacks, memory, return data and storage maps, counted as logged; past it the trace is answered -32005 naming the
   * limit. geth has no such bound.
   */
  maxTraceBytes?: number;
  /**
   * The network served at the bare address (`http://127.0.0.1:8545/`, `ws://127.0.0.1:8545/`), as anvil serves its
   * chain there, as the key `devgate`: a network name, or `'none'` (or false) for no bare address. Default: without
   * `chains` (or with `dev` options), the built-in `dev` network (chain id 31337, 10 funded dev accounts, automine),
   * added beside the others; with `chains`, the first eth chain given. Naming `'dev'` adds the built-in one unless a
   * chain is named `dev`.
   */
  bare?: string | false;
  /** The explorer and gateway dashboard in the browser at `/explorer` (docs/explorer.md); default true, false turns it off (`--no-explorer`). */
  explorer?: boolean;
  /**
   * Compiled artifacts (`<Name>.json` with an `abi`: solc, Hardhat, Foundry), files or folders of them (searched
   * through), whose ABIs the explorer decodes inputs, logs and call frames with, beside the shipped contracts' and the
   * seeds' (`--artifacts PATH`, docs/explorer.md). Read once at start, at most 64 MB; a bad file stops the start, named.
   */
  artifacts?: string[];
  /** The built-in dev network's settings (anvil's flags: accounts, balance, mnemonic, chainId, ...); giving any adds it. */
  dev?: DevNetworkOptions & {
    /** Every address may send eth_sendTransaction unsigned on the dev network (anvil `--auto-impersonate`). */
    autoImpersonate?: boolean;
  };
  /**
   * The node log (docs/dropin.md "The node log"): each transaction, contract creation, revert and console.log call
   * and each block, as anvil prints them. `true` writes to stdout; a stream (`{ write(text) }`) gets the text; a
   * function gets each line. Default false: start() prints nothing (a test fixture stays quiet). The CLI logs unless
   * `--silent`; `anvil_setLoggingEnabled` turns it off and on.
   */
  log?: boolean | LogTarget;
  /**
   * Fork a live chain (anvil's `--fork-url`, docs/fork.md): the dev network at the bare address becomes a fork of
   * `url` at `blockNumber` (default: the upstream's latest, pinned at start), its chain id the upstream's.
   */
  fork?: ForkStartOptions;
  /**
   * A chain per API key (docs/isolate.md): `'key'` gives each key but `devgate` (the bare address's, `url()`'s
   * default) its own copy-on-write copy of every eth network as started, made on its first request, so test workers
   * with keys of their own (`w${VITEST_POOL_ID}`) never see each other's writes. `{ by: 'key', maxCopies, idleSeconds }`
   * sets the bounds. Default false: every key shares one chain.
   */
  isolate?: false | 'key' | IsolateOptions;
}

/** `start({ isolate })`: a chain per API key (docs/isolate.md). */
export interface IsolateOptions {
  /** What a copy is kept per: the API key (the only kind so far). */
  by: 'key';
  /** Most copies alive at once, per network (default 64); past it a new key is answered -32005 naming the limit. */
  maxCopies?: number;
  /** A copy unused this many seconds (no request, no open WebSocket) is freed; its key's next request gets a fresh copy (default 600). */
  idleSeconds?: number;
}

/** `start({ fork })` and a seed's `fork` field (docs/fork.md). */
export interface ForkStartOptions {
  /** The upstream's JSON-RPC URL (http or https). */
  url: string;
  /** The fork block (default: the upstream's latest, pinned at start). */
  blockNumber?: number;
  /** HTTP headers sent upstream (anvil's `--fork-header`), e.g. `{ authorization: 'Bearer ...' }`. */
  headers?: Record<string, string>;
  /** Retries of a failed upstream request (network error, 5xx, 429), with exponential backoff (default 5). */
  retries?: number;
}

/** The run-time check of StartOptions, with the defaults filled in. */
export const StartOptionsSchema = z
  .object({
    port: z.number().int().min(0).max(65535).default(8545),
    host: z.string().min(1).default('127.0.0.1'),
    chains: z
      .array(z.union([z.string().min(1), z.record(z.string(), z.unknown())]))
      .min(1)
      .optional(),
    maxBatch: z.number().int().positive().default(DEFAULT_LIMITS.maxBatch),
    maxBodyBytes: z.number().int().positive().default(DEFAULT_LIMITS.maxBodyBytes),
    keys: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
    adminToken: AdminToken.optional(),
    limits: LimitsOptions.optional(),
    cache: z.union([z.literal(false), z.object({ dir: z.string().min(1) }).strict()]).optional(),
    mining: z.object({ automine: z.boolean().optional(), blockTime: z.number().positive().optional() }).strict().optional(),
    devMethods: z.boolean().default(true),
    rawHttp: z.boolean().default(true),
    idleGc: z.boolean().default(false),
    allowUnprotectedTxs: z.boolean().default(false),
    txFeeCap: z.number().finite().min(0).default(1),
    state: z
      .union([
        z.string().min(1),
        z.object({ load: z.string().min(1).optional(), dump: z.string().min(1).optional(), interval: z.number().positive().optional() }).strict(),
      ])
      .optional(),
    dataDir: z.string().min(1).optional(),
    dumpDir: z.string().min(1).optional(),
    maxTraceBytes: z.number().int().positive().optional(),
    bare: z.union([z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a network name, or "none"'), z.literal(false)]).optional(),
    explorer: z.boolean().default(true),
    artifacts: z.array(z.string().min(1)).default([]),
    dev: z
      .object({
        accounts: z.number().int().min(0).max(1000).optional(),
        balance: z.number().nonnegative().finite().optional(),
        mnemonic: z.string().min(1).optional(),
        chainId: z.number().int().positive().optional(),
        hardfork: z.enum(HARDFORKS).optional(),
        gasLimit: z.number().int().positive().optional(),
        baseFee: z.number().int().nonnegative().optional(),
        timestamp: z.number().int().nonnegative().optional(),
        init: z.string().min(1).optional(),
        codeSizeLimit: z.union([z.number().int().positive(), z.literal('unlimited')]).optional(),
        autoImpersonate: z.boolean().optional(),
      })
      .strict()
      .optional(),
    fork: ForkSpec.optional(),
    isolate: z
      .union([
        z.literal(false),
        z.literal('key'),
        z
          .object({
            by: z.literal('key'),
            maxCopies: z.number().int().positive().max(100_000).optional(),
            idleSeconds: z.number().positive().finite().optional(),
          })
          .strict(),
      ])
      .default(false),
    log: z
      .union([
        z.boolean(),
        z.custom<LogTarget>(
          (v) => typeof v === 'function' || typeof (v as { write?: unknown } | null)?.write === 'function',
          'expected true, false, a stream with write(text) or a function(line)',
        ),
      ])
      .default(false),
    clock: z.custom<Clock>((v) => typeof (v as Clock | undefined)?.now === 'function', 'expected a clock with a now() method').default(systemClock),
  })
  .strict();

/** The options after the check: defaults filled in. */
export type ResolvedStartOptions = z.output<typeof StartOptionsSchema>;

// Compile-time: the interface and the schema accept the same objects (a field added to one only fails `tsc`).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inStep: Same<Required<StartOptions>, Required<z.input<typeof StartOptionsSchema>>> = true;
void inStep;
