/**
 * The two vitest projects serve the two paths: `built` (DEVGATE_CACHE_DIR=off: every chain built
 * from its seed) and `restored` (DEVGATE_CACHE_DIR set to a fresh directory: a start stores each eth
 * chain's image and serves the chain restored from it; a second start restores from the file).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir } from '../../src/cache/chainCache.js';
import { start } from '../../src/index.js';

const env = process.env.DEVGATE_CACHE_DIR;
const dir = env === 'off' ? undefined : env;

describe('the chain cache under vitest', () => {
  it.runIf(dir === undefined)('is off in the built project', () => {
    expect(defaultCacheDir()).toBeUndefined();
  });

  it('is on by default under vitest, in node_modules/.cache/devgate (a user suite needs no setup)', () => {
    const saved = process.env.DEVGATE_CACHE_DIR;
    delete process.env.DEVGATE_CACHE_DIR;
    try {
      expect(defaultCacheDir()).toBe(join(process.cwd(), 'node_modules', '.cache', 'devgate'));
    } finally {
      // Assigning undefined would store the string "undefined" for every later file of this worker.
      if (saved === undefined) delete process.env.DEVGATE_CACHE_DIR;
      else process.env.DEVGATE_CACHE_DIR = saved;
    }
  });

  it.runIf(dir !== undefined)('is on in the restored project: a start stores and serves chain images', async () => {
    const gw = await start({ port: 0 });
    try {
      const eth = gw.networks.filter((n) => n.kind === 'eth').map((n) => n.name);
      expect(eth.length).toBeGreaterThan(0);
      const files = readdirSync(dir!);
      for (const name of eth) expect(files.some((f) => f.startsWith(`${name}-`) && f.endsWith('.chain'))).toBe(true);
    } finally {
      await gw.stop();
    }
  });
});
