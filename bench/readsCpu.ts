/**
 * Server CPU per cheap read at one request in flight (issue 26: cheap reads as fast as anvil's), in interleaved A/B:
 * devgate's CLI of one or more trees (`--root`, each a checkout with a built `dist/`) and anvil, each on its own
 * port, driven over one keep-alive connection by a raw-socket client (so the client's own CPU stays small and alike
 * for all). Per kind and server: server CPU per request (from /proc/<pid>/stat) and the median latency.
 *
 *   npx tsx bench/readsCpu.ts [--root A --root B] [--count 2000] [--rounds 3] [--no-anvil] [--prof DIR] [--after-mine]
 *
 * `--prof DIR`: the devgate servers run under `node --cpu-prof --cpu-prof-dir DIR` (one profile per server, written
 * when it stops; read it with bench/profile.ts's summarizeProfile).
 * `--after-mine`: an untimed evm_mine before each timed request; the server CPU is of the pair (evm_mine and the read),
 * so what a block leaves for after its answer (GC helper threads, deferred work) counts, as it does in the per-kind
 * table's reads "right after a block".
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { encodeFunctionData, parseAbi } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { prepare, type Prepared } from './kinds.js';
import { REPO_ROOT, MNEMONIC } from './seed.js';
import { anvilBinary, cpuMsOf, startAnvilDev, waitForPort } from './servers.js';
import { median, SUITE_CACHE } from './suiteBench.js';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    /** Node flags of each root's server, by position (`--flags '--max-semi-space-size=2'`; `-` for none). */
    flags: { type: 'string', multiple: true },
    count: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    'no-anvil': { type: 'boolean', default: false },
    prof: { type: 'string' },
    kinds: { type: 'string' },
    /** raw (a raw socket, default) or fetch (Node's fetch, as bench/kinds.ts asks). */
    client: { type: 'string', default: 'raw' },
    /**
     * Each timed request right after an untimed evm_mine (as the per-kind table's "right after a block"): the server
     * CPU is then of the pair, so what a block leaves to run after its answer (GC, deferred work) is counted.
     */
    'after-mine': { type: 'boolean', default: false },
  },
});

const abi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function transfer(address to, uint256 value) returns (bool)']);
const other = mnemonicToAccount(MNEMONIC, { addressIndex: 1 }).address;
const owner = mnemonicToAccount(MNEMONIC, { addressIndex: 0 }).address;
const holder = (i: number) => `0x${(0xa11ce00000n + BigInt(i)).toString(16).padStart(40, '0')}` as const;

const KINDS: Record<string, (p: Prepared, i: number) => { method: string; params: unknown[] }> = {
  blockNumber: () => ({ method: 'eth_blockNumber', params: [] }),
  getBalance: () => ({ method: 'eth_getBalance', params: [other, 'latest'] }),
  nonceLatest: () => ({ method: 'eth_getTransactionCount', params: [owner, 'latest'] }),
  callBalanceOf: (p, i) => ({
    method: 'eth_call',
    params: [{ to: p.token, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [holder(i % 50)] }) }, 'latest'],
  }),
  receipt: (p, i) => ({ method: 'eth_getTransactionReceipt', params: [p.sent[i % p.sent.length]] }),
  // viem's first request of a write (an ERC-20 transfer): nonce, fees and the estimate's run, the unsigned encoding.
  fill: (p, i) => ({
    method: 'eth_fillTransaction',
    params: [{ from: owner, to: p.token, data: encodeFunctionData({ abi, functionName: 'transfer', args: [holder(i % 50), 1n] }) }],
  }),
};

/** One keep-alive connection, one request at a time, with the headers Node's fetch sends. */
class RawClient {
  private socket!: Socket;
  private buf: Buffer = Buffer.alloc(0);
  private waiter: ((body: string) => void) | undefined;
  constructor(private readonly port: number) {}

  async open(): Promise<void> {
    this.socket = connect(this.port, '127.0.0.1');
    this.socket.setNoDelay(true);
    await new Promise((r) => this.socket.once('connect', r));
    this.socket.on('data', (c: Buffer) => {
      this.buf = this.buf.length === 0 ? c : Buffer.concat([this.buf, c]);
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const m = /content-length: (\d+)/i.exec(this.buf.toString('latin1', 0, end));
      const length = Number(m![1]);
      if (this.buf.length < end + 4 + length) return;
      const body = this.buf.toString('utf8', end + 4, end + 4 + length);
      this.buf = this.buf.subarray(end + 4 + length);
      const w = this.waiter!;
      this.waiter = undefined;
      w(body);
    });
  }

