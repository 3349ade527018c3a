/** The devgate command: help, bad flags, the ready line with every network's addresses, and a clean stop on SIGTERM. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, post } from '../support/http.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];

function seedFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'devgate-cli-'));
  const file = join(dir, 'alpha.json');
  writeFileSync(file, JSON.stringify({ name: 'alpha', kind: 'eth', chainId: 1 }));
  return file;
}

describe('devgate CLI', () => {
  it('documents every flag in --help', () => {
    const r = spawnSync(process.execPath, [...CLI, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const flag of ['--port', '--host', '--chain', '--help', '--version']) expect(r.stdout).toContain(flag);
  });

  it('rejects an unknown flag or a bad port with exit code 2 and a clear message', () => {
    const unknown = spawnSync(process.execPath, [...CLI, '--nope'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--nope/);
    const port = spawnSync(process.execPath, [...CLI, '--port', 'abc'], { encoding: 'utf8' });
    expect(port.status).toBe(2);
    expect(port.stderr).toMatch(/--port/);
  });

  it('fails with exit code 1 naming a bad seed file', () => {
    const r = spawnSync(process.execPath, [...CLI, '--port', '0', '--chain', '/no/such.json'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot read seed file \/no\/such\.json/);
  });

  it('prints each network with its URLs and a ready line, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [...CLI, '--port', '0', '--chain', seedFile()], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    try {
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
      expect(out).toMatch(/alpha \(eth, chain id 1\)/);
      expect(out).toContain(`http://${ready}/alpha/v3/<API_KEY>`);
      expect(out).toContain(`ws://${ready}/alpha/ws/v3/<API_KEY>`);
      expect((await call(`http://${ready}/alpha/v3/key`, 'eth_chainId')).result).toBe('0x1');
      // The admin interface's address and the token made at start, which it wants.
      const token = /Admin \(devgate_\*\) +http:\/\/(\S+)\/admin\n +Authorization: Bearer ([0-9a-f]{64})\n/.exec(out);
      expect(token?.[1]).toBe(ready);
      const listOutages = { jsonrpc: '2.0', id: 1, method: 'devgate_listOutages', params: [] };
      expect((await post(`http://${ready}/admin`, listOutages, { authorization: `Bearer ${token?.[2]}` })).json.result).toEqual([]);
      expect((await post(`http://${ready}/admin`, listOutages)).status).toBe(401);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      // A failed expectation must not leave the child running.
      child.kill('SIGKILL');
    }
  });
});
