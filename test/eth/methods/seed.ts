/**
 * The test chain of the eth_ read surface tests: an osaka chain that deploys the shipped Token,
 * Reverter, StorageLayout and Emitter, sends transactions of types 0, 1 and 2, emits logs, and keeps
 * two pending transactions. Plus a homestead chain for pre-Byzantium receipts.
 */
export const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
export const ACCOUNT2 = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
/** Runtime code `GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN`: returns the gas left at its start. */
export const GAS_LEFT_ADDRESS = '0x00000000000000000000000000000000000000a5';
export const GAS_LEFT_CODE = '0x5a60005260206000f3';

/** Addresses of the contracts the seed deploys (sender account 0, nonces 0..3). */
export const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
export const REVERTER = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
export const STORAGE_LAYOUT = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
export const EMITTER = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';

export const GAS_LIMIT = 30_000_000n;

/** Keys for test gateways: any key, on a plan without rate limits (tests send bursts). */
export const UNLIMITED = { open: true, defaultPlan: 'growth' } as const;

export function readSurfaceSeed(name = 'dev'): Record<string, unknown> {
  return {
    name,
    kind: 'eth',
    chainId: 1337,
    hardfork: 'osaka',
    genesis: { timestamp: '0x6553f100', gasLimit: '0x' + GAS_LIMIT.toString(16) },
    alloc: { [GAS_LEFT_ADDRESS]: { code: GAS_LEFT_CODE } },
    blocks: [
      {
        transactions: [
          { artifact: 'Token', label: 'token' },
          { artifact: 'Reverter', label: 'rev' },
          { artifact: 'StorageLayout', label: 'sl' },
          { artifact: 'Emitter', label: 'em' },
        ],
      },
      {
        transactions: [
          { to: '@token', artifact: 'Token', function: 'transfer', args: [ACCOUNT1, '1000'] },
          { to: ACCOUNT1, value: '0x1', type: 0 },
          { to: ACCOUNT1, value: '0x2', type: 1, accessList: [{ address: ACCOUNT2, storageKeys: ['0x' + '00'.repeat(31) + '01'] }] },
          { to: ACCOUNT2, value: '0x3', type: 2 },
          { to: '@sl', artifact: 'StorageLayout', function: 'setBalance', args: [ACCOUNT1, '777'] },
        ],
      },
      {
        transactions: [
          { from: 1, to: '@token', artifact: 'Token', function: 'transfer', args: [ACCOUNT2, '10'] },
          { to: '@em', artifact: 'Emitter', function: 'emitMany', args: ['12'] },
          { to: '@rev', artifact: 'Reverter', function: 'increment' },
        ],
      },
      { transactions: [] },
    ],
    pending: [
      { to: ACCOUNT1, value: '0x5' },
      { from: 2, to: ACCOUNT1, value: '0x6', type: 0 },
    ],
  };
}
