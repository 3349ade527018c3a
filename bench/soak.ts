/**
 * `npm run soak`: the gateway under hostile and heavy load, measured from outside (devgate runs as the `devgate`
 * command in a child process; RSS read from /proc). Separate from `npm run bench` (speed against anvil).
 *
 *   npm run soak                                  # full: 20 s heavy, 60 s mixed, 30 s after
 *   npm run soak -- --heavy 5 --mixed 10 --after 5 --drop-wait 12   # a short run
 *
 * (a) eth_blockNumber latency from a separate client while 8 clients send gas-cap looping eth_calls
 *     (`0x5b600056` + distinct trailing bytes, no `to`, at latest);
 * (b) 64 HTTP keep-alive + 256 WebSocket connections of mixed reads: errors, req/s, p99, RSS at warm-up / end / after;
 * (c) 200 half-open HTTP connections and 500 WebSocket connections dropped mid-message: a probe's p99 meanwhile,
 *     open sockets back to baseline, RSS back within 10%.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { ensureBuilt } from './servers.js';

const { values: args } = parseArgs({
  options: {
    heavy: { type: 'string', default: '20' },
    mixed: { type: 'string', default: '60' },
    after: { type: 'string', default: '30' },
    'http-conns': { type: 'string', default: '64' },
    'ws-conns': { type: 'string', default: '256' },
    'half-open': { type: 'string', default: '200' },
    'ws-drops': { type: 'string', default: '500' },
    /** The gateway's headers timeout (ms): how long half-open connections are kept before 408. */
    'headers-timeout': { type: 'string', default: '10000' },
    /** Seconds to wait for the dropped and half-open connections to be released. */
    'drop-wait': { type: 'string', default: '15' },
    only: { type: 'string' },
  },
});
const num = (k: keyof typeof args) => Number(args[k]);
const only = new Set((args.only ?? 'a,b,c').split(','));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The admin token the child is given (DEVGATE_ADMIN_TOKEN), for devgate_getConnections. */
const ADMIN_TOKEN = randomBytes(32).toString('hex');

/** Starts the devgate command (shipped chains) and resolves with its port. */
function startDevgate(): Promise<{ child: ChildProcess; port: number }> {
  ensureBuilt((line) => console.log(line));
  const child = spawn(process.execPath, ['bin/devgate.js', '--port', '0', '--headers-timeout', args['headers-timeout']!], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DEVGATE_ADMIN_TOKEN: ADMIN_TOKEN },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Listening on .*:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`devgate exited with ${code}`)));
  });
}

function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

let port = 0;
const path = (net: string, key: string) => `/${net}/v3/${key}`;

/** One JSON-RPC POST; resolves with the parsed answer (rejects on a transport error). */
function post(p: string, body: unknown, agent: Agent | false, headers: Record<string, string> = {}): Promise<any> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: p,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(parts).toString()));
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const rpc = (method: string, params: unknown[] = [], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params });

async function connections(): Promise<{ sockets: number; websockets: number }> {
  const r = await post('/admin', rpc('devgate_getConnections'), false, { authorization: `Bearer ${ADMIN_TOKEN}` });
  return r.result;
}

/** Sends eth_blockNumber one after another until `stop`; latencies in ms. */
async function probe(stop: () => boolean, key = 'probe'): Promise<{ lat: number[]; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const lat: number[] = [];
  let errors = 0;
  while (!stop()) {
    const t = performance.now();
    try {
      const r = await post(path('mainnet', key), rpc('eth_blockNumber'), agent);
      if (typeof r.result !== 'string') errors++;
    } catch {
      errors++;
    }
    lat.push(performance.now() - t);
    await sleep(10);
  }
  agent.destroy();
  return { lat, errors };
}

