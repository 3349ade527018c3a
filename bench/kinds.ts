/**
 * The per-kind latency table (issue 26): one request in flight over HTTP (keep-alive), devgate's CLI at its bare
 * address against anvil with no flags, each kind's samples interleaved between the two in chunks of 10 so a change in
 * the machine's load hits both. Every answer is checked (a nonce that does not count, a send whose hash is not the
 * transaction's, an estimate out of range, a mine that did not move the head): a wrong answer fails the kind.
 * Reports the median and p99 per kind, devgate's median latency over anvil's, and the issue's target for it.
 */
import { loadavg } from 'node:os';
import { createPublicClient, createWalletClient, encodeFunctionData, type Hex, http, keccak256, parseAbi } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MNEMONIC, REPO_ROOT } from './seed.js';
import { anvilBinary, ensureBuilt, startAnvilDev, startDevgate, type Server } from './servers.js';
import { median, SUITE_CACHE } from './suiteBench.js';
import { percentile } from './writes.js';

const TOKEN_BYTECODE = (JSON.parse(readFileSync(join(REPO_ROOT, 'chains', 'contracts', 'Token.json'), 'utf8')) as { bytecode: Hex }).bytecode;
const abi = parseAbi(['constructor()', 'function balanceOf(address) view returns (uint256)', 'function transfer(address to, uint256 value) returns (bool)']);
const owner = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
const other = mnemonicToAccount(MNEMONIC, { addressIndex: 1 }).address;
const FEES = { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
const holder = (i: number): Hex => `0x${(0xa11ce00000n + BigInt(i)).toString(16).padStart(40, '0')}`;

/** What one server holds for the kinds: the token, transactions signed ahead, a hash to read the receipt of. */
export interface Prepared {
  url: string;
  token: Hex;
  raws: Hex[];
  sent: Hex[];
}

interface Kind {
  id: string;
  label: string;
  /** Issue 26's target: devgate's median latency at most this times anvil's. */
  target: number;
  samples: number;
  /** Untimed work before each sample (e.g. mine a block so the sample is "right after a block"). */
  before?: (p: Prepared) => Promise<void>;
  /** The timed request; returns a check of the answer (undefined when right, else what is wrong). */
  method: (p: Prepared, i: number) => { method: string; params: unknown[]; check: (result: any) => string | undefined };
}

let id = 0;
async function rpc(url: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const answer = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

const isHex = (x: unknown): x is string => typeof x === 'string' && /^0x[0-9a-f]*$/i.test(x);
const mine = (p: Prepared) => rpc(p.url, 'evm_mine', []).then(() => undefined);

/** Sends the next few signed transfers (each mined by automine) when none has been sent yet, for the receipt kind. */
async function sentSome(p: Prepared): Promise<void> {
  while (p.sent.length < 10) p.sent.push(await rpc(p.url, 'eth_sendRawTransaction', [p.raws[p.sent.length]!]));
}

/** The kinds, with samples per server at scale 1. */
function kinds(scale: number): Kind[] {
  const n = (x: number) => Math.max(10, Math.round(x * scale));
  const nonceKind =
    (tag: 'pending' | 'latest'): Kind['method'] =>
    () => ({
      method: 'eth_getTransactionCount',
      params: [owner.address, tag],
      check: (r) => (isHex(r) && Number(r) > 0 ? undefined : `nonce ${r}`),
    });
  return [
    {
      id: 'pendingNonce',
      label: 'eth_getTransactionCount pending, right after a block',
      target: 1.0,
      samples: n(100),
      before: mine,
      method: nonceKind('pending'),
    },
    {
      id: 'latestNonce',
      label: 'eth_getTransactionCount latest, right after a block',
      target: 1.0,
      samples: n(100),
      before: mine,
      method: nonceKind('latest'),
    },
    {
      id: 'send',
      label: 'eth_sendRawTransaction of an ERC-20 transfer, automine',
      target: 1.0,
      samples: n(100),
      method: (p, i) => {
        const raw = p.raws[p.sent.length]!;
        return {
          method: 'eth_sendRawTransaction',
          params: [raw],
          check: (r) => (r === keccak256(raw) ? (p.sent.push(r), undefined) : `hash ${r} of transaction ${i}`),
        };
      },
    },
    {
      id: 'estimate',
      label: 'eth_estimateGas of an ERC-20 transfer',
      target: 1.5,
      samples: n(100),
      method: (p, i) => ({
        method: 'eth_estimateGas',
        params: [{ from: owner.address, to: p.token, data: encodeFunctionData({ abi, functionName: 'transfer', args: [holder(1000 + i), 1n] }) }],
        check: (r) => (isHex(r) && Number(r) > 30_000 && Number(r) < 80_000 ? undefined : `estimate ${r}`),
      }),
    },
    {
      id: 'estimateTransfer',
      label: 'eth_estimateGas of a plain transfer',
      target: 1.5,
      samples: n(100),
      method: (_p, i) => ({
        method: 'eth_estimateGas',
        params: [{ from: owner.address, to: holder(2000 + i), value: '0x1' }],
        check: (r) => (r === '0x5208' ? undefined : `estimate ${r}`),
      }),
    },
    {
      id: 'evmMine',
      label: 'evm_mine (an empty block)',
      target: 1.0,
      samples: n(100),
      method: () => ({ method: 'evm_mine', params: [], check: () => undefined }),
    },
    {
      id: 'anvilMine100',
      label: 'anvil_mine of 100 empty blocks',
      target: 1.0,
      samples: n(20),
      method: () => ({ method: 'anvil_mine', params: ['0x64'], check: () => undefined }),
    },
    {
      id: 'blockNumber',
      label: 'eth_blockNumber',
      target: 1.0,
      samples: n(200),
      method: () => ({ method: 'eth_blockNumber', params: [], check: (r) => (isHex(r) && Number(r) > 0 ? undefined : `block ${r}`) }),
    },
    {
      id: 'getBalance',
      label: 'eth_getBalance',
      target: 1.0,
      samples: n(200),
      method: () => ({ method: 'eth_getBalance', params: [other, 'latest'], check: (r) => (r === '0x21e19e0c9bab2400000' ? undefined : `balance ${r}`) }),
    },
    {
      id: 'callBalanceOf',
      label: 'eth_call of balanceOf',
      target: 1.0,
      samples: n(200),
      method: (p, i) => ({
        method: 'eth_call',
        params: [{ to: p.token, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [holder(i % 50)] }) }, 'latest'],
        check: (r) => (isHex(r) && r.length === 66 ? undefined : `balanceOf ${r}`),
      }),
    },
    {
      id: 'receipt',
      label: 'eth_getTransactionReceipt',
      target: 1.0,
      samples: n(200),
      // Run without the send kind (KINDS_ONLY), the receipts are of transfers sent here first, untimed.
      before: sentSome,
      method: (p, i) => {
        const hash = p.sent[i % p.sent.length]!;
        return {
          method: 'eth_getTransactionReceipt',
          params: [hash],
          check: (r) => (r?.transactionHash === hash && r.status === '0x1' ? undefined : 'receipt'),
        };
      },
    },
  ];
}

