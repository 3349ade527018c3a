import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: `built` runs every test with the chain cache off (chains built from their seeds, so
 * no result depends on an earlier run); `restored` runs the e2e suites again with the cache on in a
 * fresh temporary directory (test/support/restoredCache.ts makes and removes it), so the gateway
 * serves chains restored from their chain images, as users get them on every start after the first.
 */
const restoredCacheDir = join(tmpdir(), `devgate-test-cache-${process.pid}`);
/**
 * Two workers: vitest's default is one fewer than the CPUs, which on a 2-core machine runs every file in one process
 * after the other (~13 min); with both cores the whole suite takes about half as long. Files stay isolated (a fresh
 * module graph each): some tests check module state (the KZG setup not loaded, build facts of src/).
 */
const shared = { testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks' as const };

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'built', include: ['test/**/*.test.ts'], env: { DEVGATE_CACHE_DIR: 'off' } } },
      {
        test: {
          ...shared,
          name: 'restored',
          include: ['test/e2e/*.test.ts', 'test/eth/engine/gateway.test.ts', 'test/truth/restoredProject.test.ts', 'test/conformance/*.test.ts'],
          env: { DEVGATE_CACHE_DIR: restoredCacheDir },
          globalSetup: ['test/support/restoredCache.ts'],
        },
      },
    ],
  },
});
