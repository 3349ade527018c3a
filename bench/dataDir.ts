/**
 * The data directory's bench (issue 14): mines N blocks (default 10,000; every `--tx-every`th one with a real
 * ETH transfer, the others empty) into a fresh data directory, stops, then measures a restart: start() on the
 * directory until the first answer (eth_blockNumber over HTTP; in this process, and in 3 fresh processes as a
 * user's next start is, nothing warm), then a few first reads (a block, a receipt, a
 * proof at an old block). Also gives the time per durable block while mining and the directory's size.
 *
 *   npx tsx bench/dataDir.ts [--blocks 10000] [--tx-every 10] [--dir DIR] [--keep]
 *   npx tsx bench/dataDir.ts --bench-chain     the 1,000 x 10 bench chain (bench/seed.ts): first start (build and
 *                                              write), size in the data directory, restart to the first answer
 *
 * Target (issue 14): restart with 10,000 mined blocks under 1 s to the first answer.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { start } from '../src/index.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string' },
    'tx-every': { type: 'string' },
    dir: { type: 'string' },
    keep: { type: 'boolean' },
    'bench-chain': { type: 'boolean' },
    'restart-only': { type: 'string' },
  },
});
const BLOCKS = Number(values.blocks ?? 10_000);
const TX_EVERY = Number(values['tx-every'] ?? 10);
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'devgate-bench-datadir-'));
const SEED = 'test/fixtures/eth/small.json';
const SINK = '0x00000000000000000000000000000000000000c1';

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const size = (path: string): number => readdirSync(path).reduce((s, f) => s + statSync(join(path, f)).size, 0);

/**
 * A restart in a fresh process (as a user's next start: nothing warm): `start()` on the directory until the first
 * answer, for the seed file given; prints the milliseconds.
 */
async function restartOnly(seed: string): Promise<void> {
  const t0 = performance.now();
  const gw = await start({ port: 0, chains: [seed], cache: false, dataDir: dir, idleGc: false });
  await rpc(gw.url(gw.networks[0]!.name), 'eth_blockNumber');
  const ms = performance.now() - t0;
  await gw.stop();
  console.log(JSON.stringify({ restartToFirstAnswerMs: Math.round(ms) }));
}

/** Runs restartOnly in a child process, `runs` times; gives each run's milliseconds. */
function freshRestarts(seed: string, runs = 3): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--dir', dir, '--restart-only', seed], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`restart run failed: ${r.stderr}`);
    out.push((JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { restartToFirstAnswerMs: number }).restartToFirstAnswerMs);
  }
  return out;
}

/** The 1,000 x 10 bench chain in a data directory: first start, size, restart. */
async function benchChainFigures(): Promise<void> {
  const { benchChain } = await import('./seed.js');
  const { seedPath, meta } = await benchChain();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const t0 = performance.now();
  let gw = await start({ port: 0, chains: [seedPath], cache: false, dataDir: dir, idleGc: false });
  const name = gw.networks[0]!.name;
  await rpc(gw.url(name), 'eth_blockNumber');
  const firstStartMs = performance.now() - t0;
  await gw.stop();
  const t1 = performance.now();
  gw = await start({ port: 0, chains: [seedPath], cache: false, dataDir: dir, idleGc: false });
  const head = await rpc(gw.url(name), 'eth_blockNumber');
  const restartMs = performance.now() - t1;
  await gw.stop();
  if (Number(head) !== meta.head) throw new Error(`restarted head ${head}, the bench chain's is ${meta.head}`);
  const fresh = freshRestarts(seedPath);
  const report = {
    chain: '1,000 x 10 bench chain',
    loadAverageAtStart: load,
    firstStartBuildAndWriteMs: Math.round(firstStartMs),
    restartInProcessMs: Math.round(restartMs),
    restartFreshProcessMs: fresh,
    dataDirMb: +(size(dir) / 1e6).toFixed(1),
  };
  console.log(JSON.stringify(report, null, 2));
  if (!values.keep && values.dir === undefined) rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  if (values['restart-only'] !== undefined) return restartOnly(values['restart-only']);
  if (values['bench-chain']) return benchChainFigures();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  // 1. Mine into a fresh data directory.
  let gw = await start({ port: 0, chains: [SEED], cache: false, dataDir: dir, idleGc: false });
  let url = gw.url('small');
  const [from] = (await rpc(url, 'eth_accounts')) as string[];
  const t0 = performance.now();
  let txHash: string | undefined;
  let mined = 0;
  while (mined < BLOCKS) {
    if (TX_EVERY > 0 && mined % TX_EVERY === 0) {
      txHash = await rpc(url, 'eth_sendTransaction', [{ from, to: SINK, value: '0x1' }]);
      mined++;
    } else {
      const run = Math.min(BLOCKS - mined, TX_EVERY > 0 ? TX_EVERY - (mined % TX_EVERY) : BLOCKS);
      await rpc(url, 'anvil_mine', [`0x${run.toString(16)}`]);
      mined += run;
    }
  }
  const mineMs = performance.now() - t0;
  const head = await rpc(url, 'eth_blockNumber');
  await gw.stop();

  // 2. Restart: start() until the first answer.
  const t1 = performance.now();
  gw = await start({ port: 0, chains: [SEED], cache: false, dataDir: dir, idleGc: false });
  url = gw.url('small');
  const first = await rpc(url, 'eth_blockNumber');
  const firstAnswerMs = performance.now() - t1;
  if (first !== head) throw new Error(`restarted head ${first}, stopped at ${head}`);
  const t2 = performance.now();
  await rpc(url, 'eth_getBlockByNumber', ['0x10', true]);
  const receipt = txHash === undefined ? undefined : await rpc(url, 'eth_getTransactionReceipt', [txHash]);
  await rpc(url, 'eth_getProof', [from, [], '0x20']);
  const firstReadsMs = performance.now() - t2;
  await gw.stop();

  const report = {
    blocks: BLOCKS,
    txEvery: TX_EVERY,
    loadAverageAtStart: load,
    mineMs: Math.round(mineMs),
    msPerDurableBlock: +(mineMs / BLOCKS).toFixed(2),
    restartInProcessMs: Math.round(firstAnswerMs),
    restartFreshProcessMs: freshRestarts(SEED),
    firstReadsMs: Math.round(firstReadsMs),
    receiptFound: receipt !== undefined && receipt !== null,
    dataDirMb: +(size(dir) / 1e6).toFixed(1),
    target: 'restart to first answer < 1000 ms with 10,000 blocks',
  };
  console.log(JSON.stringify(report, null, 2));
  if (!values.keep && values.dir === undefined) rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
