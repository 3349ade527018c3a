/** `devgate --dump-dir DIR`: devnet_dump writes into DIR by name, devnet_load reads it back, nothing outside DIR. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testSeed } from '../../fixture.js';
import { call } from '../../../support/http.js';

let dir: string | undefined;
afterAll(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));

describe('devgate --dump-dir', () => {
  it("names devgate's flags when given starknet-devnet's --dump-on / --dump-path", () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--dump-on', 'exit', '--dump-path', 'x.json'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--dump-on \/ --dump-path are starknet-devnet's; devgate dumps every network with --dump-state FILE/);
    expect(r.stderr).toMatch(/--dump-dir DIR/);
  });

  it('opens DIR, and only DIR, to devnet_dump and devnet_load', async () => {
    dir = await mkdtemp(join(tmpdir(), 'devgate-dumpdir-cli-'));
    const seed = join(dir, 'rollup.json');
    await writeFile(seed, JSON.stringify(testSeed()));
    const dumps = join(dir, 'dumps'); // created by devgate
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--no-cache', '--chain', seed, '--dump-dir', dumps], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const ready = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line; output so far:\n${out}`)), 30_000);
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const m = /Listening on (127\.0\.0\.1:\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      const url = `http://${ready}/rollup-test/v3/key`;
      expect((await call(url, 'devnet_dump', { path: 'a.json' })).result).toBeNull();
      const head = (await call(url, 'starknet_blockHashAndNumber', {})).result;
      expect(JSON.parse(await readFile(join(dumps, 'a.json'), 'utf8'))).toMatchObject({ format: 'devgate-rollup-dump/1', block_hash: head.block_hash });
      await call(url, 'devnet_createBlock', {});
      expect((await call(url, 'devnet_load', { path: join(dumps, 'a.json') })).result).toEqual({});
      expect((await call(url, 'starknet_blockHashAndNumber', {})).result).toEqual(head);
      const outside = await call(url, 'devnet_dump', { path: join(dir, 'b.json') });
      expect(outside.error.code).toBe(-32602);
      expect(existsSync(join(dir, 'b.json'))).toBe(false);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