async function heavy(pid: number): Promise<void> {
  const seconds = num('heavy');
  const until = Date.now() + seconds * 1000;
  const stop = () => Date.now() >= until;
  let n = 0;
  let answered = 0;
  const worker = async (w: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (!stop()) {
      const data = `0x5b600056${(w * 1_000_000 + n++).toString(16).padStart(12, '0')}`;
      await post(path('mainnet', `heavy${w}`), rpc('eth_call', [{ data }, 'latest']), agent).catch(() => {});
      answered++;
    }
    agent.destroy();
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  await sleep(200);
  // Open loop: an eth_blockNumber every 100 ms whatever the answers before it, so waits show as they are.
  const agent = new Agent({ keepAlive: true });
  const sent: Promise<number>[] = [];
  let errors = 0;
  while (!stop()) {
    const t = performance.now();
    sent.push(
      post(path('mainnet', 'probe'), rpc('eth_blockNumber'), agent)
        .then(
          (r) => (typeof r.result === 'string' ? 0 : errors++),
          () => errors++,
        )
        .then(() => performance.now() - t),
    );
    await sleep(100);
  }
  const p = { lat: await Promise.all(sent), errors };
  agent.destroy();
  await Promise.all(workers);
  console.log(`(a) heavy: ${seconds} s, 8 clients of gas-cap looping eth_calls (${answered} answered)`);
  console.log(
    `    eth_blockNumber meanwhile: ${p.lat.length} answers, p50 ${ms(pct(p.lat, 50))}, p99 ${ms(pct(p.lat, 99))}, max ${ms(Math.max(...p.lat))}, errors ${p.errors}; RSS ${mb(rss(pid))}; load ${load()}`,
  );
}

const ADDRS = ['0x15d34aaf54267db7d7c367839aaf71a00a2c6a65', '0xd3656c75f098e2396a95a501d9f8e4755dcc01ae', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'];
function mixedCall(i: number): { jsonrpc: string; id: number; method: string; params: unknown[] } {
  switch (i % 5) {
    case 0:
      return rpc('eth_blockNumber', [], i) as never;
    case 1:
      return rpc('eth_getBlockByNumber', ['latest', false], i) as never;
    case 2:
      return rpc('eth_getBalance', [ADDRS[i % 3], 'latest'], i) as never;
    case 3:
      return rpc('eth_getTransactionCount', [ADDRS[i % 3], 'latest'], i) as never;
    default:
      return rpc('eth_chainId', [], i) as never;
  }
}

function openWs(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function mixed(pid: number): Promise<void> {
  const seconds = num('mixed');
  const warm = Math.round(Math.min(5, seconds / 6) * 10) / 10;
  let stopAt = Infinity;
  const stop = () => Date.now() >= stopAt;
  const lat: number[] = [];
  let errors = 0;
  let done = 0;
  let counting = false;
  const record = (t: number, ok: boolean) => {
    if (!counting) return;
    lat.push(performance.now() - t);
    done++;
    if (!ok) errors++;
  };
  const httpConn = async (c: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = c; !stop(); i++) {
      const t = performance.now();
      const ok = await post(path('mainnet', `mix${c % 16}`), mixedCall(i), agent).then(
        (r) => r.result !== undefined,
        () => false,
      );
      record(t, ok);
    }
    agent.destroy();
  };
  const wsConn = async (c: number) => {
    const ws = await openWs(`ws://127.0.0.1:${port}/mainnet/ws/v3/mixws${c % 16}`);
    for (let i = c; !stop(); i++) {
      const t = performance.now();
      const ok = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 10_000);
        ws.once('message', (d) => {
          clearTimeout(timer);
          resolve(JSON.parse(d.toString()).result !== undefined);
        });
        ws.send(JSON.stringify(mixedCall(i)));
      });
      record(t, ok);
    }
    ws.close();
  };
  stopAt = Date.now() + (seconds + warm) * 1000;
  const all = [...Array.from({ length: num('http-conns') }, (_, c) => httpConn(c)), ...Array.from({ length: num('ws-conns') }, (_, c) => wsConn(c))];
  await sleep(warm * 1000);
  counting = true;
  const rssWarm = rss(pid);
  const t0 = performance.now();
  // RSS every 10 s: a leak grows steadily; a heap settling to its working size levels off.
  const series: number[] = [];
  const sampler = setInterval(() => series.push(rss(pid)), 10_000);
  await Promise.all(all);
  clearInterval(sampler);
  const secs = (performance.now() - t0) / 1000;
  const rssEnd = rss(pid);
  console.log(`(b) mixed: ${num('http-conns')} HTTP keep-alive + ${num('ws-conns')} WebSocket connections, ${seconds} s after ${warm} s warm-up`);
  console.log(`    ${done} requests, ${(done / secs).toFixed(0)} req/s, errors ${errors}, p50 ${ms(pct(lat, 50))}, p99 ${ms(pct(lat, 99))}; load ${load()}`);
  console.log(
    `    RSS warm-up ${mb(rssWarm)}, end ${mb(rssEnd)} (${(((rssEnd - rssWarm) / rssWarm) * 100).toFixed(1)}%); every 10 s: ${series.map(mb).join(', ')}`,
  );
  await sleep(num('after') * 1000);
  console.log(`    RSS ${num('after')} s after: ${mb(rss(pid))}`);
}

