/** The `devgate` command: serves the shipped chains (or the given ones) until SIGINT/SIGTERM. */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { VERSION } from './version.js';
import { parseHeaders } from './eth/engine/fork/upstream.js';
import type { ForkStartOptions } from './options.js';
import { LimitsOptions } from './gateway/limits.js';

const HELP = `devgate ${VERSION}: a local devnet that emulates a hosted blockchain node gateway

Usage: devgate [options]

Options:
  -p, --port N      port to listen on (default 8545; 0 picks a free port)
  --bare NETWORK    the network served at the bare address http://HOST:PORT/
                    and ws://HOST:PORT/, as the key devgate (default: the
                    built-in dev network; with --chain, the first eth chain
                    given); --bare none turns the bare address off
  -H, --host H      address to bind (default 127.0.0.1)
  -c, --chain FILE  a seed file to serve; repeat for several networks
                    (default: the shipped chains in chains/)
  -k, --keys FILE   a keys file: API keys, plans, secrets, allowlists, limits
                    (default: any well-formed key works, with no rate limit)
  --plan PLAN       without --keys: the plan every key is on, with its rate
                    and daily limits: free, developer, team, growth, custom
                    (default: unlimited, no limits at all)
  --admin-token T   the admin interface's token, sent as "Authorization:
                    Bearer T" (default: env DEVGATE_ADMIN_TOKEN, else the keys
                    file's "adminToken", else 32 random bytes made at start and
                    printed below the addresses)
  --max-batch N     most calls in one batch (default 1000)
  --max-body-bytes N        largest HTTP body (default 5242880, 5 MB; over: 413)
  --max-message-bytes N     largest WebSocket message (default 5242880; over: close 1009)
  --request-timeout MS      time to send a whole HTTP request (default 30000)
  --headers-timeout MS      time to send an HTTP request's headers (default 10000)
  --keep-alive-timeout MS   idle keep-alive HTTP connections close after (default 65000)
  --max-concurrent-heavy N  heavy calls (eth_call, eth_getLogs, eth_getProof, ...)
                    one key may run at once (default 16); past it a call waits
                    for a slot (on a hosted plan: -32005 at once)
  --max-queued-heavy-bytes N  bytes of one key's requests waiting for a heavy
                    slot (default 67108864, 64 MB; 0: refuse at once)
  --ws-ping-interval MS     WebSocket peers are pinged this often; one that did
                    not answer the last ping is closed (default 30000)
  --max-buffered-bytes N    a WebSocket peer that leaves more than N bytes unread
                    is closed with 1008 (default 16777216, 16 MB)
  --max-buffered-bytes-per-key N  unread WebSocket bytes of all connections
                    of one key; past it the key's connection holding the
                    most is closed with 1008 (default 67108864, 64 MB)
  --max-buffered-bytes-total N    unread WebSocket bytes of all connections;
                    past it the one holding the most is closed with 1008
                    (default 268435456, 256 MB)
  --max-subscriptions-per-key N   eth_subscribe subscriptions one key may hold
                    on a network over all its connections; past it -32005
                    (default 1000)
  --max-filters-per-key N   polling filters one key may hold on a network;
                    past it -32005 (default 1000)
  --max-filters N   polling filters one network holds; a new one past it
                    evicts the least recently polled filter of the key
                    holding the most (default 10000)
  --max-filter-bytes N      bytes one filter may buffer unpolled (as
                    eth_getFilterChanges answers them); past it the filter is
                    dropped: "filter not found" (default 16777216, 16 MB)
  --max-filter-bytes-per-key N    bytes the filters of one key may buffer on
                    a network; past it its largest filter is dropped
                    (default 67108864, 64 MB)
  --max-filter-bytes-total N      bytes all filters of a network may buffer;
                    past it the largest filter is dropped (default
                    268435456, 256 MB)
  --max-mine-blocks N       most blocks one anvil_mine / evm_mine call mines
                    (each pool transaction counts as one more); past it
                    -32005 (default 20000)
  --txpool-max-tx-bytes N   largest pooled transaction (default 131072, geth's)
  --txpool-account-slots N  executable slots (32 KB each) per account (default 16)
  --txpool-global-slots N   executable slots in all (default 5120)
  --txpool-account-queue N  nonce-gap transactions per account (default 64)
  --txpool-global-queue N   nonce-gap transactions in all (default 1024)
  --max-trace-bytes N       bytes a struct-logger trace (stack, memory,
                    storage maps) may take; past it -32005 (default
                    268435456, 256 MB; geth has no such bound)
  --cache-dir DIR   where built chains are cached, so the next start of the same
                    chains skips building (default node_modules/.cache/devgate,
                    or the OS cache folder)
  --no-cache        build every chain, read and write no cache
  --data-dir DIR    keep every eth network's chain in DIR (blocks, receipts,
                    state, pool, mining settings), durably: a block is written
                    before it is answered; the next start restores it from DIR
                    (default: in memory only)
  -b, --block-time SECONDS  interval mining: a block every SECONDS (empty ones
                    too); sends wait for the next block (default: automine,
                    a block per send)
  --no-mining       manual mining: sends wait in the pool until evm_mine /
                    anvil_mine
  --isolate-keys    a chain per API key (docs/isolate.md): each key but devgate
                    (the bare address's) gets its own copy-on-write copy of
                    every eth network as started, on its first request
  --isolate-max N   most live copies per network with --isolate-keys; past it
                    a new key is answered -32005 (default 64)
  --isolate-idle SECONDS  a copy unused this long (no request, no open
                    WebSocket) is freed; its key's next request gets a fresh
                    copy (default 600)
  --no-explorer     serve no explorer and gateway dashboard at /explorer
  --artifacts PATH  a compiled artifact (solc, Hardhat, Foundry .json with an
                    abi) or a folder of them (searched through, e.g. out/ or
                    artifacts/) the explorer decodes inputs and logs with;
                    repeatable; read at start, at most 64 MB in all
  --no-dev-methods  serve no dev methods (evm_, anvil_, hardhat_, miner_, devnet_,
                    eth_sendUnsignedTransaction, testing_buildBlockV1: -32601),
                    exactly as the hosted gateway; web pages never reach them
  --no-raw-http     serve every HTTP request through node:http (the raw front
                    that answers plain JSON-RPC POSTs on the socket is off)
  --no-idle-gc      no full GCs when devgate goes idle after work
  --allow-unprotected-txs   accept legacy transactions without EIP-155
                    replay protection (refused by default, as geth does)
  --tx-fee-cap ETHER  refuse a sent transaction whose fee (gas x fee cap) is
                    over ETHER, as geth's --rpc.txfeecap (default 1; 0: none)
  --load-state FILE load a state file at start: devgate's (--dump-state,
                    anvil_dumpState) or anvil's --dump-state JSON
  --dump-state FILE write every network's state to FILE on exit (atomically:
                    a crash leaves the previous file whole)
  --state FILE      both: load FILE if it exists, write it on exit
  --state-interval SECONDS  also write the dump file every SECONDS
  --dump-dir DIR    rollup networks: devnet_dump / devnet_load may name files
                    directly in DIR (created if missing; no links, no
                    subdirectories); without it a request naming a path is
                    refused

The dev network (anvil's flags; giving any adds it, also beside --chain):
  --accounts N      dev accounts (default 10)
  --balance ETH     each dev account's balance in ether (default 10000)
  -m, --mnemonic M  the BIP-39 mnemonic of the dev accounts (default "test
                    test test test test test test test test test test junk")
  --chain-id N      chain id (default 31337)
  --hardfork NAME   hardfork (default osaka; e.g. prague, cancun, bpo1)
  --gas-limit N     block gas limit (default 30000000)
  --base-fee WEI    genesis base fee (default 1000000000)
  --timestamp SECS  genesis timestamp (default 1700000000: a fixed genesis,
                    so the chain is the same, and cached, at every start)
  --init FILE       start from an anvil or geth genesis.json (chain id,
                    alloc, header fields); the dev accounts stay funded
  --auto-impersonate  any address may send eth_sendTransaction unsigned
  --code-size-limit N       largest contract code in bytes (EIP-170, default
                    24576); init code may be twice it (EIP-3860)
  --disable-code-size-limit  no limit on contract or init code size
  (--block-time and --no-mining above apply to it as to every eth network)

  --silent          print nothing after start: no banner, no node log (by
                    default each transaction, contract creation, revert,
                    console.log call and block is printed, as anvil does;
                    anvil_setLoggingEnabled turns it off and on)

Forking (docs/fork.md; the dev network at the bare address becomes the fork):
  -f, --fork-url URL  fork the chain at URL (http or https JSON-RPC): its
                    state is fetched as it is read, at the fork block, and
                    cached; later blocks are local; chain id is URL's
  --fork-block-number N  the fork block (default: URL's latest, at start)
  --fork-retries N  retries of a failed upstream request (default 5)
  --fork-headers "NAME: VALUE"  an HTTP header sent upstream (repeatable;
                    also --fork-header), e.g. "Authorization: Bearer KEY"

  -h, --help        show this help
  -v, --version     print the version

The bare address http://HOST:PORT/ (and ws://HOST:PORT/) serves one network as
anvil does, as the key "devgate" (with a keys file, that key must exist).
Each network is served at http://HOST:PORT/<network>/v3/<API_KEY> (HTTP JSON-RPC)
and ws://HOST:PORT/<network>/ws/v3/<API_KEY> (WebSocket). The admin interface
(JSON-RPC, methods devgate_*) is at http://HOST:PORT/admin: it wants the admin
token as "Authorization: Bearer <token>" and answers no browser page (a
request with an Origin header, or a Host that is not localhost, an IP address
or --host, gets 403).`;

