/**
 * The attacks of issue 25 ("One request crashes or freezes every network", and the filters item), each as the issue
 * tried it, scaled by `ctx.scale` (counts and seconds; 1 is the issue's size where the table stays within minutes).
 * `prepare` runs before the probe starts (signing, funding: the bench's own work); `run` is the attack, and answers
 * its outcome: `completed: ...` or `refused: <code> <message>`. bench/hostile.ts runs each against a fresh server.
 */
import { toHex, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import {
  count,
  errorText,
  fund,
  gzipBomb,
  logLoop,
  mb,
  post,
  rpcBatch,
  RpcError,
  rpcCall,
  senders,
  SLED,
  SLED_CODE,
  SLED_LOOP,
  SLED_LOOP_CODE,
  sleep,
  streamedError,
  tally,
  WsClient,
} from './hostileTools.js';

export interface AttackContext {
  server: 'devgate' | 'anvil';
  /** The attacker's HTTP and WebSocket addresses (devgate: mainnet, key `hostile`). */
  url: string;
  wsUrl: string;
  /** The attacker's address with another API key (anvil has none: its one address). */
  urlForKey(key: string): string;
  chainId: number;
  scale: number;
  /** Aborted when the runner gives up on the server (crashed, froze, killed). */
  signal: AbortSignal;
  /** Runs after the attack, whatever happened (closing sockets). */
  defer(cleanup: () => void): void;
}

export interface Attack {
  id: string;
  label: string;
  prepare?(ctx: AttackContext): Promise<unknown>;
  run(ctx: AttackContext, prepared: unknown): Promise<string>;
}

/** anvil's and devgate's dev account 0 (the `test ... junk` mnemonic). */
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const FEES = { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
const scaled = (ctx: AttackContext, n: number) => Math.max(1, Math.round(n * ctx.scale));

/** Sends a transaction from dev account 0 and waits until it is in a block (both servers automine). */
async function sendFromDev0(ctx: AttackContext, tx: Record<string, string>): Promise<Hex> {
  const hash = await rpcCall(ctx.url, 'eth_sendTransaction', [{ from: DEV0, ...tx }], ctx.signal);
  for (let i = 0; i < 600 && !ctx.signal.aborted; i++) {
    const found = await rpcCall(ctx.url, 'eth_getTransactionByHash', [hash], ctx.signal);
    if (found?.blockNumber) return hash;
    await sleep(50);
  }
  throw new Error(`transaction ${hash} was not mined within 30 s`);
}

/** Signed transactions, kept per chain id: every server starts the throwaway senders at nonce 0. */
const signedCache = new Map<string, Hex[]>();
async function signOnce(key: string, make: () => Promise<Hex[]>): Promise<Hex[]> {
  if (!signedCache.has(key)) signedCache.set(key, await make());
  return signedCache.get(key)!;
}

const filters: Attack = {
  id: 'filters',
  label: '1,000 eth_newFilter [{}], then a transaction of 36,000 LOG0; 10 filters polled',
  async run(ctx) {
    const n = scaled(ctx, 1000);
    const logs = Math.min(0xffff, scaled(ctx, 36_000));
    const ids: string[] = [];
    const refused: string[] = [];
    for (let i = 0; i < n; i += 100) {
      const answers = await rpcBatch(
        ctx.url,
        'eth_newFilter',
        Array.from({ length: Math.min(100, n - i) }, () => [{}]),
        ctx.signal,
      );
      for (const a of answers) a.result ? ids.push(a.result) : refused.push(errorText(a)!);
    }
    await sendFromDev0(ctx, { gas: '0xf42400', data: logLoop(logs) });
    const polls: string[] = [];
    let got = 0;
    for (const id of ids.slice(0, 10)) {
      const s = await post(ctx.url, { jsonrpc: '2.0', id: 1, method: 'eth_getFilterChanges', params: [id] }, '"logIndex"', ctx.signal);
      const error = streamedError(s);
      polls.push(error ?? `${mb(s.bytes)} answer`);
      if (!error) got += s.counted;
    }
    return (
      `completed: ${count(ids.length)} filters${refused.length ? `, ${count(refused.length)} refused (${tally(refused)})` : ''}; ` +
      `a transaction of ${count(logs)} logs mined; ${polls.length} polls: ${count(got)} logs (${tally(polls.map((p) => (p.endsWith('answer') ? 'answered' : p)))})`
    );
  },
};

const structLogger: Attack = {
  id: 'structLogger',
  label: 'debug_traceCall, struct logger with memory, 256 KB memory looping on 30M gas',
  async run(ctx) {
    const s = await post(
      ctx.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'debug_traceCall',
        params: [{ data: '0x60006203ffe0525b600756', gas: '0x1c9c380' }, 'latest', { enableMemory: true, disableStack: true }],
      },
      '"op"',
      ctx.signal,
    );
    const error = streamedError(s);
    return error ? `refused: ${error}` : `completed: ${count(s.counted)} steps, an answer of ${mb(s.bytes)}`;
  },
};

const mine: Attack = {
  id: 'mine',
  label: 'anvil_mine 10,000',
  async run(ctx) {
    const n = scaled(ctx, 10_000);
    const before = Number(await rpcCall(ctx.url, 'eth_blockNumber', [], ctx.signal));
    try {
      await rpcCall(ctx.url, 'anvil_mine', [toHex(n)], ctx.signal);
    } catch (err) {
      if (err instanceof RpcError) return `refused: ${err.message}`;
      throw err;
    }
    const after = Number(await rpcCall(ctx.url, 'eth_blockNumber', [], ctx.signal));
    return `completed: ${count(after - before)} blocks mined`;
  },
};

const sled: Attack = {
  id: 'sled',
  label: 'eth_call looping into a 24 KB JUMPDEST sled (state override), 4 connections for 10 s',
  async run(ctx) {
    const until = performance.now() + 10_000 * ctx.scale;
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: SLED_LOOP, gas: '0x1c9c380' }, 'latest', { [SLED]: { code: SLED_CODE }, [SLED_LOOP]: { code: SLED_LOOP_CODE } }],
    };
    const answers: string[] = [];
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (performance.now() < until && !ctx.signal.aborted) {
          const s = await post(ctx.url, body, undefined, ctx.signal);
          times.push(s.ms);
          answers.push(streamedError(s) ?? 'a result');
        }
      }),
    );
    const slowest = Math.max(...times) / 1000;
    return `completed: ${count(answers.length)} calls, the slowest ${slowest.toFixed(1)} s (${tally(answers)})`;
  },
};

