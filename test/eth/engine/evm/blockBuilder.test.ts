/**
 * The EVM fence's BlockBuilder helpers (evm/blockBuilder.ts) against stock @ethereumjs: transactions run with runTx
 * and recorded, then built with buildWithTransactions, give the same block (hash, roots, gas, bloom) as the
 * builder's own addTransaction and build(). And the log/SELFDESTRUCT hooks (evm/logHook.ts) see the logs runTx reports.
 */
import { createBlock } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { Account, bytesToHex, createAddressFromPrivateKey, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { buildBlock, createVM, runTx, type VM } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import type { Log } from '@ethereumjs/evm';
import { buildWithTransactions, openBuilder, recordTransaction } from '../../../../src/eth/engine/evm/blockBuilder.js';
import { hookLogs } from '../../../../src/eth/engine/evm/logHook.js';

const KEY = hexToBytes(`0x${'11'.repeat(32)}`);
const SENDER = createAddressFromPrivateKey(KEY);
const EMITTER = createAddressFromString('0x00000000000000000000000000000000000000e1');
const INNER = createAddressFromString('0x00000000000000000000000000000000000000e2');
/** LOG1(topic 0xaa) of nothing, CALL INNER, LOG0 of 1 byte, STOP. */
const EMITTER_CODE = hexToBytes('0x60aa60006000a1600060006000600060007300000000000000000000000000000000000000e25af15060016000a000');
/** LOG0 of nothing, then SELFDESTRUCT to 0xe3. */
const INNER_CODE = hexToBytes('0x60006000a060e3ff');

async function freshVm(): Promise<VM> {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
  const vm = await createVM({ common, stateManager: new MerkleStateManager({ common }) });
  await vm.stateManager.putAccount(SENDER, new Account(0n, 10n ** 18n));
  await vm.stateManager.putAccount(EMITTER, new Account());
  await vm.stateManager.putCode(EMITTER, EMITTER_CODE);
  await vm.stateManager.putAccount(INNER, new Account(0n, 5n));
  await vm.stateManager.putCode(INNER, INNER_CODE);
  return vm;
}

const parentOf = (vm: VM) => createBlock({ header: { number: 0n, gasLimit: 30_000_000n, baseFeePerGas: 7n, timestamp: 1n } }, { common: vm.common });
const txs = (vm: VM) =>
  [0n, 1n].map((nonce) =>
    createFeeMarket1559Tx({ nonce, to: EMITTER, gasLimit: 200_000n, maxFeePerGas: 100n, maxPriorityFeePerGas: 1n, chainId: 1n }, { common: vm.common }).sign(
      KEY,
    ),
  );
const header = { timestamp: 13n, gasLimit: 30_000_000n, parentBeaconBlockRoot: new Uint8Array(32) };

describe('recordTransaction + buildWithTransactions', () => {
  const WITHDRAWAL = { index: 0n, validatorIndex: 7n, address: INNER, amount: 3n };
  it.each([
    ['no withdrawals', []],
    ['a withdrawal', [WITHDRAWAL]],
  ])('build the same block as the builder with addTransaction (%s)', async (_name, withdrawals) => {
    const stockVm = await freshVm();
    const stock = await buildBlock(stockVm, {
      parentBlock: parentOf(stockVm),
      headerData: header,
      withdrawals,
      blockOpts: { putBlockIntoBlockchain: false },
    });
    for (const tx of txs(stockVm)) await stock.addTransaction(tx);
    const { block: expected } = await stock.build();

    const vm = await freshVm();
    const builder = await buildBlock(vm, { parentBlock: parentOf(vm), headerData: header, withdrawals, blockOpts: { putBlockIntoBlockchain: false } });
    await openBuilder(builder);
    let gasUsed = 0n;
    const seen: Log[] = [];
    const selfdestructs: bigint[] = [];
    hookLogs(vm, { onLog: (log) => seen.push(log), onSelfdestruct: (_from, _to, value) => selfdestructs.push(value) });
    const logs: Log[] = [];
    for (const tx of txs(vm)) {
      const block = createBlock({ header: { ...header, number: 1n, baseFeePerGas: expected.header.baseFeePerGas, gasUsed } }, { common: vm.common });
      const result = await runTx(vm, { tx, block, blockGasUsed: gasUsed });
      recordTransaction(builder, tx, result);
      gasUsed += result.totalGasSpent;
      logs.push(...(result.execResult.logs ?? []));
    }
    const built = await buildWithTransactions(builder);
    expect(bytesToHex(built.hash())).toBe(bytesToHex(expected.hash()));
    expect(bytesToHex(built.header.stateRoot)).toBe(bytesToHex(expected.header.stateRoot));
    expect(bytesToHex(built.header.receiptTrie)).toBe(bytesToHex(expected.header.receiptTrie));
    expect(built.header.gasUsed).toBe(expected.header.gasUsed);
    expect(bytesToHex(built.header.withdrawalsRoot!)).toBe(bytesToHex(expected.header.withdrawalsRoot!));
    expect(built.withdrawals!.map((w) => w.toJSON())).toEqual(expected.withdrawals!.map((w) => w.toJSON()));
    expect(built.transactions.map((t) => bytesToHex(t.hash()))).toEqual(expected.transactions.map((t) => bytesToHex(t.hash())));
    // The hooks saw every log runTx reports, in order (3 per transaction), and the SELFDESTRUCT with its value.
    expect(seen.map(([a, t, d]) => [bytesToHex(a), t.map(bytesToHex), bytesToHex(d)])).toEqual(
      logs.map(([a, t, d]) => [bytesToHex(a), t.map(bytesToHex), bytesToHex(d)]),
    );
    expect(seen).toHaveLength(6);
    expect(selfdestructs).toEqual([5n, 0n]);
  });
});