/** A masked WebSocket text frame header announcing `length` bytes, with only part of them. */
function partialFrame(length: number, sent: number): Buffer {
  const head = Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff, 1, 2, 3, 4]);
  return Buffer.concat([head, Buffer.alloc(sent, 0x20)]);
}

async function drops(pid: number): Promise<void> {
  let probing = true;
  const probed = probe(() => !probing, 'probe2');
  await sleep(300);
  const base = await connections();
  const rssBase = rss(pid);
  const halfOpen: Socket[] = [];
  const closedByPeer = new Set<Socket>();
  for (let i = 0; i < num('half-open'); i++) {
    const s = connect(port, '127.0.0.1');
    s.on('error', () => {});
    s.on('end', () => closedByPeer.add(s)).resume();
    s.write(`POST ${path('mainnet', 'half')} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`);
    halfOpen.push(s);
  }
  let dropped = 0;
  for (let i = 0; i < num('ws-drops'); i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, num('ws-drops') - i) }, (_, j) =>
        openWs(`ws://127.0.0.1:${port}/mainnet/ws/v3/drop${(i + j) % 32}`).catch(() => undefined),
      ),
    );
    for (const ws of batch) {
      if (ws === undefined) continue;
      ws.send(JSON.stringify(rpc('eth_getBlockByNumber', ['latest', true])));
      const raw = (ws as unknown as { _socket: Socket })._socket;
      raw.write(partialFrame(4000, 100));
      raw.destroy();
      dropped++;
    }
  }
  const peak = await connections();
  const deadline = Date.now() + num('drop-wait') * 1000;
  let now = peak;
  while (Date.now() < deadline) {
    now = await connections();
    if (now.sockets <= base.sockets && now.websockets <= base.websockets) break;
    await sleep(250);
  }
  probing = false;
  const p = await probed;
  const closedByServer = closedByPeer.size;
  for (const s of halfOpen) s.destroy();
  await sleep(1500); // the idle GC (CLI) runs after a second or two of idle
  const rssAfter = rss(pid);
  console.log(`(c) drops: ${num('half-open')} half-open HTTP (headers timeout ${args['headers-timeout']} ms), ${dropped} WebSockets dropped mid-message`);
  console.log(`    probe meanwhile: ${p.lat.length} answers, p50 ${ms(pct(p.lat, 50))}, p99 ${ms(pct(p.lat, 99))}, errors ${p.errors}`);
  console.log(
    `    open sockets: baseline ${base.sockets} (ws ${base.websockets}), peak ${peak.sockets} (ws ${peak.websockets}), after ${now.sockets} (ws ${now.websockets}); half-open closed by the server: ${closedByServer}/${halfOpen.length}`,
  );
  console.log(`    RSS before ${mb(rssBase)}, after ${mb(rssAfter)} (${(((rssAfter - rssBase) / rssBase) * 100).toFixed(1)}%); load ${load()}`);
}

async function main(): Promise<void> {
  console.log(`soak: load ${load()}`);
  const { child, port: p } = await startDevgate();
  port = p;
  const pid = child.pid!;
  console.log(`devgate pid ${pid} on port ${port}, RSS ${mb(rss(pid))}`);
  try {
    if (only.has('a')) await heavy(pid);
    if (only.has('b')) await mixed(pid);
    if (only.has('c')) await drops(pid);
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
