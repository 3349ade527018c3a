/**
 * devnet_dump / devnet_load's parts in-process: the dump answer (src/rollup/dumpAnswer.ts), loading it
 * (src/rollup/engine/load.ts) and the path rule of the dump directory (src/rollup/dumpFiles.ts).
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgument, RollupError } from '../../src/errors.js';
import { DUMP_FORMAT, dumpAnswer, MAX_DUMP_BYTES, readDumpAnswer } from '../../src/rollup/dumpAnswer.js';
import { dumpFilePath, prepareDumpDir, readDumpFile, writeDumpFile, type DumpDir } from '../../src/rollup/dumpFiles.js';
import type { RollupChain } from '../../src/rollup/engine/chain.js';
import { RollupControls } from '../../src/rollup/engine/controls.js';
import { loadRollupParts } from '../../src/rollup/engine/load.js';
import { invokeTransaction } from '../../src/rollup/params.js';
import { ALICE, BOB, increase, testChain } from './fixture.js';
import { invokeV1, invokeV3 } from './txs.js';

const decode = (w: unknown) => invokeTransaction(w);

function setup(overrides: Record<string, unknown> = {}) {
  const { chain, clock } = testChain(overrides);
  const controls = RollupControls.attach(chain, []);
  return { chain, clock, controls };
}

/** What a client sees of a chain: every block's hash, status and transactions, the pending ones, the gas prices. */
const view = (chain: RollupChain) => ({
  blocks: chain.parts().blocks.map((b) => [b.hash, b.status, b.timestamp, b.transactions.map((t) => t.hash)]),
  pending: chain.pending().transactions.map((t) => t.hash),
  pendingRoot: chain.pending().parentHash,
  prices: chain.config.gasPrices,
  now: chain.now(),
});

const load = (chain: RollupChain, answer: unknown) => loadRollupParts(chain, readDumpAnswer(answer, chain, 'rollup-test').parts);