const simulate: Attack = {
  id: 'simulate',
  label: 'eth_simulateV1 of 256 blocks × 9 transfers, 3 in a row',
  async run(ctx) {
    const blockStateCalls = Array.from({ length: 256 }, (_, b) => ({
      calls: Array.from({ length: 9 }, (_, c) => ({ from: DEV0, to: toHex(0x1000_0000 + b * 16 + c, { size: 20 }), value: '0x1' })),
    }));
    const outcomes: string[] = [];
    let bytes = 0;
    for (let i = 0; i < scaled(ctx, 3); i++) {
      const s = await post(ctx.url, { jsonrpc: '2.0', id: 1, method: 'eth_simulateV1', params: [{ blockStateCalls }, 'latest'] }, undefined, ctx.signal);
      bytes += s.bytes;
      outcomes.push(streamedError(s) ?? 'answered');
    }
    return outcomes.every((o) => o === 'answered') ? `completed: ${outcomes.length} answers, ${mb(bytes)}` : `refused: ${tally(outcomes)}`;
  },
};

const sendBatch: Attack = {
  id: 'sendBatch',
  label: 'a batch of 1,000 eth_sendRawTransaction (10 senders × 100)',
  async prepare(ctx) {
    const n = scaled(ctx, 1000);
    const accounts = senders(10);
    await fund(ctx.url, accounts);
    return signOnce(`sendBatch ${ctx.chainId} ${n}`, async () => {
      const raws: Hex[] = [];
      for (let i = 0; i < n; i++) {
        const account = accounts[i % 10]!;
        raws.push(
          await account.signTransaction({ chainId: ctx.chainId, type: 'eip1559', nonce: Math.floor(i / 10), to: DEV0, value: 1n, gas: 21_000n, ...FEES }),
        );
      }
      return raws;
    });
  },
  async run(ctx, prepared) {
    const raws = prepared as Hex[];
    const answers = await rpcBatch(
      ctx.url,
      'eth_sendRawTransaction',
      raws.map((raw) => [raw]),
      ctx.signal,
    );
    const errors = answers.map(errorText).filter((e): e is string => e !== undefined);
    const accepted = answers.length - errors.length;
    return `${accepted === 0 ? 'refused' : 'completed'}: ${count(accepted)} of ${count(raws.length)} accepted${errors.length ? `; ${tally(errors)}` : ''}`;
  },
};

