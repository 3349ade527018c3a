/**
 * The devgate command's node log, read from a spawned `node bin/devgate.js` (the built CLI, dist/ from `npm run
 * build`; skipped without one): after the banner it prints each transaction and block as anvil does, and `--silent`
 * prints neither banner nor log. Before, nothing was printed after the banner and --silent was an unknown option.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';

const built = existsSync('dist/.built');
const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

function seedFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'devgate-cli-log-')), 'alpha.json');
  writeFileSync(file, JSON.stringify({ name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } }));
  return file;
}

/** Runs the command until `fn` is done with its bare address; answers everything it printed. */
async function run(extra: string[], fn: (url: string) => Promise<void>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/devgate.js', '--port', String(port), '--chain', seedFile(), '--bare', 'dev', '--no-cache', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  try {
    // --silent prints no "Listening on" line: the bare address is polled until it answers.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await call(`http://127.0.0.1:${port}/`, 'eth_chainId').then(
        () => true,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`not serving; output so far:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await fn(`http://127.0.0.1:${port}/`);
    // The log is written as the block is sealed, before the answer: it is in the pipe by now, give it a tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return out;
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }),
  );
}

describe.skipIf(!built)('the node log of the devgate command', () => {
  it('prints each transaction and block after the banner', async () => {
    let hash = '';
    const out = await run([], async (url) => {
      hash = (await call(url, 'eth_sendTransaction', [{ from: ACCOUNT0, to: ACCOUNT0, value: '0x1' }])).result;
      await call(url, 'eth_blockNumber');
    });
    const after = out.slice(out.indexOf('Listening on'));
    expect(after).toContain(`\n    Transaction: ${hash}\n    Gas used: 21000\n\n    Block Number: 1\n    Block Hash: 0x`);
    expect(after).toMatch(/ {4}Block Time: "\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d \+0000"\n/);
  });

  it('--silent prints neither banner nor log', async () => {
    const out = await run(['--silent'], async (url) => {
      await call(url, 'eth_sendTransaction', [{ from: ACCOUNT0, to: ACCOUNT0, value: '0x1' }]);
    });
    expect(out).not.toMatch(/Listening on|Available accounts|Transaction:|Block Number/);
  });
});
