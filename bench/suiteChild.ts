/**
 * One run of the test-suite scenario (bench/suite.ts) in a fresh process, as a test run is: the parent
 * (bench/suiteBench.ts) starts it once per server and round, so no run inherits another's warm JIT.
 *   tsx bench/suiteChild.ts --url http://127.0.0.1:8545 --ws ws://127.0.0.1:8545 --tests 150
 *   tsx bench/suiteChild.ts --in-process --cache-dir DIR --tests 150   # devgate's start() here, viem over gw.provider('dev')
 * Prints one line of JSON: { ms, cpuMs, error? }. cpuMs is this process's CPU time during the suite (the suite's
 * own work, plus the server's with --in-process).
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { custom, http, webSocket } from 'viem';
import { REPO_ROOT } from './seed.js';
import { runSuite, type SuiteTarget } from './suite.js';

export interface SuiteChildAnswer {
  ms: number;
  cpuMs: number;
  /** Milliseconds from `start()` to its handle (--in-process only). */
  startMs?: number;
  error?: string;
}

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    ws: { type: 'string' },
    'in-process': { type: 'boolean', default: false },
    'cache-dir': { type: 'string' },
    tests: { type: 'string', default: '150' },
  },
});

/** devgate's start() from the built package (dist/index.js), as a test suite imports it. */
async function inProcessTarget(): Promise<{ target: SuiteTarget; startMs: number; stop: () => Promise<void> }> {
  const { start } = (await import(pathToFileURL(join(REPO_ROOT, 'dist', 'index.js')).href)) as typeof import('../src/index.js');
  const t0 = performance.now();
  const gw = await start({ port: 0, ...(args['cache-dir'] ? { cache: { dir: args['cache-dir'] } } : {}) });
  const startMs = performance.now() - t0;
  const provider = gw.provider('dev');
  // viem watches events over custom() by polling a filter: the watch is in place once eth_newFilter has answered.
  let filterMade = () => {};
  const filterReady = new Promise<void>((resolve) => (filterMade = resolve));
  const observed = {
    request: async (req: { method: string; params?: readonly unknown[] | object }) => {
      const result = await provider.request(req);
      if (req.method === 'eth_newFilter') filterMade();
      return result;
    },
    on: provider.on.bind(provider),
    removeListener: provider.removeListener.bind(provider),
  };
  // retryCount 0: viem's custom() wraps a JSON-RPC error whose code it has no class for (3, a revert) as UnknownRpcError
  // (code -1), which it retries 3 times with backoff: ~1.05 s per reverting call (docs/cli.md, gw.provider()).
  return { target: { transport: custom(observed, { retryCount: 0 }), watchReady: () => filterReady }, startMs, stop: () => gw.stop() };
}

async function main(): Promise<SuiteChildAnswer> {
  const tests = Number(args.tests);
  const served = args['in-process']
    ? await inProcessTarget()
    : { target: { transport: http(args.url!), wsTransport: webSocket(args.ws!, { reconnect: false }) }, startMs: undefined, stop: async () => {} };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    await runSuite(served.target, { tests });
  } catch (err) {
    return { ms: performance.now() - t0, cpuMs: 0, error: (err as Error).message.split('\n').slice(0, 3).join(' ') };
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await served.stop();
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, ...(served.startMs === undefined ? {} : { startMs: served.startMs }) };
}

main().then(
  (answer) => {
    console.log(JSON.stringify(answer));
    process.exit(0);
  },
  (err: unknown) => {
    console.log(JSON.stringify({ ms: 0, cpuMs: 0, error: (err as Error).message ?? String(err) }));
    process.exit(1);
  },
);
