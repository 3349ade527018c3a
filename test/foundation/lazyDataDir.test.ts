/**
 * A start without a data directory never loads the data directory's code and its LMDB native module
 * (~12 MB of RSS and a 16 MB buffer, for nothing); a start with one does. Linux: read from /proc/self/maps.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const probe = (dataDir: string | undefined) => {
  const code = `
    const { start } = await import('./src/index.ts');
    const gw = await start({ port: 0, host: '127.0.0.1', chains: ['test/fixtures/eth/small.json'], cache: false${dataDir === undefined ? '' : `, dataDir: ${JSON.stringify(dataDir)}`} });
    const maps = (await import('node:fs')).readFileSync('/proc/self/maps', 'utf8');
    console.log(JSON.stringify({ lmdb: /lmdb/.test(maps) }));
    await gw.stop();`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (!line.startsWith('{')) throw new Error(`probe failed: ${run.stderr.slice(0, 500)}`);
  return JSON.parse(line) as { lmdb: boolean };
};

describe.skipIf(process.platform !== 'linux')('the data directory code', () => {
  it('is not loaded without a data directory, and is with one', () => {
    expect(probe(undefined).lmdb).toBe(false);
    expect(probe(join(mkdtempSync(join(tmpdir(), 'devgate-lazy-dd-')), 'data')).lmdb).toBe(true);
  }, 60_000);
});
