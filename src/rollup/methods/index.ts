/**
 * The dispatch table of rollup networks: the `rollup_` family (SPEC's shapes), the Starknet JSON-RPC
 * under the network's own prefix (`starknet_`, spec shapes and errors), plus devnet_ control.
 */
import { MethodTable } from '../../rpc/dispatch.js';
import type { MethodDef } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { devnet_abortBlocks } from './devnet_abortBlocks.js';
import { devnet_acceptOnL1 } from './devnet_acceptOnL1.js';
import { devnet_createBlock } from './devnet_createBlock.js';
import { devnet_dump } from './devnet_dump.js';
import { devnet_getAccountBalance } from './devnet_getAccountBalance.js';
import { devnet_getConfig } from './devnet_getConfig.js';
import { devnet_getAccounts, devnet_getPredeployedAccounts } from './devnet_getPredeployedAccounts.js';
import { devnet_increaseTime } from './devnet_increaseTime.js';
import { devnet_load } from './devnet_load.js';
import { devnet_mint } from './devnet_mint.js';
import { devnet_rejectBlock } from './devnet_rejectBlock.js';
import { devnet_restart } from './devnet_restart.js';
import { devnet_revert } from './devnet_revert.js';
import { devnet_setGasPrice } from './devnet_setGasPrice.js';
import { devnet_setTime } from './devnet_setTime.js';
import { devnet_postmanSendMessageToL2 } from './devnet_postmanSendMessageToL2.js';
import { devnet_snapshot } from './devnet_snapshot.js';
import { rollup_addInvokeTransaction } from './rollup_addInvokeTransaction.js';
import { rollup_blockNumber } from './rollup_blockNumber.js';
import { rollup_chainId } from './rollup_chainId.js';
import { rollup_estimateFee } from './rollup_estimateFee.js';
import { rollup_getBlockWithTxHashes } from './rollup_getBlockWithTxHashes.js';
import { rollup_getTransactionReceipt } from './rollup_getTransactionReceipt.js';
import { STARKNET } from '../starknet/methods/index.js';

/** Test controls after starknet-devnet (mint, balances, accounts, config, gas prices, abort) and snapshots. */
const CONTROLS: readonly MethodDef<RollupContext, any>[] = [
  devnet_mint,
  devnet_getAccountBalance,
  devnet_getPredeployedAccounts,
  devnet_getAccounts,
  devnet_getConfig,
  devnet_setGasPrice,
  devnet_abortBlocks,
  devnet_snapshot,
  devnet_revert,
  devnet_restart,
  devnet_dump,
  devnet_load,
];

const ROLLUP: readonly MethodDef<RollupContext, any>[] = [
  rollup_getBlockWithTxHashes,
  rollup_getTransactionReceipt,
  rollup_estimateFee,
  rollup_addInvokeTransaction,
  rollup_chainId,
  rollup_blockNumber,
];

const DEVNET: readonly MethodDef<RollupContext, any>[] = [devnet_createBlock, devnet_acceptOnL1, devnet_rejectBlock, devnet_setTime, devnet_increaseTime];
/** L1 -> L2 messaging (starknet_getMessagesStatus reads what it delivers). */
const MESSAGING: readonly MethodDef<RollupContext, any>[] = [devnet_postmanSendMessageToL2];

/** The table of a rollup network whose own prefix is `prefix` (e.g. `starknet`). */
export function rollupMethods(prefix: string): MethodTable<RollupContext> {
  const table = new MethodTable<RollupContext>(DEVNET);
  for (const def of MESSAGING) table.add(def);
  for (const def of ROLLUP) table.add(def);
  for (const def of STARKNET) table.add({ ...def, name: def.name.replace(/^starknet_/, `${prefix}_`) });
  for (const def of CONTROLS) table.add(def);
  return table;
}

/** A table without its dev methods (the `dev` fact; dev methods off: `start({ devMethods: false })`, `--no-dev-methods`). */
export function withoutDevnet(table: MethodTable<RollupContext>): MethodTable<RollupContext> {
  return new MethodTable(
    table
      .names()
      .filter((name) => table.get(name)!.facts?.dev !== true)
      .map((name) => ({ ...table.get(name)!, name })),
  );
}