/** Numeric limit flags and the start() limit each sets. */
const LIMIT_FLAGS = {
  'max-batch': 'maxBatch',
  'max-body-bytes': 'maxBodyBytes',
  'max-message-bytes': 'maxMessageBytes',
  'request-timeout': 'requestTimeoutMs',
  'headers-timeout': 'headersTimeoutMs',
  'keep-alive-timeout': 'keepAliveTimeoutMs',
  'max-concurrent-heavy': 'maxConcurrentHeavy',
  'max-queued-heavy-bytes': 'maxQueuedHeavyBytes',
  'ws-ping-interval': 'wsPingIntervalMs',
  'max-buffered-bytes': 'maxBufferedBytes',
  'max-filters-per-key': 'maxFiltersPerKey',
  'max-filters': 'maxFilters',
  'max-filter-bytes': 'maxFilterBytes',
  'max-filter-bytes-per-key': 'maxFilterBytesPerKey',
  'max-filter-bytes-total': 'maxFilterBytesTotal',
  'max-subscriptions-per-key': 'maxSubscriptionsPerKey',
  'max-buffered-bytes-per-key': 'maxBufferedBytesPerKey',
  'max-buffered-bytes-total': 'maxBufferedBytesTotal',
  'max-mine-blocks': 'maxMineBlocks',
  'txpool-max-tx-bytes': 'txpoolMaxTxBytes',
  'txpool-account-slots': 'txpoolAccountSlots',
  'txpool-global-slots': 'txpoolGlobalSlots',
  'txpool-account-queue': 'txpoolAccountQueue',
  'txpool-global-queue': 'txpoolGlobalQueue',
} as const;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** What to use instead of starknet-devnet's dump flags, when they are given. */
function starknetDevnetHint(argv: readonly string[]): string {
  if (!argv.some((a) => /^--(dump-on|dump-path)(=|$)/.test(a))) return '';
  return (
    "--dump-on / --dump-path are starknet-devnet's; devgate dumps every network with --dump-state FILE (on exit), " +
    '--state FILE (loaded at start if it exists, written on exit) and --state-interval SECONDS, and --dump-dir DIR ' +
    'lets devnet_dump / devnet_load name files in DIR.\n'
  );
}

