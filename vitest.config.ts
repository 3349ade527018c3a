import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three projects: `built` runs every test with the chain cache off (chains built from their seeds, so
 * no result depends on an earlier run), but for the few files `isolated` runs alone (see below); `restored` runs chosen e2e suites again with the cache on in a
 * fresh temporary directory (test/support/restoredCache.ts makes and removes it), so the gateway
 * serves chains restored from their chain images, as users get them on every start after the first.
 */
const restoredCacheDir = join(tmpdir(), `devgate-test-cache-${process.pid}`);
/**
 * Two workers: vitest's default is one fewer than the CPUs, which on a 2-core machine runs every file in one process
 * after the other (~13 min); with both cores the whole suite takes about half as long.
 *
 * One module graph per worker (`isolate: false`): importing src/ and its ~600 modules through vite's module runner took
 * ~2.2-2.4 s for every one of ~220 files, more than half of the workers' time; shared, each worker imports a module
 * once. A test file must therefore leave no module state behind (stop its gateways, restore its spies, put back any
 * environment variable or global it sets). The files below need a fresh module graph of their own and run isolated,
 * in the project `isolated` (`--project isolated`), each with the reason.
 */
const isolatedFiles = [
  // vi.mock('node:crypto') takes effect only if the key policy's modules are first imported after it.
  'test/gateway/policy/secretCompare.unit.test.ts',
  // Checks that decoding blob transactions never loaded the KZG trusted setup in its process (module state).
  'test/eth/engine/build/forkChain.test.ts',
  // A data directory is an lmdb environment (native, with its own threads and a process exit hook): kept out of the
  // shared workers as a precaution. (The worker deaths of the first shared runs were the fork key search's keccak
  // addon terminated inside a call, fixed in src/eth/engine/fork/keySearch.ts, not lmdb.)
  'test/persist/dataDir.test.ts',
  'test/persist/dataDirKill.test.ts',
  'test/persist/dataDirLoad.test.ts',
  'test/persist/dataDirTimestamps.test.ts',
  'test/persist/dataDirUnits.test.ts',
  'test/persist/minerPersists.test.ts',
  'test/fork/dataDir.test.ts',
  'test/foundation/lazyDataDir.test.ts',
];
/**
 * The e2e files the `restored` project runs again on chains restored from their images: one per way a restored chain
 * is used after its start (sends and mining, controls and snapshots, subscriptions, calls on fresh state, geth's exact
 * answers, the shipped mainnet, trace replays, the pending nonce, viem's actions, proofs after edits, dumps, the bare
 * address, the rollup's controls and a token). It ran every e2e file until now (~2 of the suite's ~9.5 minutes); that
 * every history read of a restored chain is the built chain's, byte for byte, is test/truth/builtVsRestored.test.ts.
 */
const restoredFiles = [
  'test/eth/node/e2e/eth-send-mine.test.ts',
  'test/eth/methods/dev/e2e/eth-controls.test.ts',
  'test/subscriptions/e2e/eth-subscriptions.test.ts',
  'test/eth/methods/e2e/eth-call-fresh.test.ts',
  'test/eth/methods/e2e/eth-geth-exact.test.ts',
  'test/eth/methods/e2e/eth-mainnet.test.ts',
  'test/eth/engine/trace/e2e/trace-replay.test.ts',
  'test/eth/methods/e2e/eth-pending-nonce.test.ts',
  'test/eth/methods/e2e/eth-viem.test.ts',
  'test/eth/methods/e2e/eth-proof-edits.test.ts',
  'test/eth/engine/persist/dump/e2e/dump-load.test.ts',
  'test/gateway/e2e/bare-address.test.ts',
  'test/rollup/starknet/e2e/starknet-controls.test.ts',
  'test/rollup/starknet/e2e/starknet-token.test.ts',
];
/** test/support/leftBehind.ts fails a file that leaves a server, fake timers, an environment variable or a process listener behind. */
const shared = { testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks' as const, isolate: false, setupFiles: ['test/support/leftBehind.ts'] };

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'built',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...isolatedFiles],
          env: { DEVGATE_CACHE_DIR: 'off' },
        },
      },
      { test: { ...shared, name: 'isolated', isolate: true, include: isolatedFiles, env: { DEVGATE_CACHE_DIR: 'off' } } },
      {
        test: {
          ...shared,
          name: 'restored',
          include: [...restoredFiles, 'test/eth/methods/e2e/gateway.test.ts', 'test/truth/restoredProject.test.ts', 'test/conformance/*.test.ts'],
          env: { DEVGATE_CACHE_DIR: restoredCacheDir },
          globalSetup: ['test/support/restoredCache.ts'],
        },
      },
    ],
  },
});