describe('dump and load', () => {
  it('a load puts the dumped chain back exactly, and the chain goes on with the same hashes as before', () => {
    const { chain, clock, controls } = setup();
    chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    clock.advance(2_000);
    chain.createBlock();
    controls.setGasPrice({ wei: 7n * 10n ** 9n });
    chain.addInvokeTransaction(decode(invokeV3(BOB, increase(2), 0)));
    chain.createBlock(); // sealed at the old price; the next block uses 7 gwei
    const pendingTx = chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(3), 1)));
    const at = view(chain);
    const answer = JSON.parse(JSON.stringify(dumpAnswer(chain, 'rollup-test')));
    expect(answer).toMatchObject({ format: DUMP_FORMAT, network: 'rollup-test', chain_id: '0x534e5f4d41494e', block_number: 2, pending_transactions: 1 });
    expect(answer.block_hash).toBe('0x' + chain.head().hash.toString(16));

    // What the chain does after the dump, twice: before the load and after it.
    const goOn = () => {
      const sealed = chain.createBlock();
      const tx = chain.addInvokeTransaction(decode(invokeV3(BOB, increase(4), 1)));
      return [sealed.hash, sealed.gasPrices, tx, chain.createBlock().hash];
    };
    const first = goOn();
    expect(first[1]).toEqual({ wei: 7n * 10n ** 9n, fri: chain.parts().blocks[1]!.gasPrices.fri });
    expect(view(chain)).not.toEqual(at);

    const { left, added } = load(chain, answer);
    expect(left).toHaveLength(2);
    expect(added).toHaveLength(0); // the dump's blocks are the ones both chains share
    expect(view(chain)).toEqual(at);
    expect(chain.isPending(pendingTx)).toBe(true);
    expect(chain.transaction(first[2] as bigint)).toBeUndefined();
    expect(goOn()).toEqual(first);
  });

  it('loads into another chain of the same seed: the same blocks, receipts and state', () => {
    const a = setup();
    a.chain.addInvokeTransaction(decode(invokeV1(ALICE, increase(1), 0)));
    const tx = a.chain.addInvokeTransaction(decode(invokeV3(BOB, increase(2), 0)));
    a.controls.setGasPrice({ wei: 9n * 10n ** 9n });
    a.chain.createBlock(); // sealed at the seed's price; later blocks at 9 gwei
    a.controls.mint(BigInt(ALICE.address), 5n, 'WEI');
    a.controls.setGasPrice({ wei: 11n * 10n ** 9n }); // for the blocks after the pending one
    const answer = dumpAnswer(a.chain, 'rollup-test');

    const b = setup();
    b.chain.createBlock(); // a block of b's own, which leaves
    const own = b.chain.head();
    const reverted: bigint[][] = [];
    const sealed: bigint[] = [];
    b.chain.events.on('blocksReverted', (blocks) => reverted.push(blocks.map((x) => x.hash)));
    b.chain.events.on('blockSealed', (block) => sealed.push(block.hash));
    const { added } = load(b.chain, answer);
    expect(reverted).toEqual([[own.hash]]); // subscribers hear of it as of a revert
    expect(sealed).toEqual([a.chain.head().hash]); // and of the loaded block as of a sealed one
    expect(added.map((x) => x.hash)).toEqual([a.chain.head().hash]);
    expect(view(b.chain)).toEqual(view(a.chain));
    expect(b.chain.receipt(tx)!.tx).toEqual(a.chain.receipt(tx)!.tx);
    expect(b.controls.balance(BigInt(ALICE.address), 'WEI', { tag: 'pending' })).toBe(a.controls.balance(BigInt(ALICE.address), 'WEI', { tag: 'pending' }));
    const [nextA, nextB] = [a.chain.createBlock(), b.chain.createBlock()];
    expect(nextB.gasPrices.wei).toBe(9n * 10n ** 9n);
    expect(nextB.hash).toBe(nextA.hash);
    const [thenA, thenB] = [a.chain.createBlock(), b.chain.createBlock()];
    expect(thenB.gasPrices.wei).toBe(11n * 10n ** 9n);
    expect(thenB.hash).toBe(thenA.hash);
  });

  it('a loaded chain goes on from the chain time of the dump, not from its last time anchor', () => {
    const { chain, clock } = setup();
    chain.createBlock();
    clock.advance(10_500); // 10.5 s after the chain's anchor (its start)
    const time = chain.now();
    const answer = dumpAnswer(chain, 'rollup-test');
    const other = setup();
    other.clock.advance(3_600_000); // loaded an hour later on another clock
    load(other.chain, answer);
    expect(other.chain.now()).toBe(time);
    other.clock.advance(2_000);
    expect(other.chain.now()).toBe(time + 2n);
    // The chain dumped keeps its own time exactly (the anchor moved by whole seconds only).
    clock.advance(600);
    expect(chain.now()).toBe(time + 1n);
  });

  it('takes the JSON-RPC response that carried the dump; forgets snapshots; restart still goes back to the chain at start', () => {
    const { chain, controls } = setup();
    const start = view(chain);
    chain.createBlock();
    const envelope = { jsonrpc: '2.0', id: 1, result: dumpAnswer(chain, 'rollup-test') };
    chain.createBlock();
    controls.snapshots.take();
    load(chain, envelope);
    expect(chain.length).toBe(2);
    expect(controls.snapshots.size).toBe(0);
    expect(controls.snapshots.revert(0n)).toBe(false);
    controls.snapshots.restart();
    expect(view(chain)).toEqual(start);
  });

  it('refuses, before anything changes, what is not a sound dump of this chain', () => {
    const { chain, controls } = setup();
    chain.createBlock();
    const good = dumpAnswer(chain, 'rollup-test');
    chain.createBlock();
    controls.snapshots.take();
    const before = view(chain);
    const other = setup({ chainId: 'SN_SEPOLIA' });
    const otherGenesis = setup({ blocks: [{ timestamp: 1_735_689_601, status: 'ACCEPTED_ON_L1' }] });
    const damaged = { ...good, data: good.data.slice(0, 40) + (good.data[40] === 'A' ? 'B' : 'A') + good.data.slice(41) };
    // A dump with valid checksums whose chain was edited (written from a chain whose block was changed in place).
    const block = chain.parts().blocks[2]! as { parentHash: bigint };
    block.parentHash += 1n;
    const edited = dumpAnswer(chain, 'rollup-test');
    block.parentHash -= 1n;
    const cases: [unknown, RegExp][] = [
      [edited, /block 2 of the dump is not the child of block 1/],
      [[{ jsonrpc: '2.0', id: 1, method: 'devnet_mint', params: {} }], /starknet-devnet's dump/],
      [{ ...good, format: 'x' }, /not a devgate rollup dump/],
      ['text', /not a devgate rollup dump/],
      [{ ...good, data: '!!' }, /not base64/],
      [{ ...good, data: good.data.slice(0, 30) }, /damaged/],
      // ~300 KB of gzip that unzips past the guard: refused by its size, not unzipped whole.
      [{ ...good, data: gzipSync(Buffer.alloc(MAX_DUMP_BYTES + 1), { level: 9 }).toString('base64') }, /unzips to more than 256 MB/],
      [damaged, /damaged|checksum|unreadable/],
      [dumpAnswer(other.chain, 'rollup-test'), /another chain/],
      [dumpAnswer(otherGenesis.chain, 'rollup-test'), /another chain/],
    ];
    for (const [input, message] of cases) {
      let thrown: unknown;
      try {
        readDumpAnswer(input, chain, 'rollup-test');
      } catch (err) {
        thrown = err;
      }
      expect(thrown, JSON.stringify(input).slice(0, 80)).toBeInstanceOf(RollupError);
      expect((thrown as RollupError).code).toBe(-1);
      expect((thrown as Error).message).toMatch(message);
    }
    expect(view(chain)).toEqual(before);
    expect(controls.snapshots.size).toBe(1);
  });
});