/** Options beside the gateway's own: the bare address and anvil's flags for the dev network. */
const OPTIONS = {
  bare: { type: 'string' },
  accounts: { type: 'string' },
  balance: { type: 'string' },
  mnemonic: { type: 'string', short: 'm' },
  'chain-id': { type: 'string' },
  hardfork: { type: 'string' },
  'gas-limit': { type: 'string' },
  'base-fee': { type: 'string' },
  timestamp: { type: 'string' },
  init: { type: 'string' },
  'auto-impersonate': { type: 'boolean' },
  'fork-url': { type: 'string', short: 'f' },
  'fork-block-number': { type: 'string' },
  'fork-retries': { type: 'string' },
  'fork-headers': { type: 'string', multiple: true },
  'fork-header': { type: 'string', multiple: true },
  'code-size-limit': { type: 'string' },
  'disable-code-size-limit': { type: 'boolean' },
  silent: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** Every option the command takes (parseArgs'), anvil's among them. */
const PARSE_OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string', short: 'H' },
  chain: { type: 'string', short: 'c', multiple: true },
  keys: { type: 'string', short: 'k' },
  plan: { type: 'string' },
  'admin-token': { type: 'string' },
  'cache-dir': { type: 'string' },
  'no-cache': { type: 'boolean' },
  'data-dir': { type: 'string' },
  'block-time': { type: 'string', short: 'b' },
  'no-mining': { type: 'boolean' },
  'no-dev-methods': { type: 'boolean' },
  'no-explorer': { type: 'boolean' },
  artifacts: { type: 'string', multiple: true },
  'isolate-keys': { type: 'boolean' },
  'isolate-max': { type: 'string' },
  'isolate-idle': { type: 'string' },
  'allow-unprotected-txs': { type: 'boolean' },
  'tx-fee-cap': { type: 'string' },
  'no-raw-http': { type: 'boolean' },
  'no-idle-gc': { type: 'boolean' },
  ...Object.fromEntries(Object.keys(LIMIT_FLAGS).map((f) => [f, { type: 'string' as const }])),
  'load-state': { type: 'string' },
  'dump-state': { type: 'string' },
  state: { type: 'string' },
  'state-interval': { type: 'string' },
  'dump-dir': { type: 'string' },
  'max-trace-bytes': { type: 'string' },
  ...OPTIONS,
} as const;

/** Every long option name, for "did you mean": the parser's own table, so no flag is missing from it. */
const LONG_NAMES = Object.keys(PARSE_OPTIONS);

/** ` (did you mean --x?)` for an unknown option close to a known one (edit distance at most a third of its length). */
function closestHint(err: Error): string {
  const m = /Unknown option '--?([^']+)'/.exec(err.message);
  if (m === null) return '';
  const given = m[1]!.replace(/=.*$/, '');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of LONG_NAMES) {
    const d = editDistance(given, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(given.length / 3)) ? ` (did you mean --${best}?)` : '';
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The dev network's options from anvil's flags, or what is wrong with one. */
function devFlags(args: Record<string, unknown>): { dev?: Record<string, unknown>; error?: string } {
  const dev: Record<string, unknown> = {};
  if (args['code-size-limit'] !== undefined && args['disable-code-size-limit'] === true)
    return { error: 'give --code-size-limit or --disable-code-size-limit, not both' };
  if (args['disable-code-size-limit'] === true) dev.codeSizeLimit = 'unlimited';
  const whole = (flag: string, option: string, min: number) => {
    const raw = args[flag];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min) return `--${flag} must be a whole number from ${min}, got ${JSON.stringify(raw)}`;
    dev[option] = n;
    return undefined;
  };
  const error =
    whole('accounts', 'accounts', 0) ??
    whole('chain-id', 'chainId', 1) ??
    whole('gas-limit', 'gasLimit', 1) ??
    whole('base-fee', 'baseFee', 0) ??
    whole('timestamp', 'timestamp', 0) ??
    whole('code-size-limit', 'codeSizeLimit', 1);
  if (error !== undefined) return { error };
  if (args.balance !== undefined) {
    const n = Number(args.balance);
    if (!(Number.isFinite(n) && n >= 0)) return { error: `--balance must be a number of ether, got ${JSON.stringify(args.balance)}` };
    dev.balance = n;
  }
  // Checked by start() against the hardforks devgate knows (docs/cli.md "The command")
  if (args.hardfork !== undefined) dev.hardfork = args.hardfork;
  if (args.mnemonic !== undefined) dev.mnemonic = args.mnemonic;
  if (args.init !== undefined) dev.init = args.init;
  if (args['auto-impersonate'] === true) dev.autoImpersonate = true;
  return Object.keys(dev).length === 0 ? {} : { dev };
}

