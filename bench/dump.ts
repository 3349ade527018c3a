/**
 * Dump and load figures on the bench chain (1,000 blocks x 10 transactions, bench/seed.ts): the size of its state
 * file (and gzip'd, as anvil_dumpState answers it), the time to dump it, and the time to load it into a gateway
 * serving only the seed's genesis (every block loaded, none shared), in-process.
 *
 *   npx tsx bench/dump.ts [--blocks N]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { start } from '../src/index.js';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS } from './seed.js';

const blocksArg = process.argv.indexOf('--blocks');
const blocks = blocksArg < 0 ? DEFAULT_CHAIN_OPTIONS.blocks : Number(process.argv[blocksArg + 1]);
const log = (line: string) => console.log(line);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

// Another length gets its own seed folder, so the bench's 1,000-block seed stays.
/** The longest gap between 5 ms ticks since the last take(): how long requests would have waited. */
function stallMeter(): { take(): number; stop(): void } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  return {
    // Call after a pause (a tick due during a stall runs only after it).
    take: () => {
      const w = Math.round(worst);
      worst = 0;
      return w;
    },
    stop: () => clearInterval(timer),
  };
}

const chain = await benchChain(
  { ...DEFAULT_CHAIN_OPTIONS, blocks },
  log,
  blocks === DEFAULT_CHAIN_OPTIONS.blocks ? CACHE_DIR : join(CACHE_DIR, `dump-${blocks}`),
);
const dir = mkdtempSync(join(tmpdir(), 'devgate-dump-bench-'));
try {
  const cache = { dir: join(dir, 'cache') };
  log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  // First start builds and caches the chain; the measured one restores it, as users start it after the first time.
  await (await start({ port: 0, chains: [chain.seedPath], cache })).stop();
  const a = await start({ port: 0, chains: [chain.seedPath], cache });
  const stall = stallMeter();
  let t0 = process.hrtime.bigint();
  const bytes = await a.dumpState();
  await new Promise((r) => setTimeout(r, 30));
  log(
    `dump of ${chain.meta.head} blocks x ${DEFAULT_CHAIN_OPTIONS.txsPerBlock} txs (restored chain): ${ms(t0).toFixed(0)} ms, ${(bytes.length / 1e6).toFixed(1)} MB; longest event-loop stall ${stall.take()} ms`,
  );
  t0 = process.hrtime.bigint();
  const again = await a.dumpState();
  await new Promise((r) => setTimeout(r, 30));
  log(
    `second dump (blocks decoded by the first): ${ms(t0).toFixed(0)} ms, same bytes: ${Buffer.compare(Buffer.from(bytes), Buffer.from(again)) === 0}; longest stall ${stall.take()} ms`,
  );
  stall.stop();
  t0 = process.hrtime.bigint();
  const gz = gzipSync(bytes, { level: 1 });
  log(`gzip'd as anvil_dumpState answers (level 1): ${(gz.length / 1e6).toFixed(1)} MB in ${ms(t0).toFixed(0)} ms`);
  const file = join(dir, 'state.bin');
  t0 = process.hrtime.bigint();
  await a.dumpState(file);
  log(`dump written atomically to a file (dump + write + fsync + rename): ${ms(t0).toFixed(0)} ms`);
  // A gateway serving only the seed's genesis: the load brings every block.
  const seed = JSON.parse(readFileSync(chain.seedPath, 'utf8')) as Record<string, unknown>;
  const genesisOnly = join(dir, 'genesis-only.json');
  writeFileSync(genesisOnly, JSON.stringify({ ...seed, blocks: [], pending: [] }));
  const b = await start({ port: 0, chains: [genesisOnly], cache: false });
  t0 = process.hrtime.bigint();
  const report = await b.loadState(file);
  log(`load into a genesis-only gateway (read file, check, adopt ${chain.meta.head} blocks): ${ms(t0).toFixed(0)} ms: ${report.join('; ')}`);
  const last = await b.eth('bench').getBlock();
  const want = await a.eth('bench').getBlock();
  log(`head after load: ${last?.number} ${last?.hash === want?.hash ? 'same hash' : 'DIFFERENT HASH'}`);
  t0 = process.hrtime.bigint();
  const c = await start({ port: 0, chains: [genesisOnly], cache: false, state: { load: file } });
  log(`start with --load-state (genesis-only seed + load): ${ms(t0).toFixed(0)} ms`);
  log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await Promise.all([a.stop(), b.stop(), c.stop()]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