/** Deploys the token and signs the transfers the send kind sends (from the deployer, in nonce order). */
export async function prepare(url: string, sends: number): Promise<Prepared> {
  const transport = http(url);
  const wallet = createWalletClient({ account: owner, chain: foundry, transport });
  const pub = createPublicClient({ chain: foundry, transport, pollingInterval: 20 });
  const hash = await wallet.deployContract({ abi, bytecode: TOKEN_BYTECODE, gas: 2_000_000n, ...FEES });
  const token = (await pub.waitForTransactionReceipt({ hash })).contractAddress!;
  let nonce = await pub.getTransactionCount({ address: owner.address, blockTag: 'pending' });
  const raws: Hex[] = [];
  for (let i = 0; i < sends; i++) {
    const data = encodeFunctionData({ abi, functionName: 'transfer', args: [holder(i % 50), 1n] });
    raws.push(await owner.signTransaction({ chainId: foundry.id, type: 'eip1559', nonce: nonce++, to: token, data, gas: 100_000n, ...FEES }));
  }
  return { url, token, raws, sent: [] };
}

export interface KindRow {
  id: string;
  label: string;
  target: number;
  samples: number;
  devgate?: { p50Ms: number; p99Ms: number };
  anvil?: { p50Ms: number; p99Ms: number };
  /** devgate's median latency over anvil's (at most `target` meets it). */
  ratio?: number;
  meets?: boolean;
  error?: string;
}

export interface KindsResults {
  date: string;
  loadAverage: { start: number[]; end: number[] };
  rows: KindRow[];
}

const CHUNK = 10;
const WARMUP = 10;

