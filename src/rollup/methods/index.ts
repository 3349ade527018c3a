/**
 * The dispatch table of rollup networks: the `rollup_` family (SPEC's shapes), the Starknet JSON-RPC
 * under the network's own prefix (`starknet_`, spec shapes and errors), plus devnet_ control.
 */
import { MethodTable } from '../../rpc/dispatch.js';
import type { MethodDef } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { devnet_acceptOnL1 } from './devnet_acceptOnL1.js';
import { devnet_createBlock } from './devnet_createBlock.js';
import { devnet_increaseTime } from './devnet_increaseTime.js';
import { devnet_rejectBlock } from './devnet_rejectBlock.js';
import { devnet_setTime } from './devnet_setTime.js';
import { devnet_postmanSendMessageToL2 } from './devnet_postmanSendMessageToL2.js';
import { rollup_addInvokeTransaction } from './rollup_addInvokeTransaction.js';
import { rollup_blockNumber } from './rollup_blockNumber.js';
import { rollup_chainId } from './rollup_chainId.js';
import { rollup_estimateFee } from './rollup_estimateFee.js';
import { rollup_getBlockWithTxHashes } from './rollup_getBlockWithTxHashes.js';
import { rollup_getTransactionReceipt } from './rollup_getTransactionReceipt.js';
import { STARKNET } from '../starknet/methods/index.js';

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
  return table;
}