/** The fork's options from --fork-* flags (docs/fork.md), or what is wrong with one. */
function forkFlags(args: Record<string, unknown>): { fork?: ForkStartOptions; error?: string } {
  const url = args['fork-url'] as string | undefined;
  const headerLines = [...((args['fork-headers'] as string[] | undefined) ?? []), ...((args['fork-header'] as string[] | undefined) ?? [])];
  if (url === undefined) {
    const stray = ['fork-block-number', 'fork-retries'].find((f) => args[f] !== undefined) ?? (headerLines.length > 0 ? 'fork-headers' : undefined);
    return stray === undefined ? {} : { error: `--${stray} needs --fork-url` };
  }
  const fork: ForkStartOptions = { url };
  for (const [flag, field] of [
    ['fork-block-number', 'blockNumber'],
    ['fork-retries', 'retries'],
  ] as const) {
    const raw = args[flag] as string | undefined;
    if (raw === undefined) continue;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isSafeInteger(n) || n < 0) return { error: `--${flag} must be a whole number from 0, got ${JSON.stringify(raw)}` };
    fork[field] = n;
  }
  try {
    if (headerLines.length > 0) fork.headers = parseHeaders(headerLines);
  } catch (err) {
    return { error: (err as Error).message };
  }
  return { fork };
}

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, options: PARSE_OPTIONS, strict: true }).values;
  } catch (err) {
    console.error(`devgate: ${(err as Error).message}${closestHint(err as Error)}\n${starknetDevnetHint(argv)}Run devgate --help for the options.`);
    return 2;
  }
  if (args.help) return (console.log(HELP), 0);
  if (args.version) return (console.log(VERSION), 0);
  const port = args.port === undefined ? 8545 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`devgate: --port must be a whole number from 0 to 65535, got ${JSON.stringify(args.port)}`);
    return 2;
  }
  const limits: Record<string, number> = {};
  for (const [flag, option] of Object.entries(LIMIT_FLAGS)) {
    const raw = (args as Record<string, unknown>)[flag];
    if (raw === undefined) continue;
    const n = Number(raw);
    // The limit's own schema says what it takes (a few take 0, meaning "none").
    const schema = LimitsOptions.shape[option];
    if (raw === '' || !schema.safeParse(n).success) {
      const what = schema.safeParse(0).success ? 'a whole number (0 or more)' : 'a positive whole number';
      console.error(`devgate: --${flag} must be ${what}, got ${JSON.stringify(raw)}`);
      return 2;
    }
    limits[option] = n;
  }
  const maxTraceBytes = args['max-trace-bytes'] === undefined ? undefined : Number(args['max-trace-bytes']);
  if (maxTraceBytes !== undefined && !(Number.isInteger(maxTraceBytes) && maxTraceBytes > 0)) {
    console.error(`devgate: --max-trace-bytes must be a positive whole number, got ${JSON.stringify(args['max-trace-bytes'])}`);
    return 2;
  }
  if (args.plan !== undefined && args.keys !== undefined) {
    console.error('devgate: --plan applies without --keys; in a keys file, set "open" and "defaultPlan" instead');
    return 2;
  }
  const host = args.host ?? '127.0.0.1';
  const keys = args.plan === undefined ? args.keys : { open: true, defaultPlan: args.plan };
  if (args['no-cache'] && args['cache-dir'] !== undefined) {
    console.error('devgate: give either --no-cache or --cache-dir, not both');
    return 2;
  }
  const cache = args['no-cache'] ? false : args['cache-dir'] === undefined ? undefined : { dir: args['cache-dir'] };
  const blockTime = args['block-time'] === undefined ? undefined : Number(args['block-time']);
  if (blockTime !== undefined && !(Number.isFinite(blockTime) && blockTime > 0)) {
    console.error(`devgate: --block-time must be a positive number of seconds, got ${JSON.stringify(args['block-time'])}`);
    return 2;
  }
  const txFeeCap = args['tx-fee-cap'] === undefined ? undefined : Number(args['tx-fee-cap']);
  if (txFeeCap !== undefined && !(args['tx-fee-cap']!.trim() !== '' && Number.isFinite(txFeeCap) && txFeeCap >= 0)) {
    console.error(`devgate: --tx-fee-cap must be a number of ether, 0 or more, got ${JSON.stringify(args['tx-fee-cap'])}`);
    return 2;
  }
  const isolate = isolateFlags(args);
  if (typeof isolate === 'string') {
    console.error(`devgate: ${isolate}`);
    return 2;
  }
  // Without a mining flag each network mines as its seed says (automine by default).
  const mining = blockTime === undefined && !args['no-mining'] ? undefined : { automine: !args['no-mining'] && blockTime === undefined, blockTime };
  const { state, error } = stateFlags(args);
  if (error !== undefined) {
    console.error(`devgate: ${error}`);
    return 2;
  }
  const { dev, error: devError } = devFlags(args);
  if (devError !== undefined) {
    console.error(`devgate: ${devError}`);
    return 2;
  }
  const { fork, error: forkError } = forkFlags(args);
  if (forkError !== undefined) {
    console.error(`devgate: ${forkError}`);
    return 2;
  }
  // Loaded here, so --help, --version and a bad flag answer without loading the engines.
  const { start } = await import('./index.js');
  const gw = await start({
    port,
    host,
    chains: args.chain,
    keys,
    adminToken: args['admin-token'] ?? (process.env.DEVGATE_ADMIN_TOKEN || undefined),
    limits,
    cache,
    mining,
    dataDir: args['data-dir'],
    devMethods: !args['no-dev-methods'],
    explorer: !args['no-explorer'],
    ...(args.artifacts === undefined ? {} : { artifacts: args.artifacts }),
    allowUnprotectedTxs: args['allow-unprotected-txs'] === true,
    txFeeCap,
    rawHttp: !args['no-raw-http'],
    idleGc: !args['no-idle-gc'],
    state,
    dumpDir: args['dump-dir'],
    maxTraceBytes,
    isolate,
    ...(args.bare === undefined ? {} : { bare: args.bare }),
    ...(dev === undefined ? {} : { dev }),
    ...(fork === undefined ? {} : { fork }),
    log: args.silent !== true,
  });
  if (args.silent !== true) for (const line of gw.stateLoaded) console.log(`Loaded state: ${line}`);
  if (!LOOPBACK.has(host)) {
    console.warn(
      `devgate: warning: bound to ${host}, not 127.0.0.1: other machines can reach this gateway, and its admin interface (/admin) with the admin token`,
    );
  }
  if (args.silent === true) return waitForSignal(gw);
  const hostPart = gw.host.includes(':') ? `[${gw.host}]` : gw.host;
  if (gw.bare !== undefined) {
    const n = gw.networks.find((x) => x.name === gw.bare)!;
    console.log(`${n.name} (${n.kind}, chain id ${n.chainId}) at the bare address, as the key devgate`);
    console.log(`  HTTP       ${gw.bareUrl()}\n  WebSocket  ${gw.bareUrl('ws')}`);
  }
  for (const n of gw.networks) {
    console.log(`${n.name} (${n.kind}, chain id ${n.chainId})`);
    console.log(`  HTTP       ${gw.url(n.name, '<API_KEY>')}`);
    console.log(`  WebSocket  ${gw.wsUrl(n.name, '<API_KEY>')}`);
  }
  // What each network's kind prints of it (src/networkKind.ts, `cli`): eth, its mining mode; its handle is gw.<kind>(name).
  const { KINDS } = await import('./kinds.js');
  const printed = gw.networks.filter((n) => KINDS[n.kind].cli !== undefined);
  for (const n of printed) console.log(KINDS[n.kind].cli!.status(gw[n.kind](n.name)));
  if (isolate !== false) {
    const max = isolate.maxCopies ?? 64;
    const idle = isolate.idleSeconds ?? 600;
    console.log(`Isolated per key: each API key but devgate gets its own copy of every eth network (at most ${max}; freed after ${idle} s idle)`);
  }
  if (!args['no-explorer']) console.log(`Explorer  http://${hostPart}:${gw.port}/explorer`);
  console.log(`Admin (devgate_*)  http://${hostPart}:${gw.port}/admin\n  Authorization: Bearer ${gw.adminToken}`);
  // Every eth network's accounts (checksummed, with balances) and @label contracts (their kind's banner), the bare address's first.
  const banner: string[] = [];
  for (const n of [...printed].sort((a, b) => Number(b.name === gw.bare) - Number(a.name === gw.bare)))
    banner.push(...(await KINDS[n.kind].cli!.banner(gw[n.kind](n.name), gw.contracts(n.name))));
  if (banner.length > 0) console.log(banner.join('\n'));
  console.log(`Listening on ${gw.host}:${gw.port}`);
  return waitForSignal(gw);
}

