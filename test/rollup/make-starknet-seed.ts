/**
 * Builds chains/starknet-mainnet.json deterministically: dev accounts (keys in docs/rollup.md "Shipped accounts"), fee tokens,
 * a counter contract, blocks in every status (ACCEPTED_ON_L1, ACCEPTED_ON_L2, REJECTED) with real
 * signed INVOKE v1 and v3 transactions, events and messages to L1, and a pending transaction.
 * Run: npx tsx test/rollup/make-starknet-seed.ts (the rollup tests check the file is up to date).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contractAddress } from '../../src/rollup/engine/hash.js';
import { ACCOUNT_CLASS, COUNTER_CLASS, ERC20_CLASS, SEED_CLASSES } from './classes.js';
import { hex, invokeV1, invokeV3, publicKeyOf, selector, type TestAccount } from './txs.js';

/** Dev accounts of the shipped rollup (starknet-devnet's seed-0 keys and addresses). */
export const DEV_ACCOUNTS: readonly TestAccount[] = [
  { address: '0x64b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691', privateKey: '0x71d7bb07b9a64f6f78ac4c816aff4da9' },
  { address: '0x78662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1', privateKey: '0xe1406455b7d66b1690803be066cbe5e' },
  { address: '0x49dfb8ce986e21d354ac93ea65e6a11f639c1934ea253e5ff14ca62eca0f38e', privateKey: '0xa20a02f0ac53692d144b20cb371a60d7' },
];

/**
 * A key whose account is not deployed: the shipped chain funds the address a DEPLOY_ACCOUNT of the
 * shipped account class puts it at (salt = public key, constructor calldata = [public key]).
 */
export const UNDEPLOYED_KEY = '0x5d6f2a9c1e3b4870a9c2d1e0f3b6a58';
export const UNDEPLOYED_PUBLIC_KEY = publicKeyOf({ address: '0x0', privateKey: UNDEPLOYED_KEY });
export const UNDEPLOYED_ADDRESS = hex(contractAddress(BigInt(UNDEPLOYED_PUBLIC_KEY), BigInt(ACCOUNT_CLASS.classHash), [BigInt(UNDEPLOYED_PUBLIC_KEY)]));

export const ETH_TOKEN = '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
export const STRK_TOKEN = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
export const COUNTER = '0x2c1ea0a5d1b1c5b4cbb3a8a2a3f1a2a4b7c2d7f0e3a1b2c3d4e5f60718293a4';
export const SEQUENCER = '0x1176a1bd84444c89232ec27754698e5d2e7e1a7f1539f12027f28b23ec9f3d8';
/** An L1 (eth mainnet) contract the counter sends messages to. */
export const L1_RECEIVER = '0xae0ee0a63a2ce6baeeffe56e7714fb4efe48d419';

const [alice, bob, carol] = DEV_ACCOUNTS as [TestAccount, TestAccount, TestAccount];
const transferEvent = (from: string, to: string, amount: bigint) => ({
  from_address: ETH_TOKEN,
  keys: [selector('Transfer')],
  data: [from, to, hex(amount), '0x0'],
});

export function starknetMainnetSeed(): Record<string, unknown> {
  const t1 = invokeV1(alice, [{ to: ETH_TOKEN, entrypoint: 'transfer', calldata: [bob.address, 10n ** 18n, 0n] }], 0);
  const t2 = invokeV3(bob, [{ to: COUNTER, entrypoint: 'increase_and_notify', calldata: [5n] }], 0);
  const t3 = invokeV1(alice, [{ to: COUNTER, entrypoint: 'increase', calldata: [1n] }], 1);
  const t4 = invokeV1(carol, [{ to: ETH_TOKEN, entrypoint: 'transfer', calldata: [alice.address, 5n * 10n ** 17n, 0n] }], 0);
  const t5 = invokeV3(bob, [{ to: COUNTER, entrypoint: 'increase', calldata: [2n] }], 1);
  const t6 = invokeV1(carol, [{ to: COUNTER, entrypoint: 'increase', calldata: [3n] }], 0);
  return {
    $schema: './seed.schema.json',
    name: 'starknet-mainnet',
    kind: 'rollup',
    chainId: 'SN_MAIN',
    prefix: 'starknet',
    starknetVersion: '0.13.4',
    sequencerAddress: SEQUENCER,
    gasPrices: { wei: hex(30n * 10n ** 9n), fri: hex(50_000n * 10n ** 9n) },
    dataGasPrices: { wei: hex(10n ** 9n), fri: hex(1_700n * 10n ** 9n) },
    l2GasPrices: { wei: hex(4_800_000n), fri: hex(8n * 10n ** 9n) },
    l1DaMode: 'BLOB',
    l1Acceptance: { kind: 'time', delayMs: 600_000 },
    classes: SEED_CLASSES,
    fundedAddresses: [{ address: UNDEPLOYED_ADDRESS, balance: hex(10n ** 18n), strkBalance: hex(100n * 10n ** 18n) }],
    accounts: DEV_ACCOUNTS.map((a) => ({
      address: a.address,
      publicKey: publicKeyOf(a),
      classHash: ACCOUNT_CLASS.classHash,
      balance: hex(1000n * 10n ** 18n),
      strkBalance: hex(1000n * 10n ** 18n),
      privateKey: a.privateKey,
    })),
    contracts: [
      { address: ETH_TOKEN, classHash: ERC20_CLASS.classHash, storage: {} },
      { address: STRK_TOKEN, classHash: ERC20_CLASS.classHash, storage: {} },
      { address: COUNTER, classHash: COUNTER_CLASS.classHash, storage: { [selector('counter')]: '0x0' } },
    ],
    blocks: [
      { timestamp: 1735689600, status: 'ACCEPTED_ON_L1', transactions: [] },
      {
        timestamp: 1735689630,
        status: 'ACCEPTED_ON_L1',
        transactions: [
          {
            transaction: t1,
            outcome: {
              events: [transferEvent(alice.address, bob.address, 10n ** 18n)],
              storage_writes: [{ contract_address: ETH_TOKEN, key: selector('ERC20_balances'), value: hex(10n ** 18n) }],
            },
          },
        ],
      },
      {
        timestamp: 1735689660,
        status: 'ACCEPTED_ON_L1',
        transactions: [
          {
            transaction: t2,
            outcome: {
              events: [{ from_address: COUNTER, keys: [selector('CounterIncreased')], data: ['0x5'] }],
              messages_sent: [{ from_address: COUNTER, to_address: L1_RECEIVER, payload: ['0x5', bob.address] }],
              storage_writes: [{ contract_address: COUNTER, key: selector('counter'), value: '0x5' }],
            },
          },
        ],
      },
      { timestamp: 1735689690, status: 'ACCEPTED_ON_L2', transactions: [{ transaction: t3 }] },
      { timestamp: 1735689720, status: 'REJECTED', transactions: [{ transaction: t4 }] },
      { timestamp: 1735689750, status: 'ACCEPTED_ON_L2', transactions: [{ transaction: t5 }] },
    ],
    pending: [{ transaction: t6 }],
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = fileURLToPath(new URL('../../chains/starknet-mainnet.json', import.meta.url));
  writeFileSync(out, JSON.stringify(starknetMainnetSeed(), null, 2) + '\n');
  console.log(`wrote ${out}`);
}
