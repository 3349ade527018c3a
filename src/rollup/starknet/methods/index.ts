/** The `starknet_` family: Starknet JSON-RPC spec 0.8 methods, served under a rollup network's own prefix. */
import type { MethodDef } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { starknet_addInvokeTransaction } from './starknet_addInvokeTransaction.js';
import { starknet_getClass } from './starknet_getClass.js';
import { starknet_getClassAt } from './starknet_getClassAt.js';
import { starknet_getStateUpdate } from './starknet_getStateUpdate.js';
import { starknet_addDeclareTransaction } from './starknet_addDeclareTransaction.js';
import { starknet_addDeployAccountTransaction } from './starknet_addDeployAccountTransaction.js';
import { starknet_simulateTransactions } from './starknet_simulateTransactions.js';
import { starknet_estimateMessageFee } from './starknet_estimateMessageFee.js';
import { starknet_getMessagesStatus } from './starknet_getMessagesStatus.js';
import { starknet_traceBlockTransactions } from './starknet_traceBlockTransactions.js';
import { starknet_traceTransaction } from './starknet_traceTransaction.js';
import { starknet_blockHashAndNumber } from './starknet_blockHashAndNumber.js';
import { starknet_blockNumber } from './starknet_blockNumber.js';
import { starknet_chainId } from './starknet_chainId.js';
import { starknet_estimateFee } from './starknet_estimateFee.js';
import { starknet_getEvents } from './starknet_getEvents.js';
import { starknet_getTransactionByBlockIdAndIndex } from './starknet_getTransactionByBlockIdAndIndex.js';
import { starknet_call } from './starknet_call.js';
import { starknet_getBlockTransactionCount } from './starknet_getBlockTransactionCount.js';
import { starknet_getBlockWithReceipts } from './starknet_getBlockWithReceipts.js';
import { starknet_getBlockWithTxHashes } from './starknet_getBlockWithTxHashes.js';
import { starknet_getBlockWithTxs } from './starknet_getBlockWithTxs.js';
import { starknet_getClassHashAt } from './starknet_getClassHashAt.js';
import { starknet_getNonce } from './starknet_getNonce.js';
import { starknet_getStorageAt } from './starknet_getStorageAt.js';
import { starknet_getTransactionByHash } from './starknet_getTransactionByHash.js';
import { starknet_getTransactionReceipt } from './starknet_getTransactionReceipt.js';
import { starknet_getTransactionStatus } from './starknet_getTransactionStatus.js';
import { starknet_specVersion } from './starknet_specVersion.js';
import { starknet_syncing } from './starknet_syncing.js';

export const STARKNET: readonly MethodDef<RollupContext, any>[] = [
  starknet_specVersion,
  starknet_chainId,
  starknet_blockNumber,
  starknet_blockHashAndNumber,
  starknet_syncing,
  starknet_getNonce,
  starknet_getStorageAt,
  starknet_getClassHashAt,
  starknet_getBlockWithTxHashes,
  starknet_getBlockWithTxs,
  starknet_getBlockWithReceipts,
  starknet_getBlockTransactionCount,
  starknet_getTransactionByHash,
  starknet_getTransactionReceipt,
  starknet_getTransactionStatus,
  starknet_estimateFee,
  starknet_getTransactionByBlockIdAndIndex,
  starknet_getEvents,
  starknet_call,
  starknet_addInvokeTransaction,
  starknet_getStateUpdate,
  starknet_getClass,
  starknet_getClassAt,
  starknet_addDeployAccountTransaction,
  starknet_addDeclareTransaction,
  starknet_simulateTransactions,
  starknet_estimateMessageFee,
  starknet_getMessagesStatus,
  starknet_traceTransaction,
  starknet_traceBlockTransactions,
];
