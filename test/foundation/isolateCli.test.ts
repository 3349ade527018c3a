/** The CLI's --isolate-keys, --isolate-max and --isolate-idle: documented in --help, checked, and a chain per key when on. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];

describe('devgate --isolate-keys', () => {
  it('documents the flags and refuses bad values with exit code 2', () => {
    const help = spawnSync(process.execPath, [...CLI, '--help'], { encoding: 'utf8' });
    for (const flag of ['--isolate-keys', '--isolate-max N', '--isolate-idle SECONDS']) expect(help.stdout).toContain(flag);
    const alone = spawnSync(process.execPath, [...CLI, '--isolate-max', '3'], { encoding: 'utf8' });
    expect(alone.status).toBe(2);
    expect(alone.stderr).toMatch(/--isolate-max and --isolate-idle need --isolate-keys/);
    const bad = spawnSync(process.execPath, [...CLI, '--isolate-keys', '--isolate-max', '0'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--isolate-max must be a whole number/);
  });

  it('serves each key its own chain, and the key devgate the shared one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devgate-isolate-'));
    const seed = join(dir, 'alpha.json');
    writeFileSync(seed, JSON.stringify({ name: 'alpha', kind: 'eth', chainId: 1 }));
    const child = spawn(process.execPath, [...CLI, '--port', '0', '--chain', seed, '--isolate-keys', '--isolate-max', '2'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    try {
      const ready = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line; output so far:\n${out}`)), 30_000);
        const look = (chunk: Buffer) => {
          out += chunk;
          const m = /Listening on (127\.0\.0\.1:\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        };
        child.stdout.on('data', look);
      });
      expect(out).toContain('Isolated per key: each API key but devgate gets its own copy of every eth network (at most 2; freed after 600 s idle)');
      const url = (key: string) => `http://${ready}/alpha/v3/${key}`;
      await call(url('one'), 'evm_mine');
      expect((await call(url('one'), 'eth_blockNumber')).result).toBe('0x1');
      expect((await call(url('two'), 'eth_blockNumber')).result).toBe('0x0');
      expect((await call(url('devgate'), 'eth_blockNumber')).result).toBe('0x0');
      expect((await call(url('three'), 'eth_blockNumber')).error).toMatchObject({ code: -32005, message: expect.stringMatching(/maxCopies 2/) });
    } finally {
      child.kill('SIGKILL');
    }
  });
});