/** Serves until SIGINT or SIGTERM, then stops the gateway. */
async function waitForSignal(gw: { stop(): Promise<void> }): Promise<number> {
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await gw.stop();
  return 0;
}

/** start()'s `state` from --load-state, --dump-state, --state and --state-interval, or what is wrong with them. */
function stateFlags(args: { 'load-state'?: string; 'dump-state'?: string; state?: string; 'state-interval'?: string }): {
  state?: string | { load?: string; dump?: string; interval?: number };
  error?: string;
} {
  const { 'load-state': load, 'dump-state': dump, state, 'state-interval': every } = args;
  if (state !== undefined && (load !== undefined || dump !== undefined)) return { error: 'give --state, or --load-state and --dump-state, not both' };
  const interval = every === undefined ? undefined : Number(every);
  if (interval !== undefined && !(Number.isFinite(interval) && interval > 0))
    return { error: `--state-interval must be a positive number of seconds, got ${JSON.stringify(every)}` };
  if (interval !== undefined && state === undefined && dump === undefined)
    return { error: '--state-interval needs --dump-state or --state (the file to write)' };
  if (state !== undefined) return { state: interval === undefined ? state : { load: existsSync(state) ? state : undefined, dump: state, interval } };
  return { state: load === undefined && dump === undefined ? undefined : { load, dump, interval } };
}

