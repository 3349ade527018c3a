/**
 * The Starknet WebSocket subscriptions of spec 0.8 on a rollup network's WS address, in raw frames (the spec's
 * method names and shapes, under `starknet_` and `rollup_`) and with starknet.js 7's WebSocketChannel unchanged.
 */
import { WebSocketChannel } from 'starknet';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import { ALICE, BOB, COUNTER, START_MS, UNLIMITED_KEYS, increase, testSeed } from '../../../rollup/fixture.js';
import { invokeV1, starknetJsHash } from '../../../rollup/txs.js';

let gw: Gateway;
let url: string;
let wsUrl: string;
const clock = new ManualClock(START_MS);
const nonces = new Map<string, number>();

beforeAll(async () => {
  gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed()] });
  url = gw.url('rollup-test');
  wsUrl = gw.wsUrl('rollup-test');
});
afterAll(() => gw.stop());

const rpc = async (method: string, params: unknown = {}) => {
  const res = await call(url, method, params);
  if (res.error) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
  return res.result;
};
/** Sends an INVOKE of `account` (next nonce) and answers its hash. */
const invoke = async (account: typeof ALICE, by = 1): Promise<string> => {
  const nonce = nonces.get(account.address) ?? 0;
  nonces.set(account.address, nonce + 1);
  return (await rpc('starknet_addInvokeTransaction', { invoke_transaction: invokeV1(account, increase(by), nonce) })).transaction_hash;
};
const header = async (number: number) => {
  const { status: _s, transactions: _t, ...h } = await rpc('starknet_getBlockWithTxHashes', { block_id: { block_number: number } });
  return h;
};
const head = async () => (await rpc('starknet_blockNumber', [])) as number;
let nextId = 100;

