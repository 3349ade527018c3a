/**
 * Fork figures (#29): devgate `--fork-url` against `anvil --fork-url` on the same upstream, a devgate on loopback
 * serving the bench chain (1,000 blocks x 10 transactions, the token and its 300 holders), reached through a counting
 * proxy. For each forker, started fresh with no disk cache at the upstream's head: the first eth_call of the token
 * (cold), the same call again (warm, median of 20), a send with automine on forked state (a dev account's token
 * transfer to a fresh address: the first, then a second to another fresh address), and how many upstream HTTP requests
 * and JSON-RPC calls each made. `npm run bench -- --only fork` (or `npx tsx bench/fork.ts`); results in
 * bench/results/fork.{json,md}.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { start } from '../src/index.js';
import { benchChain, DEFAULT_CHAIN_OPTIONS, REPO_ROOT } from './seed.js';
import { anvilBinary, anvilVersion, call, ensureBuilt, type Server, startAnvilDev, startDevgate } from './servers.js';

interface Counts {
  requests: number;
  calls: number;
  methods: Record<string, number>;
}

/** An HTTP proxy in front of the upstream that counts requests and JSON-RPC calls (batch entries one by one). */
async function countingProxy(target: string): Promise<{ url: string; take: () => Counts; close: () => Promise<void> }> {
  let counts: Counts = { requests: 0, calls: 0, methods: {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      counts.requests++;
      try {
        const parsed = JSON.parse(body.toString('utf8')) as { method?: string } | { method?: string }[];
        for (const c of Array.isArray(parsed) ? parsed : [parsed]) {
          counts.calls++;
          const m = c.method ?? '?';
          counts.methods[m] = (counts.methods[m] ?? 0) + 1;
        }
      } catch {
        // counted as a request only
      }
      void fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (r) => {
          const text = Buffer.from(await r.arrayBuffer());
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(text);
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    take: () => {
      const c = counts;
      counts = { requests: 0, calls: 0, methods: {} };
      return c;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

interface Step {
  ms: number;
  requests: number;
  calls: number;
  methods: Record<string, number>;
}

interface ForkerResult {
  server: string;
  version?: string;
  startup: Step;
  coldCall: Step;
  warmCall: Step;
  firstSend: Step;
  secondSend: Step;
}

const balanceOfData = (holder: string) => `0x70a08231${holder.slice(2).toLowerCase().padStart(64, '0')}`;
const transferData = (to: string, amount: bigint) => `0xa9059cbb${to.slice(2).padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(
  server: Server,
  proxy: Awaited<ReturnType<typeof countingProxy>>,
  token: string,
  holder: string,
  from: string,
): Promise<Omit<ForkerResult, 'server' | 'version' | 'startup'>> {
  const step = async (fn: () => Promise<unknown>): Promise<Step> => {
    proxy.take();
    const t = performance.now();
    await fn();
    const ms = performance.now() - t;
    return { ms, ...proxy.take() };
  };
  const ethCall = async () => {
    await call(server.url, 'eth_call', [{ to: token, data: balanceOfData(holder) }, 'latest']);
  };
  const send = (to: string) => async () => {
    const hash = await call(server.url, 'eth_sendTransaction', [{ from, to: token, data: transferData(to, 1n) }]);
    // Until its receipt is there (anvil answers the hash and mines right after): the time a client waits.
    let receipt = await call(server.url, 'eth_getTransactionReceipt', [hash]);
    for (let i = 0; receipt === null && i < 5000; i++) {
      await new Promise((r) => setTimeout(r, 1));
      receipt = await call(server.url, 'eth_getTransactionReceipt', [hash]);
    }
    if (receipt?.status !== '0x1') throw new Error(`${server.name}: the send was not mined with automine (${JSON.stringify(receipt)})`);
  };
  const coldCall = await step(ethCall);
  const warm: Step[] = [];
  for (let i = 0; i < 20; i++) warm.push(await step(ethCall));
  const warmCall = {
    ms: median(warm.map((s) => s.ms)),
    requests: warm.reduce((a, s) => a + s.requests, 0),
    calls: warm.reduce((a, s) => a + s.calls, 0),
    methods: {},
  };
  const firstSend = await step(send('0x00000000000000000000000000000000000f0001'));
  const secondSend = await step(send('0x00000000000000000000000000000000000f0002'));
  return { coldCall, warmCall, firstSend, secondSend };
}

export async function forkBench(log: (line: string) => void = console.log): Promise<{ json: unknown; md: string }> {
  const load = [loadavg()];
  ensureBuilt(log);
  const chain = await benchChain(DEFAULT_CHAIN_OPTIONS, log);
  log('fork: starting the upstream (the bench chain, in process)');
  const up = await start({ port: 0, chains: [chain.seedPath] });
  const upUrl = up.url(up.networks[0]!.name);
  const proxy = await countingProxy(upUrl);
  const head = chain.meta.head;
  const token = chain.meta.token;
  const holder = chain.meta.holders[0]!;
  const from = chain.meta.senders[0]!;
  const results: ForkerResult[] = [];
  const forkArgs = ['--fork-url', proxy.url, '--fork-block-number', String(head)];
  try {
    proxy.take();
    const t = performance.now();
    // Served beside the fork: only the small test seed, not the shipped chains. With --no-cache (for a cold fork) the
    // shipped chains are built afresh at every start: that was ~95% of the ~10 s start (in process at load 17: fork
    // with the shipped chains 21.7 s wall / 5.2 s CPU, fork beside one small chain 1.0 s / 0.25 s); anvil serves the fork only.
    const devgate = await startDevgate({ network: 'dev', bare: true, chains: ['test/fixtures/eth/small.json'], extraArgs: [...forkArgs, '--no-cache'] });
    const startup = { ms: performance.now() - t, ...proxy.take() };
    try {
      results.push({ server: 'devgate', startup, ...(await measure(devgate, proxy, token, holder, from)) });
    } finally {
      await devgate.stop();
    }
    const binary = anvilBinary();
    if (binary === undefined) log('fork: no anvil binary (npm i -D @foundry-rs/anvil): devgate only');
    else {
      proxy.take();
      const t2 = performance.now();
      const anvil = await startAnvilDev(binary, [...forkArgs, '--no-storage-caching']);
      const aStartup = { ms: performance.now() - t2, ...proxy.take() };
      try {
        results.push({ server: 'anvil', version: await anvilVersion(binary), startup: aStartup, ...(await measure(anvil, proxy, token, holder, from)) });
      } finally {
        await anvil.stop();
      }
    }
  } finally {
    await proxy.close();
    await up.stop();
  }
  load.push(loadavg());
  const json = { date: new Date().toISOString(), upstream: { blocks: head, chainId: DEFAULT_CHAIN_OPTIONS.chainId }, loadAverage: load, results };
  return { json, md: forkMarkdown(json) };
}

function forkMarkdown(r: { date: string; upstream: { blocks: number }; loadAverage: number[][]; results: ForkerResult[] }): string {
  const row = (name: string, pick: (x: ForkerResult) => Step) =>
    `| ${name} | ${r.results.map((x) => `${pick(x).ms.toFixed(1)} ms, ${pick(x).requests} req / ${pick(x).calls} calls`).join(' | ')} |`;
  const lines = [
    '# Fork figures',
    '',
    `${r.date}. Upstream: devgate serving the bench chain (${r.upstream.blocks} blocks), through a counting proxy on loopback;`,
    `each forker started fresh at the upstream's head with no disk cache. Load average (1, 5, 15 min) before: ${r.loadAverage[0]!.map((x) => x.toFixed(2)).join(', ')}; after: ${r.loadAverage[1]!.map((x) => x.toFixed(2)).join(', ')}.`,
    'Each cell: wall time as the client sees it, then upstream HTTP requests / JSON-RPC calls (a batch counts one request).',
    '',
    `| Step | ${r.results.map((x) => (x.version ? `${x.server} ${x.version}` : x.server)).join(' | ')} |`,
    `| --- | ${r.results.map(() => '---').join(' | ')} |`,
    row('start (to first answer)', (x) => x.startup),
    row('eth_call balanceOf, cold', (x) => x.coldCall),
    row('eth_call balanceOf, warm (median of 20; requests: all 20)', (x) => x.warmCall),
    row('send + automine, first (token transfer to a fresh address)', (x) => x.firstSend),
    row('send + automine, second (another fresh address)', (x) => x.secondSend),
    '',
    'Upstream calls by method:',
    '',
    ...r.results.flatMap((x) => [
      `- ${x.server}: start ${JSON.stringify(x.startup.methods)}; cold call ${JSON.stringify(x.coldCall.methods)}; first send ${JSON.stringify(x.firstSend.methods)}; second send ${JSON.stringify(x.secondSend.methods)}`,
    ]),
    '',
  ];
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { json, md } = await forkBench();
  writeFileSync(join(REPO_ROOT, 'bench', 'results', 'fork.json'), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(REPO_ROOT, 'bench', 'results', 'fork.md'), md);
  console.log(md);
}