/** start()'s `isolate` from --isolate-keys, --isolate-max and --isolate-idle, or what is wrong with them. */
function isolateFlags(args: {
  'isolate-keys'?: boolean;
  'isolate-max'?: string;
  'isolate-idle'?: string;
}): false | { by: 'key'; maxCopies?: number; idleSeconds?: number } | string {
  const { 'isolate-keys': on, 'isolate-max': max, 'isolate-idle': idle } = args;
  if (on !== true) return max === undefined && idle === undefined ? false : '--isolate-max and --isolate-idle need --isolate-keys';
  const maxCopies = max === undefined ? undefined : Number(max);
  if (maxCopies !== undefined && !(Number.isInteger(maxCopies) && maxCopies > 0 && maxCopies <= 100_000))
    return `--isolate-max must be a whole number from 1 to 100000, got ${JSON.stringify(max)}`;
  const idleSeconds = idle === undefined ? undefined : Number(idle);
  if (idleSeconds !== undefined && !(Number.isFinite(idleSeconds) && idleSeconds > 0))
    return `--isolate-idle must be a positive number of seconds, got ${JSON.stringify(idle)}`;
  return { by: 'key', ...(maxCopies === undefined ? {} : { maxCopies }), ...(idleSeconds === undefined ? {} : { idleSeconds }) };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`devgate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
