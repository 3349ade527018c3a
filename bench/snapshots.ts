/**
 * `npx tsx bench/snapshots.ts`: evm_snapshot + evm_revert on the bench chain (1,000 blocks x 10 transactions) after
 * 100 mined blocks, timed in the server (in-process, through the JSON-RPC dispatch of a started gateway) and over
 * HTTP; issue 14's target: well under 1 ms of server time, independent of chain length.
 */
import { loadavg } from 'node:os';
import { start } from '../src/index.js';
import { benchChain } from './seed.js';

const rounds = Number(process.argv[2] ?? 200);
const { seedPath } = await benchChain();
const gw = await start({ port: 0, chains: [seedPath] });
const name = gw.networks[0]!.name;
const url = gw.url(name);
const rpc = async (method: string, params: unknown[] = []) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
};
await rpc('anvil_mine', ['0x64']);
const eth = gw.eth(name);
const server: number[] = [];
const http: number[] = [];
for (let i = 0; i < rounds; i++) {
  await rpc('anvil_mine', ['0x1']);
  let t = performance.now();
  const id = await eth.snapshot();
  await eth.revert(id);
  server.push(performance.now() - t);
  await rpc('anvil_mine', ['0x1']);
  t = performance.now();
  const hid = await rpc('evm_snapshot');
  await rpc('evm_revert', [hid]);
  http.push(performance.now() - t);
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
console.log(`chain ${name}: head ${await rpc('eth_blockNumber')}; load ${loadavg()[0]!.toFixed(2)}`);
console.log(`snapshot + revert, in the server (handle): p50 ${pct(server, 50).toFixed(3)} ms, p99 ${pct(server, 99).toFixed(3)} ms`);
console.log(`evm_snapshot + evm_revert over HTTP (two round trips): p50 ${pct(http, 50).toFixed(3)} ms, p99 ${pct(http, 99).toFixed(3)} ms`);
await gw.stop();