describe('the dump directory', () => {
  let base: string;
  let dir: DumpDir;
  let viaLink: DumpDir;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'devgate-dumpdir-'));
    dir = await prepareDumpDir(join(base, 'dumps'));
    await symlink(dir.real, join(base, 'link'));
    viaLink = await prepareDumpDir(join(base, 'link'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('paths are off without a dump directory (code -1)', () => {
    expect(() => dumpFilePath(undefined, 'a.json', 'devnet_dump')).toThrow(/file paths are off.*--dump-dir/);
    try {
      dumpFilePath(undefined, 'a.json', 'devnet_load');
    } catch (err) {
      expect((err as RollupError).code).toBe(-1);
    }
  });

  it('takes a plain name or an absolute path directly in the directory (as given or real), nothing else', () => {
    expect(dumpFilePath(dir, 'a.json', 'devnet_dump')).toBe(join(dir.real, 'a.json'));
    expect(dumpFilePath(dir, join(dir.given, 'b-1_x.dump'), 'devnet_dump')).toBe(join(dir.real, 'b-1_x.dump'));
    expect(viaLink.real).toBe(dir.real);
    expect(dumpFilePath(viaLink, join(viaLink.given, 'c'), 'devnet_dump')).toBe(join(dir.real, 'c'));
    expect(dumpFilePath(viaLink, join(dir.real, 'c'), 'devnet_dump')).toBe(join(dir.real, 'c'));
    const refused = [
      '',
      '.',
      '..',
      '../a.json',
      'sub/a.json',
      'a\\b',
      '.hidden',
      'a\0b',
      'x'.repeat(129),
      '/etc/passwd',
      join(dir.given, '..', 'a.json'),
      `${dir.given}/../dumps/a.json`,
      join(dir.given, 'sub', 'a.json'),
      join(dir.given, '.a.json'),
      dir.given,
      dir.given + '/',
      join(base, 'a.json'),
      '~/a.json',
    ];
    for (const path of refused) expect(() => dumpFilePath(dir, path, 'devnet_dump'), path).toThrow(InvalidArgument);
  });

  it('writes atomically, replaces a link instead of writing through it, and never reads through one', async () => {
    const outside = join(base, 'outside.txt');
    await writeFile(outside, 'secret');
    const file = dumpFilePath(dir, 'd.json', 'devnet_dump');
    await writeDumpFile(file, '{"a":1}');
    expect((await readDumpFile(file)).toString()).toBe('{"a":1}');

    const link = join(dir.real, 'l.json');
    await symlink(outside, link);
    await expect(readDumpFile(link)).rejects.toThrow(/symbolic link/);
    await writeDumpFile(link, '{"b":2}');
    expect(await readFile(outside, 'utf8')).toBe('secret');
    expect((await lstat(link)).isSymbolicLink()).toBe(false);
    expect((await readDumpFile(link)).toString()).toBe('{"b":2}');

    await symlink(join(base, 'no-such'), join(dir.real, 'dangling'));
    await expect(readDumpFile(join(dir.real, 'dangling'))).rejects.toThrow(/symbolic link/);
    expect(await readlink(join(dir.real, 'dangling'))).toBe(join(base, 'no-such'));
    await expect(readDumpFile(join(dir.real, 'missing.json'))).rejects.toThrow(/The file does not exist/);
    await expect(readDumpFile(dir.real)).rejects.toThrow(/not a regular file/);
    await mkdir(join(dir.real, 'adir'));
    await expect(writeDumpFile(join(dir.real, 'adir'), '{}')).rejects.toThrow(/cannot write .*adir/);
    expect((await readdir(dir.real)).filter((n) => n.startsWith('.'))).toEqual([]); // no temporary file left
  });
});