/** Times `samples` requests of a kind on each server, in chunks of 10 that alternate between them. */
async function measureKind(kind: Kind, servers: { name: 'devgate' | 'anvil'; p: Prepared }[]): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(servers.map((s) => [s.name, []]));
  for (let done = -WARMUP; done < kind.samples; done += CHUNK) {
    for (const { name, p } of servers) {
      for (let i = done; i < Math.min(done + CHUNK, kind.samples); i++) {
        await kind.before?.(p);
        const { method, params, check } = kind.method(p, i + WARMUP);
        const t0 = performance.now();
        const result = await rpc(p.url, method, params);
        const ms = performance.now() - t0;
        const wrong = check(result);
        if (wrong) throw new Error(`${name} answered ${kind.id} wrongly: ${wrong}`);
        if (i >= 0) times[name]!.push(ms);
      }
    }
  }
  return times;
}

export async function kindsTable(opts: { scale: number; log: (line: string) => void }): Promise<KindsResults> {
  ensureBuilt(opts.log);
  const binary = anvilBinary();
  if (!binary) opts.log('kinds: anvil is missing (the @foundry-rs/anvil dev dependency): devgate only, no ratios');
  const loadStart = loadavg();
  // KINDS_ONLY=estimate,estimateTransfer measures those kinds alone.
  const only = process.env.KINDS_ONLY?.split(',');
  const all = kinds(opts.scale);
  const list = all.filter((k) => only === undefined || only.includes(k.id));
  const sends = all.find((k) => k.id === 'send')!.samples + WARMUP;
  const started: Server[] = [];
  try {
    const devgate = await startDevgate({ network: 'dev', bare: true, cacheDir: SUITE_CACHE });
    started.push(devgate);
    const anvil = binary ? await startAnvilDev(binary) : undefined;
    if (anvil) started.push(anvil);
    const servers = [{ name: 'devgate' as const, p: await prepare(devgate.url, sends) }];
    if (anvil) servers.push({ name: 'anvil' as const, p: await prepare(anvil.url, sends) } as never);
    const rows: KindRow[] = [];
    for (const kind of list) {
      const row: KindRow = { id: kind.id, label: kind.label, target: kind.target, samples: kind.samples };
      try {
        const times = await measureKind(kind, servers);
        for (const name of ['devgate', 'anvil'] as const) {
          const t = times[name]?.sort((a, b) => a - b);
          if (t?.length) row[name] = { p50Ms: median(t)!, p99Ms: percentile(t, 99) };
        }
        if (row.devgate && row.anvil) {
          row.ratio = row.devgate.p50Ms / row.anvil.p50Ms;
          row.meets = row.ratio <= kind.target;
        }
      } catch (err) {
        row.error = (err as Error).message.slice(0, 200);
      }
      opts.log(kindLine(row));
      rows.push(row);
    }
    return { date: new Date().toISOString(), loadAverage: { start: loadStart.map(r2), end: loadavg().map(r2) }, rows };
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const ms = (x?: number) => (x === undefined ? 'n/a' : x.toFixed(2));

function kindLine(r: KindRow): string {
  if (r.error) return `kind ${r.id}: FAILED: ${r.error}`;
  return `kind ${r.id}: devgate p50 ${ms(r.devgate?.p50Ms)} ms p99 ${ms(r.devgate?.p99Ms)}; anvil p50 ${ms(r.anvil?.p50Ms)} p99 ${ms(r.anvil?.p99Ms)}; ${
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x (target ≤${r.target.toFixed(1)}x: ${r.meets ? 'met' : 'not met'})`
  }`;
}

export function kindsMarkdown(k: KindsResults): string {
  return [
    `## Per-kind latency, one request in flight (${k.date})`,
    '',
    `devgate's CLI (bare address) and anvil (no flags), HTTP keep-alive, samples interleaved in chunks of ${CHUNK} after ${WARMUP} warm-up requests each. ` +
      `Ratio: devgate's median latency over anvil's (lower is better). Load average ${k.loadAverage.start.join(', ')} at the start, ${k.loadAverage.end.join(', ')} at the end ` +
      '(shared machine: the ratios count, not the milliseconds).',
    '',
    '| kind | samples | devgate p50 ms | devgate p99 ms | anvil p50 ms | anvil p99 ms | ratio | target | met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: |',
    ...k.rows.map((r) =>
      r.error
        ? `| ${r.label} | ${r.samples} | failed: ${r.error.replace(/\|/g, '/')} | | | | | ≤${r.target.toFixed(1)}x | no |`
        : `| ${r.label} | ${r.samples} | ${ms(r.devgate?.p50Ms)} | ${ms(r.devgate?.p99Ms)} | ${ms(r.anvil?.p50Ms)} | ${ms(r.anvil?.p99Ms)} | ${
            r.ratio === undefined ? 'n/a' : `${r.ratio.toFixed(2)}x`
          } | ≤${r.target.toFixed(1)}x | ${r.meets === undefined ? 'n/a' : r.meets ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
}
