/** A small rollup seed for tests, built around the shipped chain's dev accounts. */
import { ManualClock } from '../../src/clock.js';
import { buildRollupChain } from '../../src/rollup/build.js';
import { RollupSeed } from '../../src/seed/rollup.js';
import { COUNTER, DEV_ACCOUNTS, ETH_TOKEN, SEQUENCER } from './make-starknet-seed.js';
import { hex, publicKeyOf } from './txs.js';

export { COUNTER, DEV_ACCOUNTS, ETH_TOKEN, SEQUENCER };
export const [ALICE, BOB, CAROL] = DEV_ACCOUNTS as [(typeof DEV_ACCOUNTS)[0], (typeof DEV_ACCOUNTS)[0], (typeof DEV_ACCOUNTS)[0]];
export const GWEI = 10n ** 9n;
export const WEI_PRICE = 30n * GWEI;
export const FRI_PRICE = 50_000n * GWEI;
export const START_MS = 1_000_000;
export const GENESIS_TS = 1_735_689_600;

const PUBLIC_KEYS = DEV_ACCOUNTS.map(publicKeyOf);

/** A rollup seed: three funded accounts, a fee token and a counter, one empty genesis block. */
export function testSeed(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'rollup-test',
    kind: 'rollup',
    chainId: 'SN_MAIN',
    sequencerAddress: SEQUENCER,
    gasPrices: { wei: hex(WEI_PRICE), fri: hex(FRI_PRICE) },
    accounts: DEV_ACCOUNTS.map((a, i) => ({ address: a.address, publicKey: PUBLIC_KEYS[i]!, balance: hex(10n ** 21n), strkBalance: hex(10n ** 24n) })),
    contracts: [
      { address: ETH_TOKEN, classHash: '0x1' },
      { address: COUNTER, classHash: '0x2', storage: { '0x7': '0x1' } },
    ],
    blocks: [{ timestamp: GENESIS_TS, status: 'ACCEPTED_ON_L1' }],
    ...overrides,
  };
}

/** A chain built from `testSeed(overrides)` on a manual clock at START_MS. */
export function testChain(overrides: Record<string, unknown> = {}) {
  const clock = new ManualClock(START_MS);
  const chain = buildRollupChain(RollupSeed.parse(testSeed(overrides)), clock);
  return { chain, clock };
}

/** Keys for tests: any key, on a plan without rate limits (the manual clock never ends a rate window). */
export const UNLIMITED_KEYS = { open: true, defaultPlan: 'growth', keys: [] };

/** One call to the counter, as most tests send. */
export const increase = (by: number) => [{ to: COUNTER, entrypoint: 'increase', calldata: [by] }];
