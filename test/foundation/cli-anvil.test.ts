/**
 * The devgate command for anvil users: anvil's flags shape the dev network at the bare address, which the banner
 * prints first; an unknown flag suggests the closest one; a port in use is reported before any chain is built; a
 * missing genesis file is named. (Before: "Unknown option" with no hint, and EADDRINUSE after the build.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];

function seedFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'devgate-cli-'));
  const file = join(dir, 'alpha.json');
  writeFileSync(file, JSON.stringify({ name: 'alpha', kind: 'eth', chainId: 1, accounts: { count: 0 } }));
  return file;
}

describe("devgate CLI with anvil's flags", () => {
  it('suggests the closest flag for an unknown one', () => {
    const r = spawnSync(process.execPath, [...CLI, '--acounts', '3'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Unknown option '--acounts' \(did you mean --accounts\?\)/);
    const far = spawnSync(process.execPath, [...CLI, '--zzzzzzzzzz'], { encoding: 'utf8' });
    expect(far.stderr).not.toMatch(/did you mean/);
  });

  it('reports a port in use before building any chain', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      // The shipped chains (seconds to build) are not built: the port is checked first.
      const r = spawnSync(process.execPath, [...CLI, '--port', String(port), '--no-cache'], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      busy.close();
    }
  });

  it('names a missing --init file', () => {
    const r = spawnSync(process.execPath, [...CLI, '--port', '0', '--init', '/no/such/genesis.json'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot read genesis file \/no\/such\/genesis\.json: ENOENT/);
  });

  it('serves the dev network its flags describe at the bare address, printed first', async () => {
    const args = [...CLI, '--port', '0', '--chain', seedFile(), '--accounts', '3', '--chain-id', '999', '--balance', '7', '--auto-impersonate'];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
      const lines = out.split('\n');
      expect(lines[0]).toBe('dev (eth, chain id 999) at the bare address, as the key devgate');
      expect(lines[1]).toBe(`  HTTP       http://${ready}/`);
      expect(lines[2]).toBe(`  WebSocket  ws://${ready}/`);
      expect(out).toContain(`http://${ready}/alpha/v3/<API_KEY>`);
      expect(out).toContain('Available accounts (dev)');
      const url = `http://${ready}/`;
      expect((await call(url, 'eth_chainId')).result).toBe('0x3e7');
      const accounts = (await call(url, 'eth_accounts')).result as string[];
      expect(accounts).toHaveLength(3);
      expect(BigInt((await call(url, 'eth_getBalance', [accounts[0], 'latest'])).result)).toBe(7n * 10n ** 18n);
      // --auto-impersonate: any address sends unsigned.
      const stranger = '0x00000000000000000000000000000000000000c1';
      await call(url, 'anvil_setBalance', [stranger, '0xde0b6b3a7640000']);
      expect((await call(url, 'eth_sendTransaction', [{ from: stranger, to: accounts[0], value: '0x1' }])).result).toMatch(/^0x[0-9a-f]{64}$/);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