const gzipBombAttack: Attack = {
  id: 'gzipBomb',
  label: 'anvil_loadState of a gzip bomb (0.65 MB → 640 MB of zeros)',
  async prepare(ctx) {
    return gzipBomb(Math.max(1, Math.round(640 * ctx.scale)));
  },
  async run(ctx, prepared) {
    const gz = prepared as Buffer;
    const s = await post(ctx.url, { jsonrpc: '2.0', id: 1, method: 'anvil_loadState', params: [`0x${gz.toString('hex')}`] }, undefined, ctx.signal);
    const error = streamedError(s);
    return error ? `refused: ${error}` : `completed: ${s.head.slice(0, 80)}`;
  },
};

const slowReaders: Attack = {
  id: 'slowReaders',
  label: '48 WebSocket readers of newHeads that never read, anvil_mine 500 for 15 s',
  async run(ctx) {
    const n = scaled(ctx, 48);
    const clients: WsClient[] = [];
    ctx.defer(() => {
      for (const c of clients) c.close();
    });
    for (let i = 0; i < n; i++) {
      const c = await WsClient.open(ctx.wsUrl);
      clients.push(c);
      const answer = await c.request('eth_subscribe', ['newHeads']);
      if (!answer.result) return `refused: eth_subscribe ${errorText(answer)}`;
    }
    for (const c of clients) c.ws.pause();
    const until = performance.now() + 15_000 * ctx.scale;
    let mined = 0;
    while (performance.now() < until && !ctx.signal.aborted) {
      await rpcCall(ctx.url, 'anvil_mine', ['0x1f4'], ctx.signal);
      mined += 500;
    }
    for (const c of clients) c.ws.resume();
    await sleep(1000);
    const closed = clients.filter((c) => c.closed).map((c) => `${c.closed!.code} ${c.closed!.reason}`.trim());
    return `completed: ${count(mined)} blocks mined; ${closed.length ? `${closed.length} of ${n} readers closed by the server (${tally(closed)})` : `none of ${n} readers closed`}`;
  },
};

const fanOut: Attack = {
  id: 'fanOut',
  label: '4 connections × 1,000 logs subscriptions, then 3 transactions of 2,000 logs',
  async run(ctx) {
    const perConnection = scaled(ctx, 1000);
    const clients: WsClient[] = [];
    ctx.defer(() => {
      for (const c of clients) c.close();
    });
    const refused: string[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await WsClient.open(ctx.wsUrl);
      clients.push(c);
      const answers = await Promise.all(Array.from({ length: perConnection }, () => c.request('eth_subscribe', ['logs', {}])));
      for (const a of answers) if (!a.result) refused.push(errorText(a)!);
    }
    const subscriptions = 4 * perConnection - refused.length;
    // Read without ws's per-message work (WsClient.readRaw): the probe measures the server, not the bench's reader.
    // HOSTILE_WS_READER=ws keeps ws's reader (how the table measured before).
    if (process.env.HOSTILE_WS_READER !== 'ws') for (const c of clients) c.readRaw();
    const base = clients.reduce((s, c) => s + c.messages, 0);
    const txs = 3;
    const logs = scaled(ctx, 2000);
    for (let i = 0; i < txs; i++) await sendFromDev0(ctx, { gas: '0xf42400', data: logLoop(logs) });
    const expected = subscriptions * txs * logs;
    const received = () => clients.reduce((s, c) => s + c.messages, 0) - base;
    // Until every notification came, or none came for 2 s, or 20 s passed.
    const t0 = performance.now();
    let last = -1;
    let quietSince = performance.now();
    while (received() < expected && performance.now() - t0 < 20_000 && performance.now() - quietSince < 2000 && !ctx.signal.aborted) {
      if (received() !== last) (last = received()), (quietSince = performance.now());
      await sleep(100);
    }
    const closed = clients.filter((c) => c.closed).map((c) => `${c.closed!.code} ${c.closed!.reason}`.trim());
    return (
      `completed: ${count(subscriptions)} subscriptions${refused.length ? ` (${tally(refused)})` : ''}; ` +
      `${count(received())} of ${count(expected)} notifications received${closed.length ? `; ${closed.length} connections closed (${tally(closed)})` : ''}`
    );
  },
};

