/**
 * The data directory's save after a control reads the `persists` fact (issue 25): miner_stop / miner_start (ganache's
 * automine switches, viem's setAutomine in ganache mode) were not saved, as the old name pattern missed miner_*.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../../src/index.js';
import { call } from '../support/http.js';

const dir = mkdtempSync(join(tmpdir(), 'devgate-miner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open = () => start({ port: 0, chains: ['test/fixtures/eth/small.json'], cache: false, dataDir: dir });

describe('miner_* with a data directory', () => {
  it('miner_stop is kept across a stop and start, and miner_start after it', async () => {
    let gw = await open();
    expect((await call(gw.url('small'), 'miner_stop')).result).toBe(true);
    await gw.stop();
    gw = await open();
    expect((await call(gw.url('small'), 'anvil_getAutomine')).result).toBe(false);
    expect((await call(gw.url('small'), 'miner_start')).result).toBe(true);
    await gw.stop();
    gw = await open();
    expect((await call(gw.url('small'), 'anvil_getAutomine')).result).toBe(true);
    await gw.stop();
  });
});