/** A WebSocket that keeps every frame it receives, read in order. */
class WsClient {
  private readonly frames: any[] = [];
  private read = 0;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
  }
  static open(address: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(address);
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
    });
  }
  async next(ms = 5000): Promise<any> {
    const end = Date.now() + ms;
    while (this.read >= this.frames.length) {
      if (Date.now() > end) throw new Error(`no WebSocket message within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return this.frames[this.read++];
  }
  request(body: unknown): Promise<any> {
    this.socket.send(JSON.stringify(body));
    return this.next();
  }
  /** Nothing unread arrives within `ms`. */
  async silent(ms = 150): Promise<void> {
    await new Promise((r) => setTimeout(r, ms));
    expect(this.frames.slice(this.read)).toEqual([]);
  }
  close(): void {
    this.socket.close();
  }
}
const request = (ws: WsClient, method: string, params: unknown) => ws.request({ jsonrpc: '2.0', id: nextId++, method, params });
const silent = (ws: WsClient, ms?: number) => ws.silent(ms);

describe('starknet_subscribeNewHeads', () => {
  it('pushes each new block header in the spec shape, under starknet_ and rollup_', async () => {
    const ws = await WsClient.open(wsUrl);
    const a = await request(ws, 'starknet_subscribeNewHeads', {});
    expect(a).toMatchObject({ jsonrpc: '2.0', result: expect.stringMatching(/^[0-9]+$/) });
    const b = await request(ws, 'rollup_subscribeNewHeads', []);
    await rpc('devnet_createBlock');
    const n = await head();
    const one = await ws.next();
    const two = await ws.next();
    expect(one).toEqual({ jsonrpc: '2.0', method: 'starknet_subscriptionNewHeads', params: { subscription_id: a.result, result: await header(n) } });
    expect(two).toEqual({ jsonrpc: '2.0', method: 'rollup_subscriptionNewHeads', params: { subscription_id: b.result, result: await header(n) } });
    expect(Object.keys(one.params.result).sort()).toEqual(
      [
        'block_hash',
        'parent_hash',
        'block_number',
        'new_root',
        'timestamp',
        'sequencer_address',
        'l1_gas_price',
        'l2_gas_price',
        'l1_data_gas_price',
        'l1_da_mode',
        'starknet_version',
      ].sort(),
    );
    ws.close();
  });

  it('from an older block: its header and every later one first, right after the answer, then new ones in order', async () => {
    await rpc('devnet_createBlock');
    await rpc('devnet_createBlock');
    const top = await head();
    const ws = await WsClient.open(wsUrl);
    const answer = await request(ws, 'starknet_subscribeNewHeads', { block_id: { block_number: top - 2 } });
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) seen.push((await ws.next()).params.result.block_number);
    expect(seen).toEqual([top - 2, top - 1, top]);
    await rpc('devnet_createBlock');
    const next = await ws.next();
    expect(next.params).toEqual({ subscription_id: answer.result, result: await header(top + 1) });
    // by hash too
    const byHash = await request(ws, 'starknet_subscribeNewHeads', [{ block_hash: (await header(top)).block_hash }]);
    expect((await ws.next()).params).toEqual({ subscription_id: byHash.result, result: await header(top) });
    ws.close();
  });

  it('sends the answer before the catch-up even when a faster message is answered in between, and a call without id holds nothing', async () => {
    const top = await head();
    const ws = await WsClient.open(wsUrl);
    // Two frames in one write: the parse error is answered with fewer steps than the subscription.
    ws.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'starknet_subscribeNewHeads', params: { block_id: { block_number: 0 } } }));
    ws.socket.send('{not json');
    const frames: any[] = [];
    for (let i = 0; i < top + 3; i++) frames.push(await ws.next());
    const answer = frames.findIndex((f) => f.id === 7);
    const first = frames.findIndex((f) => f.method === 'starknet_subscriptionNewHeads');
    expect(answer).toBeGreaterThanOrEqual(0);
    expect(first).toBeGreaterThan(answer);
    expect(frames.filter((f) => f.method).map((f) => f.params.result.block_number)).toEqual(Array.from({ length: top + 1 }, (_, i) => i));
    expect(frames.some((f) => f.error?.code === -32700)).toBe(true);
    // A notification-style call (no id) gets no answer: its catch-up goes out at once.
    const other = await WsClient.open(wsUrl);
    other.socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'starknet_subscribeNewHeads', params: { block_id: { block_number: top } } }));
    expect((await other.next()).params.result.block_number).toBe(top);
    ws.close();
    other.close();
  });

  it('answers the spec errors: unknown block 24, a bad block id -32602', async () => {
    const ws = await WsClient.open(wsUrl);
    expect((await request(ws, 'starknet_subscribeNewHeads', { block_id: { block_number: 99_999 } })).error).toEqual({ code: 24, message: 'Block not found' });
    expect((await request(ws, 'starknet_subscribeNewHeads', { block_id: 'earliest' })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('block tag'),
    });
    expect((await request(ws, 'starknet_subscribeNewHeads', { blockid: 'latest' })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('unknown parameter'),
    });
    await silent(ws);
    ws.close();
  });
});

describe('starknet_subscribeEvents', () => {
  it('pushes the matching events of each sealed block with block and transaction', async () => {
    const ws = await WsClient.open(wsUrl);
    const all = await request(ws, 'starknet_subscribeEvents', { from_address: COUNTER });
    // The latest block's events come first (none in an empty block).
    await rpc('devnet_createBlock');
    const hash = await invoke(ALICE, 5);
    const receipt = await rpc('starknet_getTransactionReceipt', { transaction_hash: hash });
    const selector = receipt.events[0].keys[0];
    const byKey = await request(ws, 'starknet_subscribeEvents', { keys: [[selector]] });
    const other = await request(ws, 'starknet_subscribeEvents', { keys: [['0x1234']] });
    const elsewhere = await request(ws, 'starknet_subscribeEvents', { from_address: '0x1234' });
    await silent(ws); // pending events come with their block
    await rpc('devnet_createBlock');
    const n = await head();
    const expected = { ...receipt.events[0], block_hash: (await header(n)).block_hash, block_number: n, transaction_hash: hash };
    const got = [await ws.next(), await ws.next()];
    expect(got).toEqual([
      { jsonrpc: '2.0', method: 'starknet_subscriptionEvents', params: { subscription_id: all.result, result: expected } },
      { jsonrpc: '2.0', method: 'starknet_subscriptionEvents', params: { subscription_id: byKey.result, result: expected } },
    ]);
    expect([other.result, elsewhere.result]).toEqual([expect.any(String), expect.any(String)]);
    await silent(ws);
    // From that block: its events first.
    const from = await request(ws, 'rollup_subscribeEvents', { from_address: COUNTER, block_id: { block_number: n } });
    expect(await ws.next()).toEqual({ jsonrpc: '2.0', method: 'rollup_subscriptionEvents', params: { subscription_id: from.result, result: expected } });
    ws.close();
  });

  it('answers error 34 for more than 16 key positions and -32602 for a bad key', async () => {
    const ws = await WsClient.open(wsUrl);
    expect((await request(ws, 'starknet_subscribeEvents', { keys: Array.from({ length: 17 }, () => []) })).error).toEqual({
      code: 34,
      message: 'Too many keys provided in a filter',
    });
    expect((await request(ws, 'starknet_subscribeEvents', { keys: [['nope']] })).error).toMatchObject({ code: -32602 });
    ws.close();
  });
});

describe('starknet_subscribeTransactionStatus', () => {
  it('sends the known status at once, then ACCEPTED_ON_L1', async () => {
    const hash = await invoke(BOB);
    const ws = await WsClient.open(wsUrl);
    const sub = await request(ws, 'starknet_subscribeTransactionStatus', { transaction_hash: hash });
    expect(await ws.next()).toEqual({
      jsonrpc: '2.0',
      method: 'starknet_subscriptionTransactionStatus',
      params: { subscription_id: sub.result, result: { transaction_hash: hash, status: { finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' } } },
    });
    await rpc('devnet_createBlock');
    await silent(ws); // sealing does not change its status
    await rpc('devnet_acceptOnL1', { block_id: 'latest' });
    expect((await ws.next()).params.result).toEqual({ transaction_hash: hash, status: { finality_status: 'ACCEPTED_ON_L1', execution_status: 'SUCCEEDED' } });
    expect(await rpc('starknet_getTransactionStatus', { transaction_hash: hash })).toEqual({
      finality_status: 'ACCEPTED_ON_L1',
      execution_status: 'SUCCEEDED',
    });
    ws.close();
  });

  it('follows an unknown hash from submission to REJECTED, with the reorg notification to heads, events and status', async () => {
    const ws = await WsClient.open(wsUrl);
    const tx = invokeV1(ALICE, increase(2), nonces.get(ALICE.address)!);
    // The hash before it is sent (as starknet.js computes it): nothing to say yet.
    const hash = starknetJsHash(tx);
    const status = await request(ws, 'starknet_subscribeTransactionStatus', { transaction_hash: hash });
    await silent(ws);
    expect((await rpc('starknet_addInvokeTransaction', { invoke_transaction: tx })).transaction_hash).toBe(hash);
    nonces.set(ALICE.address, nonces.get(ALICE.address)! + 1);
    expect((await ws.next()).params).toEqual({
      subscription_id: status.result,
      result: { transaction_hash: hash, status: { finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' } },
    });
    const heads = await request(ws, 'starknet_subscribeNewHeads', {});
    const events = await request(ws, 'starknet_subscribeEvents', { from_address: '0x999' });
    const pending = await request(ws, 'starknet_subscribePendingTransactions', {});
    expect((await ws.next()).params).toEqual({ subscription_id: pending.result, result: hash });
    await rpc('devnet_createBlock');
    const n = await head();
    const block = await header(n);
    expect((await ws.next()).params).toEqual({ subscription_id: heads.result, result: block });
    const rejected = await rpc('devnet_rejectBlock', { block_id: 'latest' });
    expect(rejected.rejected).toEqual([block.block_hash]);
    const reorg = { starting_block_hash: block.block_hash, starting_block_number: n, ending_block_hash: block.block_hash, ending_block_number: n };
    const got = [await ws.next(), await ws.next(), await ws.next(), await ws.next()];
    expect(got).toEqual([
      { jsonrpc: '2.0', method: 'starknet_subscriptionReorg', params: { subscription_id: status.result, result: reorg } },
      { jsonrpc: '2.0', method: 'starknet_subscriptionReorg', params: { subscription_id: heads.result, result: reorg } },
      { jsonrpc: '2.0', method: 'starknet_subscriptionReorg', params: { subscription_id: events.result, result: reorg } },
      {
        jsonrpc: '2.0',
        method: 'starknet_subscriptionTransactionStatus',
        params: { subscription_id: status.result, result: { transaction_hash: hash, status: { finality_status: 'REJECTED' } } },
      },
    ]);
    await silent(ws);
    // The chain continues from the parent: the next block reuses the number.
    nonces.set(ALICE.address, nonces.get(ALICE.address)! - 1);
    await rpc('devnet_createBlock');
    expect((await ws.next()).params.result.block_number).toBe(n);
    ws.close();
  });
});

describe('a snapshot revert (devnet_revert)', () => {
  it('sends the reorg notification of the blocks it took off, then the new block at the reused number', async () => {
    const id = await rpc('devnet_snapshot');
    await rpc('devnet_createBlock');
    await rpc('devnet_createBlock');
    const n = await head();
    const [first, last] = [await header(n - 1), await header(n)];
    const ws = await WsClient.open(wsUrl);
    const heads = await request(ws, 'starknet_subscribeNewHeads', {});
    const pending = await request(ws, 'starknet_subscribePendingTransactions', {});
    expect(await rpc('devnet_revert', { id })).toBe(true);
    const reorg = { starting_block_hash: first.block_hash, starting_block_number: n - 1, ending_block_hash: last.block_hash, ending_block_number: n };
    expect(await ws.next()).toEqual({ jsonrpc: '2.0', method: 'starknet_subscriptionReorg', params: { subscription_id: heads.result, result: reorg } });
    await silent(ws); // nothing to the pending-transactions subscription
    await rpc('devnet_createBlock');
    expect((await ws.next()).params).toMatchObject({ subscription_id: heads.result, result: { block_number: n - 1 } });
    expect(pending.result).toEqual(expect.any(String));
    ws.close();
  });
});

describe('starknet_subscribePendingTransactions', () => {
  it('pushes hashes or whole transactions, filtered by sender; pending ones first', async () => {
    const first = await invoke(ALICE);
    const ws = await WsClient.open(wsUrl);
    const hashes = await request(ws, 'starknet_subscribePendingTransactions', []);
    expect((await ws.next()).params).toEqual({ subscription_id: hashes.result, result: first });
    const bobOnly = await request(ws, 'rollup_subscribePendingTransactions', { transaction_details: true, sender_address: [BOB.address] });
    const second = await invoke(BOB);
    const tx = await rpc('starknet_getTransactionByHash', { transaction_hash: second });
    expect([await ws.next(), await ws.next()]).toEqual([
      { jsonrpc: '2.0', method: 'starknet_subscriptionPendingTransactions', params: { subscription_id: hashes.result, result: second } },
      { jsonrpc: '2.0', method: 'rollup_subscriptionPendingTransactions', params: { subscription_id: bobOnly.result, result: tx } },
    ]);
    expect(tx).toMatchObject({ transaction_hash: second, type: 'INVOKE', sender_address: BOB.address });
    expect(
      (await request(ws, 'starknet_subscribePendingTransactions', { sender_address: Array.from({ length: 1025 }, (_, i) => '0x' + (i + 1).toString(16)) }))
        .error,
    ).toEqual({
      code: 67,
      message: 'Too many addresses in filter sender_address filter',
    });
    await rpc('devnet_createBlock');
    ws.close();
  });
});

describe('starknet_unsubscribe', () => {
  it('ends a subscription (true), then error 66; another connection cannot end it', async () => {
    const ws = await WsClient.open(wsUrl);
    const other = await WsClient.open(wsUrl);
    const sub = await request(ws, 'starknet_subscribeNewHeads', {});
    expect((await request(other, 'starknet_unsubscribe', { subscription_id: sub.result })).error).toEqual({ code: 66, message: 'Invalid subscription id' });
    expect((await request(ws, 'starknet_unsubscribe', { subscription_id: sub.result })).result).toBe(true);
    expect((await request(ws, 'rollup_unsubscribe', [sub.result])).error).toEqual({ code: 66, message: 'Invalid subscription id' });
    await rpc('devnet_createBlock');
    await silent(ws);
    ws.close();
    other.close();
  });

  it('costs credits by the table: 5 a subscribe, 10 an unsubscribe', async () => {
    const ws = await WsClient.open(gw.wsUrl('rollup-test', 'credits-key'));
    const sub = await request(ws, 'starknet_subscribeNewHeads', {});
    await request(ws, 'rollup_subscribePendingTransactions', {});
    await request(ws, 'starknet_unsubscribe', { subscription_id: sub.result });
    const usage = gw.policy.getUsage('credits-key');
    expect(usage.total.credits).toBe(20);
    expect(usage.total.methods).toMatchObject({ starknet_subscribeNewHeads: { requests: 1, credits: 5 }, starknet_unsubscribe: { requests: 1, credits: 10 } });
    ws.close();
  });

  it('holds at most 1,000 subscriptions per connection (-32005), then takes more once some end', async () => {
    const ws = await WsClient.open(wsUrl);
    const batch = Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'starknet_subscribeNewHeads', params: {} }));
    const answers = await ws.request(batch);
    expect(answers.filter((a: any) => typeof a.result === 'string')).toHaveLength(1000);
    const over = await request(ws, 'rollup_subscribeEvents', {});
    expect(over.error).toEqual({
      code: -32005,
      message: 'too many subscriptions on this connection (at most 1000); unsubscribe some first',
      data: { limit: 1000 },
    });
    expect((await request(ws, 'starknet_unsubscribe', { subscription_id: answers[0].result })).result).toBe(true);
    expect((await request(ws, 'rollup_subscribeEvents', {})).result).toMatch(/^[0-9]+$/);
    ws.close();
  });

  it('over HTTP the subscription methods answer -32601 notifications not supported', async () => {
    for (const m of ['starknet_subscribeNewHeads', 'rollup_subscribeEvents', 'starknet_unsubscribe']) {
      expect((await call(url, m, {})).error).toEqual({
        code: -32601,
        message: 'notifications not supported: subscribe on the WebSocket address (/ws/v3/<KEY>)',
      });
    }
  });
});

describe("starknet.js 7's WebSocketChannel", () => {
  it('subscribes to new heads, events, a transaction status and pending transactions, and hears a reorg', async () => {
    // Node 20 has no global WebSocket; starknet.js uses the global one (Node 22 has it).
    const g = globalThis as { WebSocket?: unknown };
    const had = g.WebSocket;
    g.WebSocket ??= WebSocket;
    try {
      const channel = new WebSocketChannel({ nodeUrl: wsUrl });
      await channel.waitForConnection();
      const heads: any[] = [];
      const events: any[] = [];
      const statuses: any[] = [];
      const pending: any[] = [];
      const reorgs: any[] = [];
      channel.onNewHeads = (d) => heads.push(d);
      channel.onEvents = (d) => events.push(d);
      channel.onTransactionStatus = (d) => statuses.push(d);
      channel.onPendingTransaction = (d) => pending.push(d);
      channel.onReorg = (d) => reorgs.push(d);
      const headsId = await channel.subscribeNewHeads();
      expect(headsId).toMatch(/^[0-9]+$/);
      await channel.subscribeEvents(COUNTER);
      await channel.subscribePendingTransaction(false);
      const hash = await invoke(BOB, 3);
      await channel.subscribeTransactionStatus(hash);
      await rpc('devnet_createBlock');
      const n = await head();
      const until = async (done: () => boolean) => {
        const end = Date.now() + 5000;
        while (!done()) {
          if (Date.now() > end) throw new Error('timed out');
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      await until(() => heads.length === 1 && events.length >= 1 && statuses.length === 1 && pending.length === 1);
      expect(heads[0]).toEqual({ subscription_id: headsId, result: await header(n) });
      expect(events.at(-1).result).toMatchObject({ from_address: COUNTER, block_number: n, transaction_hash: hash });
      expect(pending[0].result).toBe(hash);
      expect(statuses[0].result).toEqual({ transaction_hash: hash, status: { finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' } });
      await rpc('devnet_rejectBlock', { block_id: 'latest' });
      nonces.set(BOB.address, nonces.get(BOB.address)! - 1);
      await until(() => reorgs.length === 3 && statuses.length === 2);
      expect(reorgs[0].result).toMatchObject({ starting_block_number: n, ending_block_number: n });
      expect(statuses[1].result.status).toEqual({ finality_status: 'REJECTED' });
      expect(await channel.unsubscribeNewHeads()).toBe(true);
      channel.disconnect();
      await channel.waitForDisconnection();
    } finally {
      g.WebSocket = had;
    }
  });
});
