/** The policy flags of the devgate command: --keys, --plan, the limits and the admin token, documented in --help; the bind warning. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { post } from '../support/http.js';
import { rpc } from './helpers.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];
const dir = mkdtempSync(join(tmpdir(), 'devgate-cli-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('devgate policy flags', () => {
  it("checks a limit flag's value by the limit's own schema (0 only where it means none)", () => {
    const bad = (flag: string, value: string) => spawnSync(process.execPath, [...CLI, `${flag}=${value}`], { encoding: 'utf8' });
    const zero = bad('--max-batch', '0');
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain('--max-batch must be a positive whole number, got "0"');
    const negative = bad('--max-queued-heavy-bytes', '-1');
    expect(negative.status).toBe(2);
    expect(negative.stderr).toContain('--max-queued-heavy-bytes must be a whole number (0 or more), got "-1"');
  });

  it('documents them in --help', () => {
    const r = spawnSync(process.execPath, [...CLI, '--help'], { encoding: 'utf8' });
    for (const flag of [
      '--keys',
      '--plan',
      '--max-batch',
      '--max-body-bytes',
      '--max-message-bytes',
      '--request-timeout',
      '--headers-timeout',
      '--keep-alive-timeout',
      '--admin-token',
      'DEVGATE_ADMIN_TOKEN',
      '--max-mine-blocks',
      '--txpool-max-tx-bytes',
      '--max-filters',
      '--max-filter-bytes',
      '--max-filter-bytes-per-key',
      '--max-filter-bytes-total',
      '--max-subscriptions-per-key',
      '--max-buffered-bytes-per-key',
      '--max-buffered-bytes-total',
      '--max-queued-heavy-bytes',
      '/admin',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('serves the keys of --keys with the limits given, takes DEVGATE_ADMIN_TOKEN over the keys file, and warns when bound beyond 127.0.0.1', async () => {
    const seed = join(dir, 'alpha.json');
    writeFileSync(seed, JSON.stringify({ name: 'alpha', kind: 'eth', chainId: 1 }));
    const keys = join(dir, 'keys.json');
    writeFileSync(keys, JSON.stringify({ adminToken: 'from-file', keys: [{ key: 'mine', plan: 'growth' }] }));
    const child = spawn(
      process.execPath,
      [...CLI, '--port', '0', '--host', '0.0.0.0', '--chain', seed, '--keys', keys, '--max-batch', '2', '--max-filters', '1'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, DEVGATE_ADMIN_TOKEN: 'from-env' },
      },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    try {
      const port = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line:\n${out}\n${err}`)), 30_000);
        child.stdout.on('data', (c) => {
          out += c;
          const m = /Listening on [^\s]+:(\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      expect(err).toMatch(/warning: bound to 0\.0\.0\.0, not 127\.0\.0\.1/);
      const base = `http://127.0.0.1:${port}/alpha/v3`;
      expect((await post(`${base}/mine`, rpc('eth_chainId'))).json.result).toBe('0x1');
      expect((await post(`${base}/other`, rpc('eth_chainId'))).status).toBe(401);
      const batch = await post(`${base}/mine`, [rpc('eth_chainId', [], 1), rpc('eth_chainId', [], 2), rpc('eth_chainId', [], 3)]);
      expect(batch.json.error.code).toBe(-32005);
      // --max-filters 1: a second filter evicts the first.
      const first = (await post(`${base}/mine`, rpc('eth_newBlockFilter'))).json.result;
      expect((await post(`${base}/mine`, rpc('eth_newBlockFilter'))).json.result).toMatch(/^0x/);
      expect((await post(`${base}/mine`, rpc('eth_getFilterChanges', [first]))).json.error.message).toBe('filter not found');
      expect(out).toContain('Authorization: Bearer from-env');
      const admin = `http://127.0.0.1:${port}/admin`;
      expect((await post(admin, rpc('devgate_listOutages'), { authorization: 'Bearer from-env' })).status).toBe(200);
      expect((await post(admin, rpc('devgate_listOutages'), { authorization: 'Bearer from-file' })).status).toBe(401);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('passes --admin-token to start(), which names a bad one', () => {
    const seed = join(dir, 'beta.json');
    writeFileSync(seed, JSON.stringify({ name: 'beta', kind: 'eth', chainId: 1 }));
    const r = spawnSync(process.execPath, [...CLI, '--port', '0', '--chain', seed, '--admin-token', 'has space'], {
      encoding: 'utf8',
      env: { ...process.env, DEVGATE_ADMIN_TOKEN: 'from-env' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/adminToken: an admin token is 1 to 256 visible ASCII characters/);
  });
});
