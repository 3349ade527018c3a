/**
 * Where the test-suite bench's wall time goes, per JSON-RPC method: the suite (bench/suite.ts, in a fresh process as
 * bench/suiteBench.ts runs it) talks HTTP through a recording proxy in this process, which times each request from
 * its whole body in to the server's whole answer back (the server's latency as the client meets it, the proxy's own
 * hop left out) and sums it per method. anvil and devgate's CLI alternate, so the machine's load hits both.
 *   npx tsx bench/suiteLatency.ts [rounds=2] [tests=150]
 */
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { REPO_ROOT } from './seed.js';
import { anvilBinary, cpuMsOf, ensureBuilt, startAnvilDev, startDevgate, type Server } from './servers.js';

const rounds = Number(process.argv[2] ?? 2);
const tests = process.argv[3] ?? '150';
const CACHE = join(REPO_ROOT, '.devgate-cache', 'bench', 'suite-latency');

interface Tally {
  count: number;
  ms: number;
}

async function recordingProxy(target: string): Promise<{ url: string; tallies: Map<string, Tally>; close(): Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const { hostname, port } = new URL(target);
  const tallies = new Map<string, Tally>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let method = '?';
      try {
        const msg = JSON.parse(body.toString('utf8')) as { method?: string } | { method?: string }[];
        method = Array.isArray(msg) ? `batch(${msg.map((m) => m.method).join(',')})` : String(msg.method);
      } catch {}
      const t0 = performance.now();
      const up = request(
        { hostname, port, path: req.url, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const ms = performance.now() - t0;
            const t = tallies.get(method) ?? { count: 0, ms: 0 };
            t.count++;
            t.ms += ms;
            tallies.set(method, t);
            const out = Buffer.concat(parts);
            res.writeHead(answer.statusCode ?? 200, { 'content-type': 'application/json', 'content-length': out.length });
            res.end(out);
          });
        },
      );
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    tallies,
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function runChild(args: string[]): Promise<{ ms: number; cpuMs: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bench', 'suiteChild.ts'), ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!));
      } catch (err) {
        reject(new Error(`suite child: ${out}`, { cause: err }));
      }
    });
  });
}

ensureBuilt((line) => console.log(line));
const anvil = anvilBinary();
if (!anvil) throw new Error('anvil is missing');
const totals = new Map<string, Map<string, Tally>>();
const walls = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? ['anvil', 'devgate'] : ['devgate', 'anvil']) {
    const server: Server = name === 'anvil' ? await startAnvilDev(anvil) : await startDevgate({ network: 'dev', bare: true, cacheDir: CACHE });
    const proxy = await recordingProxy(server.url);
    try {
      const cpu0 = cpuMsOf(server.pid);
      const answer = await runChild(['--url', proxy.url, '--ws', server.wsUrl, '--tests', tests]);
      const cpu = (cpuMsOf(server.pid) ?? 0) - (cpu0 ?? 0);
      if (answer.error) throw new Error(`${name}: ${answer.error}`);
      const sum = [...proxy.tallies.values()].reduce((a, t) => a + t.ms, 0);
      console.log(
        `${name} round ${round + 1}: suite ${(answer.ms / 1000).toFixed(2)} s, client CPU ${(answer.cpuMs / 1000).toFixed(2)} s, server CPU ${(cpu / 1000).toFixed(2)} s, HTTP latency summed ${(sum / 1000).toFixed(2)} s`,
      );
      walls.set(name, [...(walls.get(name) ?? []), answer.ms]);
      const into = totals.get(name) ?? new Map<string, Tally>();
      for (const [m, t] of proxy.tallies) {
        const acc = into.get(m) ?? { count: 0, ms: 0 };
        acc.count += t.count;
        acc.ms += t.ms;
        into.set(m, acc);
      }
      totals.set(name, into);
    } finally {
      await proxy.close();
      await server.stop();
    }
  }
}
const a = totals.get('anvil')!;
const d = totals.get('devgate')!;
const methods = [...new Set([...a.keys(), ...d.keys()])].sort(
  (x, y) => (d.get(y)?.ms ?? 0) - (a.get(y)?.ms ?? 0) - ((d.get(x)?.ms ?? 0) - (a.get(x)?.ms ?? 0)),
);
console.log(`\nPer method, summed over ${rounds} round(s) each (ms; sorted by devgate - anvil):\n`);
console.log('| method | anvil n | anvil ms | each | devgate n | devgate ms | each | devgate - anvil |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const m of methods) {
  const x = a.get(m) ?? { count: 0, ms: 0 };
  const y = d.get(m) ?? { count: 0, ms: 0 };
  const each = (t: Tally) => (t.count ? (t.ms / t.count).toFixed(3) : '-');
  console.log(
    `| ${m.slice(0, 60)} | ${x.count} | ${x.ms.toFixed(0)} | ${each(x)} | ${y.count} | ${y.ms.toFixed(0)} | ${each(y)} | ${(y.ms - x.ms).toFixed(0)} |`,
  );
}