/**
 * The txpool attack's fees: 16M gas × 50 gwei = 0.8 ether, under devgate's 1-ether fee cap (--rpc-txfeecap), so the
 * 128 KB size limit is what refuses these transactions (at 200 gwei the fee cap refused them first).
 */
const TXPOOL_FEES = { maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

/** 1.5 MiB of zero calldata: intrinsic gas 6.3M, EIP-7623's floor 15.7M. */
const BIG_DATA: Hex = `0x${'00'.repeat(1.5 * 2 ** 20)}`;

const txpool: Attack = {
  id: 'txpool',
  label: '86 queued (nonce-gap) transactions of 1.5 MB, then txpool_content',
  async prepare(ctx) {
    const n = scaled(ctx, 86);
    const [account] = senders(11).slice(10) as [PrivateKeyAccount];
    await fund(ctx.url, [account]);
    return signOnce(`txpool ${ctx.chainId} ${n} 50gwei`, async () => {
      const raws: Hex[] = [];
      for (let i = 0; i < n; i++)
        raws.push(
          await account.signTransaction({ chainId: ctx.chainId, type: 'eip1559', nonce: 1 + i, to: DEV0, data: BIG_DATA, gas: 16_000_000n, ...TXPOOL_FEES }),
        );
      return raws;
    });
  },
  async run(ctx, prepared) {
    const raws = prepared as Hex[];
    const errors: string[] = [];
    for (const raw of raws) {
      try {
        const s = await post(ctx.url, { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }, undefined, ctx.signal);
        const error = streamedError(s);
        if (error) errors.push(error);
      } catch (err) {
        // A server that refuses a 3 MB body may close the connection before the bench has sent it all (anvil does).
        if (ctx.signal.aborted) throw err;
        errors.push(`connection closed: ${(err as Error).message}`);
      }
    }
    const s = await post(ctx.url, { jsonrpc: '2.0', id: 1, method: 'txpool_content', params: [] }, undefined, ctx.signal);
    const accepted = raws.length - errors.length;
    return (
      `${accepted === 0 ? 'refused' : 'completed'}: ${count(accepted)} of ${count(raws.length)} accepted${errors.length ? ` (${tally(errors)})` : ''}; ` +
      `txpool_content: ${streamedError(s) ?? `${mb(s.bytes)} in ${(s.ms / 1000).toFixed(1)} s`}`
    );
  },
};

const filterExhaustion: Attack = {
  id: 'filterExhaustion',
  label: '10 keys × 1,000 eth_newBlockFilter, then a new key’s eth_newBlockFilter',
  async run(ctx) {
    const n = scaled(ctx, 1000);
    let created = 0;
    const refused: string[] = [];
    for (let k = 0; k < 10; k++)
      for (let i = 0; i < n; i += 100) {
        const answers = await rpcBatch(
          ctx.urlForKey(`attacker${k}`),
          'eth_newBlockFilter',
          Array.from({ length: Math.min(100, n - i) }, () => []),
          ctx.signal,
        );
        for (const a of answers) a.result ? created++ : refused.push(errorText(a)!);
      }
    const s = await post(ctx.urlForKey('newcomer'), { jsonrpc: '2.0', id: 1, method: 'eth_newBlockFilter', params: [] }, undefined, ctx.signal);
    const error = streamedError(s);
    return (
      `completed: ${count(created)} filters${refused.length ? `, ${count(refused.length)} refused (${tally(refused)})` : ''}; ` +
      `the new key's filter: ${error ? `REFUSED ${error}` : 'accepted'}`
    );
  },
};

export const ATTACKS: readonly Attack[] = [
  filters,
  structLogger,
  mine,
  sled,
  simulate,
  sendBatch,
  gzipBombAttack,
  slowReaders,
  fanOut,
  txpool,
  filterExhaustion,
];