  request(body: string): Promise<string> {
    if (args.client === 'fetch')
      return fetch(`http://127.0.0.1:${this.port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.text());
    const head =
      `POST / HTTP/1.1\r\nhost: 127.0.0.1:${this.port}\r\nconnection: keep-alive\r\ncontent-type: application/json\r\naccept: */*\r\n` +
      `accept-language: *\r\nsec-fetch-mode: cors\r\nuser-agent: node\r\naccept-encoding: gzip, deflate\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    return new Promise((r) => {
      this.waiter = r;
      this.socket.write(head + body);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

interface Srv {
  name: string;
  pid: number;
  port: number;
  p: Prepared;
  client: RawClient;
  stop: () => Promise<void>;
}

async function startCli(root: string, prof: string | undefined, flags: string[]): Promise<{ pid: number; port: number; stop: () => Promise<void> }> {
  const argv = [
    ...flags,
    ...(prof ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', prof] : []),
    join(root, 'bin', 'devgate.js'),
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--cache-dir',
    SUITE_CACHE,
  ];
  const proc = spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await waitForPort(proc, 'devgate', 300_000);
  proc.stdout!.resume();
  return {
    pid: proc.pid!,
    port,
    stop: () =>
      new Promise<void>((r) => {
        proc.once('exit', () => r());
        proc.kill('SIGINT');
      }),
  };
}

const roots = (args.root ?? [REPO_ROOT]).map((r) => resolve(r));
const flagsOf = (i: number) => (args.flags?.[i] ?? '-').split(' ').filter((f) => f !== '-' && f !== '');
const servers: Srv[] = [];
const loadStart = loadavg();
for (const [i, root] of roots.entries()) {
  const s = await startCli(root, args.prof, flagsOf(i));
  const p = await prepare(`http://127.0.0.1:${s.port}/`, 50);
  servers.push({ name: roots.length > 1 ? `devgate[${i}] ${flagsOf(i).join(' ')} ${root}` : 'devgate', ...s, p, client: new RawClient(s.port) });
}
const binary = args['no-anvil'] ? undefined : anvilBinary();
if (binary) {
  const a = await startAnvilDev(binary);
  const port = Number(new URL(a.url).port);
  const p = await prepare(a.url, 50);
  servers.push({ name: 'anvil', pid: a.pid, port, p, client: new RawClient(port), stop: a.stop });
}
// Receipts of the transfers prepare() signed: send them first (each mined by automine).
for (const s of servers) {
  await s.client.open();
  for (const raw of s.p.raws) {
    const body = JSON.parse(await s.client.request(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] })));
    s.p.sent.push(body.result);
  }
}

const count = Number(args.count);
const kinds = args.kinds ? args.kinds.split(',') : Object.keys(KINDS);
const CHUNK = 200;
for (const kind of kinds) {
  const make = KINDS[kind]!;
  const bodies = servers.map((s) => Array.from({ length: count }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i + 1, ...make(s.p, i) })));
  const results = servers.map(() => ({ client: 0, cpu: [] as number[], lat: [] as number[], mineLat: [] as number[], answers: new Map<string, number>() }));
  const mineBody = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'evm_mine', params: [] });
  // warm-up
  for (const [si, s] of servers.entries()) for (let i = 0; i < 200; i++) await s.client.request(bodies[si]![i % count]!);
  for (let r = 0; r < Number(args.rounds); r++) {
    for (let from = 0; from < count; from += CHUNK) {
      for (const [si, s] of servers.entries()) {
        const res = results[si]!;
        const cpu0 = cpuMsOf(s.pid)!;
        const own0 = process.cpuUsage();
        for (let i = from; i < Math.min(from + CHUNK, count); i++) {
          if (args['after-mine']) {
            const m0 = performance.now();
            if (!(await s.client.request(mineBody)).includes('"result"')) throw new Error(`${s.name}: evm_mine failed`);
            res.mineLat.push(performance.now() - m0);
          }
          const t0 = performance.now();
          const answer = await s.client.request(bodies[si]![i]!);
          res.lat.push(performance.now() - t0);
          if (!answer.includes('"result"')) throw new Error(`${s.name} ${kind}: ${answer.slice(0, 200)}`);
        }
        res.cpu.push(cpuMsOf(s.pid)! - cpu0);
        const own = process.cpuUsage(own0);
        res.client += (own.user + own.system) / 1000;
      }
    }
  }
  for (const [si, s] of servers.entries()) {
    const res = results[si]!;
    const total = res.cpu.reduce((a, b) => a + b, 0);
    const n = res.lat.length;
    const mine = res.mineLat.length === 0 ? '' : `  (after evm_mine p50 ${median(res.mineLat.sort((a, b) => a - b))!.toFixed(3)} ms; CPU is of the pair)`;
    console.log(
      `${kind.padEnd(14)} ${s.name.slice(0, 60).padEnd(30)} server CPU ${((total * 1000) / n).toFixed(1).padStart(6)} us/req  client CPU ${((res.client * 1000) / n).toFixed(1).padStart(6)} us/req  p50 ${median(res.lat.sort((a, b) => a - b))!.toFixed(3)} ms${mine}`,
    );
  }
}
for (const s of servers) s.client.close();
await Promise.all(servers.map((s) => s.stop()));
console.log(
  `load average ${loadStart.map((x) => x.toFixed(2)).join(' ')} -> ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
