/**
 * Atomic state files under kill -9: the devgate command runs with `--state FILE --state-interval 0.05` while a client
 * mines blocks, and is killed with SIGKILL at a random moment (often in the middle of a write). Each restart with the
 * same flags must load the file whole: a chain whose head is a block the killed process served, with that block's
 * hash (never a half-written file, never a refused one). A clean stop (SIGTERM) writes everything. A truncated file
 * is refused naming the problem.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../../src/index.js';
import { call } from '../support/http.js';
import { prng } from '../support/prng.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];
const dir = mkdtempSync(join(tmpdir(), 'devgate-dump-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seed = join(dir, 'alpha.json');
writeFileSync(seed, JSON.stringify({ name: 'alpha', kind: 'eth', chainId: 31337 }));
const file = join(dir, 'state.bin');

/** Starts the command; resolves with the child and its HTTP base once it prints its ready line. */
async function spawnDevgate(): Promise<{ child: ChildProcess; url: string; out: () => string }> {
  const child = spawn(process.execPath, [...CLI, '--port', '0', '--no-cache', '--chain', seed, '--state', file, '--state-interval', '0.05'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (c) => (out += c));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line:\n${out}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /Listening on [^\s]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  return { child, url: `http://127.0.0.1:${port}/alpha/v3/k`, out: () => out };
}

const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));

/** What a state file holds: its head number and hash, loaded in-process (throws if refused). */
async function headOf(path: string): Promise<{ number: bigint; hash: string }> {
  const gw = await start({ port: 0, chains: [seed], cache: false, state: { load: path } });
  try {
    const b = (await gw.eth('alpha').getBlock())!;
    return { number: b.number, hash: b.hash };
  } finally {
    await gw.stop();
  }
}

describe('state files survive kill -9', () => {
  it('a restart after SIGKILL at random points loads a whole file of served blocks; SIGTERM writes everything', async () => {
    const random = prng(14);
    /** Hash of every block number any run served. */
    const served = new Map<bigint, string>();
    let loadedHead = -1n;
    for (let round = 0; round < 3; round++) {
      const { child, url, out } = await spawnDevgate();
      try {
        if (round > 0) expect(out()).toMatch(/Loaded state: alpha: head \d+/);
        const genesis = (await call(url, 'eth_getBlockByNumber', ['0x0', false])).result;
        served.set(0n, genesis.hash);
        const head = BigInt((await call(url, 'eth_blockNumber')).result);
        expect(head).toBeGreaterThanOrEqual(loadedHead);
        expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).result.hash).toBe(served.get(head));
        const killAt = Date.now() + 300 + Math.floor(random() * 1200);
        while (Date.now() < killAt) {
          await call(url, 'anvil_mine', ['0x10']);
          const b = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result;
          served.set(BigInt(b.number), b.hash);
        }
      } finally {
        child.kill('SIGKILL');
        await exited(child);
      }
      if (!existsSync(file)) continue; // killed before its first write
      const loaded = await headOf(file);
      expect(loaded.hash).toBe(served.get(loaded.number));
      loadedHead = loaded.number;
    }
    // A clean stop writes the state as it is.
    const { child, url } = await spawnDevgate();
    await call(url, 'anvil_mine', ['0x3']);
    const last = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result;
    child.kill('SIGTERM');
    await exited(child);
    expect(await headOf(file)).toEqual({ number: BigInt(last.number), hash: last.hash });
  }, 180_000); // four CLI starts under tsx: ~15 s quiet, 56 s at load 20

  it('the atomic writer: SIGKILL in the middle of 8 MB writes leaves the previous file or the new one, whole', async () => {
    const target = join(dir, 'atomic.bin');
    const script = join(dir, 'writer.mts');
    const writer = new URL('../../src/persist/atomicFile.ts', import.meta.url).pathname;
    // Writes A (8 MB of "a") and B (6 MB of "b") in turn, forever, saying when each is in place.
    writeFileSync(
      script,
      `import { writeFileAtomic } from ${JSON.stringify(writer)};
const a = Buffer.alloc(8 << 20, 0x61), b = Buffer.alloc(6 << 20, 0x62);
for (let i = 0; ; i++) { await writeFileAtomic(process.argv[2], i % 2 ? b : a); process.stdout.write('w'); }`,
    );
    const random = prng(9);
    let midWrite = 0;
    // At least 3 rounds, and on until one kill lands in the middle of a write (at most 8).
    for (let round = 0; round < 8 && (round < 3 || midWrite === 0); round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', script, target], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, Math.floor(random() * 300)));
      child.kill('SIGKILL');
      await exited(child);
      if (existsSync(`${target}.tmp`)) midWrite++;
      const got = readFileSync(target);
      const whole = (got.length === 8 << 20 && got.every((x) => x === 0x61)) || (got.length === 6 << 20 && got.every((x) => x === 0x62));
      expect(whole, `round ${round}: ${got.length} bytes`).toBe(true);
    }
    expect(midWrite).toBeGreaterThan(0); // the kills did land in the middle of writes
  });

  it('interval dumps write only when the state changed', async () => {
    const out = join(dir, 'interval.bin');
    const gw = await start({ port: 0, chains: [seed], cache: false, state: { dump: out, interval: 0.05 } });
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
      expect(ok()).toBe(true);
    };
    try {
      await until(() => existsSync(out));
      const first = statSync(out).mtimeMs;
      await new Promise((r) => setTimeout(r, 400)); // 8 ticks with nothing new
      expect(statSync(out).mtimeMs).toBe(first);
      await gw.eth('alpha').mine({ blocks: 1 });
      await until(() => statSync(out).mtimeMs !== first);
    } finally {
      await gw.stop();
    }
    expect((await headOf(out)).number).toBe(1n);
  });

  it('documents the state flags and refuses bad combinations', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8' });
    const help = run('--help').stdout;
    for (const flag of ['--load-state FILE', '--dump-state FILE', '--state FILE', '--state-interval SECONDS']) expect(help).toContain(flag);
    for (const [args, message] of [
      [['--state', file, '--dump-state', file], 'give --state, or --load-state and --dump-state, not both'],
      [['--state-interval', '5'], '--state-interval needs --dump-state or --state (the file to write)'],
      [['--dump-state', file, '--state-interval', 'soon'], '--state-interval must be a positive number of seconds, got "soon"'],
    ] as const) {
      const r = run(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('refuses a truncated file, naming the problem', async () => {
    const copy = join(dir, 'truncated.bin');
    writeFileSync(copy, readFileSync(file));
    truncateSync(copy, Math.floor(readFileSync(copy).length / 2));
    await expect(headOf(copy)).rejects.toThrow(/devgate state file checksum mismatch \(truncated or damaged\)/);
    await expect(headOf(join(dir, 'missing.bin'))).rejects.toThrow(/does not exist/);
  });
});
