/**
 * Bad input to the new starknet_ methods is a -32602 naming the problem and changes nothing; the
 * gateway's versioned paths resolve as documented.
 */
import { describe, expect, it } from 'vitest';
import { resolveRoute } from '../../../src/gateway/route.js';
import { rollupMethods } from '../../../src/rollup/methods/index.js';
import { SEED_CLASSES } from '../classes.js';
import { ALICE, testChain } from '../fixture.js';

const methods = rollupMethods('starknet');

describe('bad params of the new methods', () => {
  it('are -32602 with the member named, and leave the chain as it was', async () => {
    const { chain } = testChain({ classes: SEED_CLASSES });
    const root = chain.head().newRoot;
    const ask = async (method: string, params: unknown): Promise<any> => methods.execute({ chain, networkName: 't' }, { id: 1, method, params });
    const v3 = {
      version: '0x3',
      signature: [],
      nonce: '0x0',
      resource_bounds: { l1_gas: { max_amount: '0x1', max_price_per_unit: '0x1' }, l2_gas: { max_amount: '0x0', max_price_per_unit: '0x0' } },
    };
    const cases: [string, unknown, RegExp][] = [
      [
        'starknet_addDeclareTransaction',
        { declare_transaction: { type: 'DECLARE', ...v3, sender_address: ALICE.address, compiled_class_hash: '0x1' } },
        /contract_class/,
      ],
      [
        'starknet_addDeclareTransaction',
        {
          declare_transaction: {
            type: 'DECLARE',
            ...v3,
            sender_address: ALICE.address,
            compiled_class_hash: '0x1',
            contract_class: { ...SEED_CLASSES[0]!.contractClass, abi: [] },
          },
        },
        /abi/,
      ],
      [
        'starknet_addDeclareTransaction',
        {
          declare_transaction: {
            type: 'DECLARE',
            ...v3,
            version: '0x2',
            sender_address: ALICE.address,
            compiled_class_hash: '0x1',
            contract_class: SEED_CLASSES[0]!.contractClass,
          },
        },
        /version/,
      ],
      [
        'starknet_addDeployAccountTransaction',
        { deploy_account_transaction: { type: 'DEPLOY_ACCOUNT', ...v3, class_hash: '0x1', contract_address_salt: 'zz', constructor_calldata: [] } },
        /contract_address_salt/,
      ],
      ['starknet_addDeployAccountTransaction', { deploy_account_transaction: null }, /DEPLOY_ACCOUNT/],
      ['starknet_simulateTransactions', { block_id: 'latest', transactions: [], simulation_flags: ['SKIP_EVERYTHING'] }, /simulation flag/],
      ['starknet_simulateTransactions', { block_id: 'latest', transactions: [{ type: 'DEPLOY' }], simulation_flags: [] }, /type/],
      ['starknet_getStateUpdate', { block_id: 'safe' }, /block tag/],
      ['starknet_getClass', { block_id: 'latest', class_hash: '0x' + 'f'.repeat(64) }, /felt/],
      [
        'starknet_estimateMessageFee',
        { message: { from_address: '0x1', to_address: '0x1', entry_point_selector: '0x1', payload: 'x' }, block_id: 'latest' },
        /payload/,
      ],
    ];
    for (const [method, params, message] of cases) {
      const r = await ask(method, params);
      expect(r.error?.code, `${method} ${JSON.stringify(params).slice(0, 80)}`).toBe(-32602);
      expect(r.error.message).toMatch(message);
    }
    expect(chain.head().newRoot).toBe(root);
    expect(chain.pending().transactions).toHaveLength(0);
  });
});

describe('versioned paths', () => {
  const nets = new Set(['starknet-mainnet']);
  it('resolve /v3/<key>/rpc/v0_9 to the key and version, and nothing else after the key', () => {
    expect(resolveRoute('/starknet-mainnet/v3/abc/rpc/v0_9', undefined, nets)).toEqual({
      kind: 'rpc',
      network: 'starknet-mainnet',
      key: 'abc',
      transport: 'http',
      rpcVersion: '0_9',
    });
    expect(resolveRoute('/starknet-mainnet/ws/v3/abc/rpc/v0_8', undefined, nets)).toMatchObject({ kind: 'rpc', transport: 'ws', rpcVersion: '0_8' });
    expect(resolveRoute('/starknet-mainnet/v3/abc', undefined, nets)).toEqual({ kind: 'rpc', network: 'starknet-mainnet', key: 'abc', transport: 'http' });
    expect(resolveRoute('/starknet-mainnet/v3/abc/rpc/0_9', undefined, nets).kind).toBe('not-found');
    expect(resolveRoute('/starknet-mainnet/v3/abc/rpc', undefined, nets).kind).toBe('not-found');
    expect(resolveRoute('/starknet-mainnet/v3/abc/x/v0_9', undefined, nets).kind).toBe('not-found');
  });
});
