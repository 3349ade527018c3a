/**
 * starknet_getStateUpdate, starknet_getClass and starknet_getClassAt on the engine in-process: class
 * hashes as starknet.js computes them, classes served as seeded, state diffs per block.
 */
import { poseidonHashMany } from '@scure/starknet';
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { sierraClassHash } from '../../../src/rollup/engine/classes.js';
import { rollupMethods } from '../../../src/rollup/methods/index.js';
import { classFromWire } from '../../../src/rollup/params.js';
import type { RollupChain } from '../../../src/rollup/engine/chain.js';
import { ACCOUNT_CLASS, COUNTER_CLASS, ERC20_CLASS, SEED_CLASSES } from '../classes.js';
import { ALICE, COUNTER, DEV_ACCOUNTS, ETH_TOKEN, increase, testChain } from '../fixture.js';
import { hex, invokeV3, selector } from '../txs.js';

const methods = rollupMethods('starknet');
const ask = async (chain: RollupChain, method: string, params: unknown, rpcVersion?: '0.9') => {
  const r: any = await methods.execute({ chain, networkName: 'rollup-test', rpcVersion }, { id: 1, method, params });
  return r;
};
const seeded = () =>
  testChain({
    classes: SEED_CLASSES,
    contracts: [
      { address: ETH_TOKEN, classHash: ERC20_CLASS.classHash },
      { address: COUNTER, classHash: COUNTER_CLASS.classHash, storage: { '0x7': '0x1' } },
      { address: '0x1234', classHash: '0x99' },
    ],
  }).chain;

describe('Sierra class hashes', () => {
  it('are the ones starknet.js computes', () => {
    for (const c of [ACCOUNT_CLASS, ERC20_CLASS, COUNTER_CLASS]) {
      expect(hex(sierraClassHash(classFromWire(c.contractClass as any)))).toBe(c.classHash);
      expect(hash.computeContractClassHash({ ...c.contractClass, abi: JSON.parse(c.contractClass.abi) } as any)).toBe(c.classHash);
    }
  });
});

describe('starknet_getClass / starknet_getClassAt', () => {
  it('serve a seeded class exactly as seeded, by hash and by contract', async () => {
    const chain = seeded();
    expect((await ask(chain, 'starknet_getClass', { block_id: 'latest', class_hash: COUNTER_CLASS.classHash })).result).toEqual(COUNTER_CLASS.contractClass);
    expect((await ask(chain, 'starknet_getClassAt', { block_id: 'latest', contract_address: COUNTER })).result).toEqual(COUNTER_CLASS.contractClass);
    expect((await ask(chain, 'starknet_getClassAt', ['pre_confirmed', ETH_TOKEN], '0.9')).result.abi).toBe(ERC20_CLASS.contractClass.abi);
  });

  it('answer 28 for an undeclared class, 20 for no contract, 24 for no block', async () => {
    const chain = seeded();
    expect((await ask(chain, 'starknet_getClass', ['latest', '0x99'])).error).toEqual({ code: 28, message: 'Class hash not found' });
    expect((await ask(chain, 'starknet_getClassAt', ['latest', '0x1234'])).error).toEqual({ code: 28, message: 'Class hash not found' });
    expect((await ask(chain, 'starknet_getClassAt', ['latest', '0x5678'])).error).toEqual({ code: 20, message: 'Contract not found' });
    expect((await ask(chain, 'starknet_getClass', [{ block_number: 7 }, COUNTER_CLASS.classHash])).error).toEqual({ code: 24, message: 'Block not found' });
  });
});

describe('starknet_getStateUpdate', () => {
  it('has genesis declare the seed classes and deploy the seed contracts from root 0', async () => {
    const chain = seeded();
    const u = (await ask(chain, 'starknet_getStateUpdate', [{ block_number: 0 }])).result;
    const head = chain.head();
    expect(u).toMatchObject({ block_hash: hex(head.hash), old_root: '0x0', new_root: hex(head.newRoot) });
    expect(u.state_diff.declared_classes.map((c: any) => c.class_hash).sort()).toEqual(
      [ACCOUNT_CLASS, ERC20_CLASS, COUNTER_CLASS].map((c) => c.classHash).sort(),
    );
    expect(u.state_diff.deployed_contracts).toHaveLength(DEV_ACCOUNTS.length + 3);
    // The seed's storage, and the ETH token's balances (3 accounts at 10^21 wei each, the total supply): they are its storage.
    expect(u.state_diff.storage_diffs).toHaveLength(2);
    expect(u.state_diff.storage_diffs).toContainEqual({ address: COUNTER, storage_entries: [{ key: '0x7', value: '0x1' }] });
    expect(u.state_diff.storage_diffs).toContainEqual({
      address: ETH_TOKEN,
      storage_entries: expect.arrayContaining([{ key: expect.any(String), value: '0x3635c9adc5dea00000' }]),
    });
    expect(u.state_diff.nonces).toEqual([]);
    expect(u.state_diff.deprecated_declared_classes).toEqual([]);
  });

  it("reports a block's nonces and storage writes, and the pending block without hash or new root", async () => {
    const chain = seeded();
    chain.addInvokeTransaction(await invokeOf(invokeV3(ALICE, increase(4), 0)));
    const pending = (await ask(chain, 'starknet_getStateUpdate', ['pending'])).result;
    expect(pending.block_hash).toBeUndefined();
    expect(pending.new_root).toBeUndefined();
    expect(pending.old_root).toBe(hex(chain.head().newRoot));
    const block = chain.createBlock();
    const u = (await ask(chain, 'starknet_getStateUpdate', [{ block_hash: hex(block.hash) }])).result;
    expect(u.state_diff).toEqual({ ...pending.state_diff });
    expect(u.state_diff).toEqual({
      storage_diffs: [{ address: COUNTER, storage_entries: [{ key: selector('increase'), value: hex(poseidonHashMany([4n])) }] }],
      deprecated_declared_classes: [],
      declared_classes: [],
      deployed_contracts: [],
      replaced_classes: [],
      nonces: [{ contract_address: ALICE.address, nonce: '0x1' }],
    });
    expect(u.old_root).toBe(pending.old_root);
    expect(u.new_root).toBe(hex(block.newRoot));
    expect((await ask(chain, 'starknet_getStateUpdate', [{ block_number: 5 }])).error.code).toBe(24);
  });
});

async function invokeOf(wire: Record<string, unknown>) {
  const { invokeTransaction } = await import('../../../src/rollup/params.js');
  return invokeTransaction(wire);
}
