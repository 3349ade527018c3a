/**
 * The two vitest projects serve the two paths: `built` (no cache dir under vitest: every chain built
 * from its seed) and `restored` (DEVGATE_CACHE_DIR set to a fresh directory: a start stores each eth
 * chain's image and serves the chain restored from it; a second start restores from the file).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir } from '../../src/cache/chainCache.js';
import { start } from '../../src/index.js';

const dir = process.env.DEVGATE_CACHE_DIR;

describe('the chain cache under vitest', () => {
  it.runIf(dir === undefined)('is off in the built project', () => {
    expect(defaultCacheDir()).toBeUndefined();
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
