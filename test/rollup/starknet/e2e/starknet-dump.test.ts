/**
 * devnet_dump / devnet_load over HTTP, sent as starknet-devnet's own tests send them (raw JSON-RPC: starknet.js has no
 * dump helper), with what starknet.js 7 reads before and after: dump, go on, load, and the chain is back, hashes equal.
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { RpcProvider, WebSocketChannel } from 'starknet';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { ALICE, BOB, START_MS, UNLIMITED_KEYS, increase, testSeed } from '../../fixture.js';
import { invokeV1, invokeV3 } from '../../txs.js';
import { call, post } from '../../../support/http.js';
import { encodeStateFile } from '../../../../src/persist/stateFile.js';

let gw: Gateway;
let url: string;
let dir: string;
let provider: RpcProvider;
const clock = new ManualClock(START_MS);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'devgate-snapdump-'));
  gw = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed()], dumpDir: join(dir, 'dumps') });
  url = gw.url('rollup-test');
  provider = new RpcProvider({ nodeUrl: url });
});
afterAll(async () => {
  await gw?.stop();
  await rm(dir, { recursive: true, force: true });
});

const ok = async (method: string, params?: unknown) => {
  const r = await call(url, method, params);
  if (r.error !== undefined) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.result;
};
const fails = async (method: string, params: unknown) => {
  const r = await call(url, method, params);
  expect(r.result, `${method} ${JSON.stringify(params)}`).toBeUndefined();
  return r.error as { code: number; message: string };
};
const send = async (tx: unknown) => (await ok('starknet_addInvokeTransaction', { invoke_transaction: tx })).transaction_hash as string;

describe('devnet_dump and devnet_load (rollup network)', () => {
  it('dump, go on, load: starknet.js reads the dumped chain back, and the chain goes on with the same hashes', async () => {
    const first = await send(invokeV1(ALICE, increase(1), 0));
    await ok('devnet_createBlock');
    await ok('devnet_mint', { address: BOB.address, amount: 1000, unit: 'WEI' });
    const pendingTx = await send(invokeV3(BOB, increase(2), 0));

    expect(await ok('devnet_getConfig')).toMatchObject({ dump_on: 'request', dump_path: null });
    // As starknet-devnet's tests: no params, then a path; the file holds the answer.
    const inline = (await post(url, { jsonrpc: '2.0', id: '1', method: 'devnet_dump' })).json.result;
    expect(inline).toMatchObject({ format: 'devgate-rollup-dump/1', network: 'rollup-test', block_number: 1, pending_transactions: 2 });
    expect(await ok('devnet_dump', { path: 'before.json' })).toBeNull();
    expect(JSON.parse(await readFile(join(dir, 'dumps', 'before.json'), 'utf8'))).toEqual(inline);

    const latest = await provider.getBlockWithTxHashes('latest');
    const pending = await provider.getBlockWithTxHashes('pending');
    const receipt = await provider.getTransactionReceipt(first);
    const nonce = await provider.getNonceForAddress(ALICE.address, 'pending');
    const pendingStatus = await provider.getTransactionStatus(pendingTx);
    expect(pending.transactions).toEqual([expect.any(String), pendingTx]); // the mint, then BOB's

    // Go on: more transactions and blocks.
    const after = await send(invokeV1(ALICE, increase(3), 1));
    const sealedAfter = (await ok('devnet_createBlock')).block_hash;
    const nextAfter = (await ok('devnet_createBlock')).block_hash;
    expect(await provider.getBlockNumber()).toBe(3);

    expect(await ok('devnet_load', { path: 'before.json' })).toEqual({});
    expect(await provider.getBlockWithTxHashes('latest')).toEqual(latest);
    expect(await provider.getBlockWithTxHashes('pending')).toEqual(pending);
    expect(await provider.getTransactionReceipt(first)).toEqual(receipt);
    expect(await provider.getNonceForAddress(ALICE.address, 'pending')).toBe(nonce);
    expect(await provider.getTransactionStatus(pendingTx)).toEqual(pendingStatus);
    await expect(provider.getTransactionReceipt(after)).rejects.toThrow(/Transaction hash not found/);
    expect(await provider.getBlockWithTxHashes(2).catch((e: Error) => e.message)).toMatch(/Block not found/);

    // The same requests again give the same transaction and block hashes.
    expect(await send(invokeV1(ALICE, increase(3), 1))).toBe(after);
    expect((await ok('devnet_createBlock')).block_hash).toBe(sealedAfter);
    expect((await ok('devnet_createBlock')).block_hash).toBe(nextAfter);

    // The answer given back inline (devgate's extension), and the whole response saved as `curl > file` saves it.
    expect(await ok('devnet_load', { dump: inline })).toEqual({});
    expect(await provider.getBlockWithTxHashes('latest')).toEqual(latest);
    await ok('devnet_createBlock');
    const response = (await post(url, { jsonrpc: '2.0', id: 7, method: 'devnet_dump', params: {} })).text;
    await writeFile(join(dir, 'dumps', 'curl.json'), response);
    await ok('devnet_createBlock');
    expect(await ok('devnet_load', { path: join(dir, 'dumps', 'curl.json') })).toEqual({});
    expect(await provider.getBlockNumber()).toBe(2);

    // A whole-gateway state file in the dump directory gives its section of this network, gzip'd or not.
    const whole = await gw.dumpState(join(dir, 'dumps', 'gateway.state'));
    await writeFile(join(dir, 'dumps', 'gateway.state.gz'), gzipSync(whole));
    await ok('devnet_createBlock');
    expect(await ok('devnet_load', { path: 'gateway.state' })).toEqual({});
    expect(await provider.getBlockNumber()).toBe(2);
    await ok('devnet_createBlock');
    expect(await ok('devnet_load', { path: 'gateway.state.gz' })).toEqual({});
    expect(await provider.getBlockNumber()).toBe(2);

    // The handle does the same in-process.
    const handle = gw.rollup('rollup-test');
    expect(handle.dump()).toEqual(await ok('devnet_dump'));
    handle.load(inline);
    expect(await provider.getBlockWithTxHashes('latest')).toEqual(latest);
    expect(() => handle.load({ format: 'x' })).toThrow(/not a devgate rollup dump/);
  });

  it('a load tells subscribers (starknet.js WebSocketChannel): a reorg for the blocks that leave, new heads for those loaded', async () => {
    const g = globalThis as { WebSocket?: unknown };
    const had = g.WebSocket;
    g.WebSocket ??= WebSocket;
    try {
      const base = await provider.getBlockNumber();
      const dumped = await ok('devnet_dump');
      const [x, y] = [(await ok('devnet_createBlock')).block_hash, (await ok('devnet_createBlock')).block_hash];
      const fromDump = (await post(url, { jsonrpc: '2.0', id: 1, method: 'devnet_dump' })).json.result;
      expect(await ok('devnet_load', { dump: dumped })).toEqual({});

      const channel = new WebSocketChannel({ nodeUrl: gw.wsUrl('rollup-test') });
      await channel.waitForConnection();
      const heads: any[] = [];
      const reorgs: any[] = [];
      channel.onNewHeads = (d) => heads.push(d);
      channel.onReorg = (d) => reorgs.push(d);
      await channel.subscribeNewHeads();
      const until = async (done: () => boolean) => {
        const end = Date.now() + 5000;
        while (!done()) {
          if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify({ heads, reorgs })}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      // A block of this chain, which the load takes off (a later time: an empty block at the same time would be x again).
      const own = (await ok('devnet_increaseTime', { time: 1 })).block_hash;
      expect(own).not.toBe(x);
      await until(() => heads.length === 1);
      expect(await ok('devnet_load', { dump: fromDump })).toEqual({});
      await until(() => reorgs.length === 1 && heads.length === 3);
      expect(reorgs[0].result).toEqual({ starting_block_hash: own, starting_block_number: base + 1, ending_block_hash: own, ending_block_number: base + 1 });
      expect(heads.slice(1).map((h) => [h.result.block_number, h.result.block_hash])).toEqual([
        [base + 1, x],
        [base + 2, y],
      ]);
      channel.disconnect();
      await channel.waitForDisconnection();
    } finally {
      g.WebSocket = had;
    }
  });

  it('refuses bad params, paths outside the dump directory, links, missing files and foreign dumps, changing nothing', async () => {
    const head = await provider.getBlockWithTxHashes('latest');
    await symlink(join(dir, 'outside.json'), join(dir, 'dumps', 'link.json'));
    await writeFile(join(dir, 'outside.json'), JSON.stringify(await ok('devnet_dump')));
    await writeFile(join(dir, 'dumps', 'notjson.txt'), 'hello');
    await writeFile(join(dir, 'dumps', 'devnet.json'), JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'devnet_createBlock' }]));
    await writeFile(join(dir, 'dumps', 'other.state'), encodeStateFile([{ name: 'other', kind: 'rollup', bytes: new Uint8Array([1]) }]));
    const whole = await readFile(join(dir, 'dumps', 'gateway.state'));
    await writeFile(join(dir, 'dumps', 'cut.state'), whole.subarray(0, whole.length - 10));
    const cases: [string, unknown, number, RegExp][] = [
      ['devnet_dump', { test: '' }, -32602, /unknown parameter "test"/],
      ['devnet_load', { test: '' }, -32602, /unknown parameter "test"/],
      ['devnet_load', {}, -32602, /give "path".*or "dump"/],
      ['devnet_dump', { path: '../outside.json' }, -32602, /want a file name in the dump directory/],
      ['devnet_dump', { path: '/etc/passwd' }, -32602, /not a file directly in the dump directory/],
      ['devnet_load', { path: join(dir, 'outside.json') }, -32602, /not a file directly in the dump directory/],
      ['devnet_load', { path: 'sub/a.json' }, -32602, /want a file name/],
      ['devnet_load', { path: 'load_file_name' }, -1, /The file does not exist/],
      ['devnet_load', { path: 'link.json' }, -1, /symbolic link/],
      ['devnet_load', { path: 'notjson.txt' }, -1, /not JSON/],
      ['devnet_load', { path: 'devnet.json' }, -1, /starknet-devnet's dump/],
      ['devnet_load', { path: 'other.state' }, -1, /devgate state file without network "rollup-test" \(it holds other\)/],
      ['devnet_load', { path: 'cut.state' }, -1, /cut.state: devgate state file checksum mismatch/],
      ['devnet_load', { dump: { format: 'devgate-rollup-dump/1', data: 'AAAA' } }, -1, /damaged/],
    ];
    for (const [method, params, code, message] of cases) {
      const error = await fails(method, params);
      expect(error.code, `${method} ${JSON.stringify(params)}`).toBe(code);
      expect(error.message).toMatch(message);
    }
    expect(await provider.getBlockWithTxHashes('latest')).toEqual(head);
    expect(await readFile(join(dir, 'outside.json'), 'utf8')).toMatch(/devgate-rollup-dump/);
  });

  it('without a dump directory, a path is refused (code -1) and nothing is written; the answer still carries the dump', async () => {
    const other = await start({ port: 0, clock, keys: UNLIMITED_KEYS, chains: [testSeed({ chainId: 'SN_SEPOLIA' })] });
    try {
      const u = other.url('rollup-test');
      const dumped = await call(u, 'devnet_dump', { path: join(dir, 'dumps', 'x.json') });
      expect(dumped.error.code).toBe(-1);
      expect(dumped.error.message).toMatch(/file paths are off.*--dump-dir/);
      await expect(readFile(join(dir, 'dumps', 'x.json'))).rejects.toThrow(/ENOENT/);
      expect((await call(u, 'devnet_load', { path: 'before.json' })).error.code).toBe(-1);
      // Its own dump loads; a dump of another chain (the first gateway's is SN_MAIN) is refused by name.
      const own = await call(u, 'devnet_load', { dump: (await call(u, 'devnet_dump', {})).result });
      expect(own.result).toEqual({});
      const wrong = await call(u, 'devnet_load', { dump: await ok('devnet_dump') });
      expect(wrong.error.code).toBe(-1);
      expect(wrong.error.message).toMatch(/another chain/);
    } finally {
      await other.stop();
    }
  });
});
