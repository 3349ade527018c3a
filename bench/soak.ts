/**
 * `npm run soak`: one request must not freeze the gateway. devgate runs as its own process (the built CLI,
 * shipped chains); a separate client measures eth_blockNumber while N clients send gas-cap looping eth_calls
 * (`{"data":"0x5b600056.."}`, no `to`, each with other trailing bytes so nothing is answered twice).
 *
 *   npm run soak                       # 1 and 8 looping clients, 15 s each
 *   npm run soak -- --seconds 5 --clients 8
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { ensureBuilt, rpc, startDevgate } from './servers.js';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '15' }, clients: { type: 'string' } } });
const seconds = Number(args.seconds);
const clientCounts = args.clients === undefined ? [1, 8] : [Number(args.clients)];
const log = (line: string) => console.log(line);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  ensureBuilt(log);
  const devgate = await startDevgate({ network: 'mainnet' });
  try {
    for (const clients of clientCounts) {
      const end = performance.now() + seconds * 1000;
      let heavyDone = 0;
      let heavyErrors = 0;
      let n = 0;
      const heavy = Array.from({ length: clients }, async (_, c) => {
        while (performance.now() < end) {
          const data = `0x5b600056${(c * 1_000_000 + n++).toString(16).padStart(8, '0')}`;
          const r = await rpc(devgate.url, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data }, 'latest'] });
          if (r.error) heavyErrors++;
          heavyDone++;
        }
      });
      const lat: number[] = [];
      const cheap = (async () => {
        await new Promise((r) => setTimeout(r, 200));
        while (performance.now() < end) {
          const t0 = performance.now();
          await rpc(devgate.url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
          lat.push(performance.now() - t0);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      await Promise.all([...heavy, cheap]);
      lat.sort((a, b) => a - b);
      log(`${clients} client(s) sending gas-cap looping eth_calls for ${seconds} s: ${heavyDone} heavy calls answered (${heavyErrors} errors: out of gas or timeout, as geth); eth_blockNumber from another client: n=${lat.length}, p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms, max ${lat.at(-1)?.toFixed(1)} ms (target p99 < 50 ms)`);
    }
    log(`RSS of devgate: ${devgate.rssMb()} MB`);
  } finally {
    await devgate.stop();
  }
}

await main();
