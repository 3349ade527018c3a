/**
 * CPU per request of the kinds a test suite's writes and reads ask (issue 26), in process through gw.provider('dev'),
 * A/B between source trees in one process: `npx tsx bench/fillCpu.ts --root /old/tree --root . [--count 60] [--rounds 4]`.
 * Each tree's gateway is started from its own sources (and chain cache); the kinds run in chunks of `count`, the trees
 * alternating chunk by chunk so a change in the machine's load hits both. Kinds: eth_fillTransaction of an ERC-20
 * transfer (viem's write), eth_estimateGas of a plain transfer and of an ERC-20 transfer, eth_call of balanceOf.
 * Prints CPU ms per request per tree and round (user + system of this process), and a digest of every answer per
 * tree (the same digest: the same answers). `--profile /tmp/x` writes `/tmp/x.<tree>.cpuprofile` over the measured chunks.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeFunctionData, type Hex, parseAbi } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { CACHE_DIR, MNEMONIC, REPO_ROOT } from './seed.js';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    count: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '4' },
    kinds: { type: 'string' },
    /** Requests of each kind per tree before measuring (the JIT settles over the first few hundred). */
    warmup: { type: 'string', default: '300' },
    profile: { type: 'string' },
  },
});
const roots = (args.root ?? [resolve(import.meta.dirname, '..')]).map((r) => resolve(r));
const count = Number(args.count);
const TOKEN_BYTECODE = (JSON.parse(readFileSync(join(REPO_ROOT, 'chains', 'contracts', 'Token.json'), 'utf8')) as { bytecode: Hex }).bytecode;
const abi = parseAbi(['function transfer(address to, uint256 value) returns (bool)', 'function balanceOf(address) view returns (uint256)']);
const owner = mnemonicToAccount(MNEMONIC, { addressIndex: 0 }).address;
const other = mnemonicToAccount(MNEMONIC, { addressIndex: 1 }).address;
const holder = (i: number): Hex => `0x${(0xa11ce00000n + BigInt(i)).toString(16).padStart(40, '0')}`;
// Made ahead (viem's encoding would count as the process's CPU in the measured chunks).
const transfers = Array.from({ length: 20_000 }, (_, i) => encodeFunctionData({ abi, functionName: 'transfer', args: [holder(i), 1n] }));
const transfer = (i: number) => transfers[i % transfers.length]!;
const balances = [owner, other].map((a) => encodeFunctionData({ abi, functionName: 'balanceOf', args: [a] }));
const holders = transfers.map((_, i) => holder(i));

type Rpc = (method: string, params?: unknown[]) => Promise<any>;
interface Tree {
  root: string;
  rpc: Rpc;
  token: Hex;
  stop(): Promise<void>;
  digest: ReturnType<typeof createHash>;
  cpu: Map<string, number[]>;
}

async function load(root: string): Promise<Tree> {
  const { start } = (await import(pathToFileURL(join(root, 'src', 'index.ts')).href)) as typeof import('../src/index.js');
  const tag = createHash('sha256').update(root).digest('hex').slice(0, 8);
  const gw = await start({ port: 0, cache: { dir: join(CACHE_DIR, `fillcpu-cache-${tag}`) } });
  const p = gw.provider('dev');
  const rpc: Rpc = (method, params = []) => p.request({ method, params }) as Promise<any>;
  const deploy = await rpc('eth_sendTransaction', [{ from: owner, data: TOKEN_BYTECODE, gas: '0x300000' }]);
  const token = (await rpc('eth_getTransactionReceipt', [deploy])).contractAddress as Hex;
  return { root, rpc, token, stop: () => gw.stop(), digest: createHash('sha256'), cpu: new Map() };
}

const KINDS: Record<string, (t: Tree, i: number) => Promise<unknown>> = {
  fill: (t, i) => t.rpc('eth_fillTransaction', [{ from: owner, to: t.token, data: transfer(i) }]),
  estimateTransfer: (t, i) => t.rpc('eth_estimateGas', [{ from: owner, to: holders[i % holders.length], value: '0x1' }]),
  estimateErc20: (t, i) => t.rpc('eth_estimateGas', [{ from: owner, to: t.token, data: transfer(i) }]),
  call: (t, i) => t.rpc('eth_call', [{ to: t.token, data: balances[i % 2] }, 'latest']),
};
const kinds = args.kinds?.split(',') ?? Object.keys(KINDS);

const trees: Tree[] = [];
for (const root of roots) trees.push(await load(root));
for (const t of trees) for (const k of kinds) for (let i = 0; i < Number(args.warmup); i++) await KINDS[k]!(t, i);

const sessions = new Map<Tree, Session>();
if (args.profile) {
  // One profiler per process: profile only the last tree (run with the roots swapped for the other).
  const s = new Session();
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 100 });
  sessions.set(trees.at(-1)!, s);
}
const load0 = loadavg();
for (let r = 0; r < Number(args.rounds); r++) {
  for (const k of kinds) {
    for (const t of r % 2 === 0 ? trees : [...trees].reverse()) {
      const s = sessions.get(t);
      if (s) await s.post('Profiler.start');
      const answers: unknown[] = [];
      const c0 = process.cpuUsage();
      for (let i = 0; i < count; i++) answers.push(await KINDS[k]!(t, r * count + i));
      const d = process.cpuUsage(c0);
      for (const a of answers) t.digest.update(JSON.stringify(a));
      if (s) await s.post('Profiler.stop').then(({ profile }) => writeFileSync(`${args.profile}.${k}.${r}.cpuprofile`, JSON.stringify(profile)));
      const list = t.cpu.get(k) ?? [];
      list.push((d.user + d.system) / 1000 / count);
      t.cpu.set(k, list);
    }
  }
}
console.log(
  `load average ${load0.map((x) => x.toFixed(1)).join(' ')} -> ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
for (const k of kinds)
  for (const t of trees)
    console.log(
      `${k.padEnd(18)} ${t.root.padEnd(20)} ${t.cpu
        .get(k)!
        .map((x) => x.toFixed(3))
        .join(' / ')} ms CPU per request`,
    );
for (const t of trees) console.log(`answers digest ${t.root}: ${t.digest.digest('hex').slice(0, 16)}`);
for (const t of trees) await t.stop();
process.exit(0);
