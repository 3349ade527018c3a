/** The dispatch table of eth_ networks: every method, one file each. */
import { MethodTable } from '../../rpc/dispatch.js';
import type { MethodDef } from '../../rpc/method.js';
import type { EthContext } from '../context.js';
import { eth_accounts } from './eth_accounts.js';
import { eth_blobBaseFee } from './eth_blobBaseFee.js';
import { eth_blockNumber } from './eth_blockNumber.js';
import { eth_call } from './eth_call.js';
import { eth_simulateV1 } from './eth_simulateV1.js';
import { eth_chainId } from './eth_chainId.js';
import { eth_createAccessList } from './eth_createAccessList.js';
import { eth_estimateGas } from './eth_estimateGas.js';
import { eth_feeHistory } from './eth_feeHistory.js';
import { eth_gasPrice } from './eth_gasPrice.js';
import { eth_getBalance } from './eth_getBalance.js';
import { eth_getBlockByHash } from './eth_getBlockByHash.js';
import { eth_getBlockByNumber } from './eth_getBlockByNumber.js';
import { eth_getBlockReceipts } from './eth_getBlockReceipts.js';
import { eth_getBlockTransactionCountByHash } from './eth_getBlockTransactionCountByHash.js';
import { eth_getBlockTransactionCountByNumber } from './eth_getBlockTransactionCountByNumber.js';
import { eth_getCode } from './eth_getCode.js';
import { eth_getLogs } from './eth_getLogs.js';
import { eth_getProof } from './eth_getProof.js';
import { eth_getStorageAt } from './eth_getStorageAt.js';
import { eth_getTransactionByBlockHashAndIndex } from './eth_getTransactionByBlockHashAndIndex.js';
import { eth_getTransactionByBlockNumberAndIndex } from './eth_getTransactionByBlockNumberAndIndex.js';
import { eth_getTransactionByHash } from './eth_getTransactionByHash.js';
import { eth_getTransactionCount } from './eth_getTransactionCount.js';
import { eth_getTransactionReceipt } from './eth_getTransactionReceipt.js';
import { eth_getUncleCountByBlockHash } from './eth_getUncleCountByBlockHash.js';
import { eth_getUncleCountByBlockNumber } from './eth_getUncleCountByBlockNumber.js';
import { eth_maxPriorityFeePerGas } from './eth_maxPriorityFeePerGas.js';
import { eth_syncing } from './eth_syncing.js';
import { net_listening } from './net_listening.js';
import { net_version } from './net_version.js';
import { hostedClientVersion, web3_clientVersion } from './web3_clientVersion.js';
import { web3_sha3 } from './web3_sha3.js';
import { DEV_METHODS } from './dev/index.js';
import { eth_sendRawTransaction } from './eth_sendRawTransaction.js';
import { eth_sendRawTransactionSync } from './eth_sendRawTransactionSync.js';
import { eth_sendTransaction } from './eth_sendTransaction.js';
import { eth_signTransaction } from './eth_signTransaction.js';
import { eth_fillTransaction } from './eth_fillTransaction.js';
import { eth_sign } from './eth_sign.js';
import { personal_sign } from './personal_sign.js';
import { eth_signTypedData_v4 } from './eth_signTypedData_v4.js';
import { eth_getFilterChanges } from './eth_getFilterChanges.js';
import { eth_getFilterLogs } from './eth_getFilterLogs.js';
import { eth_newBlockFilter } from './eth_newBlockFilter.js';
import { eth_newFilter } from './eth_newFilter.js';
import { eth_newPendingTransactionFilter } from './eth_newPendingTransactionFilter.js';
import { eth_uninstallFilter } from './eth_uninstallFilter.js';
import { eth_subscribe } from './eth_subscribe.js';
import { txpool_content } from './txpool_content.js';
import { txpool_contentFrom } from './txpool_contentFrom.js';
import { txpool_inspect } from './txpool_inspect.js';
import { txpool_status } from './txpool_status.js';
import { eth_unsubscribe } from './eth_unsubscribe.js';
import { debug_getRawBlock } from './debug_getRawBlock.js';
import { debug_getRawHeader } from './debug_getRawHeader.js';
import { debug_getRawReceipts } from './debug_getRawReceipts.js';
import { debug_getRawTransaction } from './debug_getRawTransaction.js';
import { eth_getStorageValues } from './eth_getStorageValues.js';
import { eth_getHeaderByHash } from './eth_getHeaderByHash.js';
import { eth_getHeaderByNumber } from './eth_getHeaderByNumber.js';
import { eth_getUncleByBlockHashAndIndex } from './eth_getUncleByBlockHashAndIndex.js';
import { eth_getUncleByBlockNumberAndIndex } from './eth_getUncleByBlockNumberAndIndex.js';
import { eth_config } from './eth_config.js';
import { eth_baseFee } from './eth_baseFee.js';
import { eth_capabilities } from './eth_capabilities.js';
import { eth_getRawTransactionByHash } from './eth_getRawTransactionByHash.js';
import { eth_getRawTransactionByBlockHashAndIndex } from './eth_getRawTransactionByBlockHashAndIndex.js';
import { eth_getRawTransactionByBlockNumberAndIndex } from './eth_getRawTransactionByBlockNumberAndIndex.js';
import { debug_traceBlockByHash } from './debug_traceBlockByHash.js';
import { debug_traceBlockByNumber } from './debug_traceBlockByNumber.js';
import { debug_traceCall } from './debug_traceCall.js';
import { debug_traceTransaction } from './debug_traceTransaction.js';
import { eth_requestAccounts } from './eth_requestAccounts.js';
import { eth_getAccount } from './eth_getAccount.js';
import { trace_block } from './trace_block.js';
import { trace_call } from './trace_call.js';
import { trace_transaction } from './trace_transaction.js';
import { ots_getApiLevel } from './ots_getApiLevel.js';
import { ots_hasCode } from './ots_hasCode.js';
import { ots_getInternalOperations } from './ots_getInternalOperations.js';
import { ots_getTransactionError } from './ots_getTransactionError.js';
import { ots_traceTransaction } from './ots_traceTransaction.js';
import { ots_getBlockDetails, ots_getBlockDetailsByHash } from './ots_getBlockDetails.js';
import { ots_getBlockTransactions } from './ots_getBlockTransactions.js';
import { ots_searchTransactionsAfter, ots_searchTransactionsBefore } from './ots_searchTransactions.js';
import { ots_getTransactionBySenderAndNonce } from './ots_getTransactionBySenderAndNonce.js';
import { ots_getContractCreator } from './ots_getContractCreator.js';

/** Every eth_ method, for the dispatch table and for listings. */
export const ETH_METHODS = [
  // The ten documented methods (SPEC 4.3).
  eth_getBlockByHash,
  eth_getBlockByNumber,
  eth_getTransactionByHash,
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
  eth_getTransactionReceipt,
  eth_getBlockReceipts,
  eth_call,
  eth_simulateV1,
  eth_getProof,
  eth_getStorageAt,
  // The calls real clients make around them.
  eth_chainId,
  net_version,
  net_listening,
  web3_clientVersion,
  web3_sha3,
  eth_blockNumber,
  eth_getBalance,
  eth_getCode,
  eth_getTransactionCount,
  eth_getBlockTransactionCountByHash,
  eth_getBlockTransactionCountByNumber,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
  eth_gasPrice,
  eth_maxPriorityFeePerGas,
  eth_feeHistory,
  eth_blobBaseFee,
  eth_syncing,
  eth_accounts,
  eth_estimateGas,
  eth_createAccessList,
  eth_getLogs,
] as const;

/** Sending transactions. */
export const SEND_METHODS = [
  eth_sendRawTransaction,
  eth_sendRawTransactionSync,
  eth_sendTransaction,
  eth_signTransaction,
  eth_fillTransaction,
  eth_sign,
  personal_sign,
  eth_signTypedData_v4,
] as const;

/** The pool, as geth shows it. */
export const POOL_METHODS = [txpool_status, txpool_content, txpool_contentFrom, txpool_inspect] as const;

/** Polling filters (src/subscriptions/ethFilters.ts). */
export const FILTER_METHODS = [
  eth_newFilter,
  eth_newBlockFilter,
  eth_newPendingTransactionFilter,
  eth_getFilterChanges,
  eth_getFilterLogs,
  eth_uninstallFilter,
  eth_subscribe,
  eth_unsubscribe,
] as const;

/** geth's small methods of issue 17: raw bytes, storage in bulk, headers, uncles, fork config. */
export const GETH_METHODS = [
  debug_getRawHeader,
  debug_getRawBlock,
  debug_getRawReceipts,
  debug_getRawTransaction,
  eth_getStorageValues,
  eth_getHeaderByNumber,
  eth_getHeaderByHash,
  eth_getUncleByBlockNumberAndIndex,
  eth_getUncleByBlockHashAndIndex,
  eth_config,
  eth_baseFee,
  eth_capabilities,
  eth_getRawTransactionByHash,
  eth_getRawTransactionByBlockHashAndIndex,
  eth_getRawTransactionByBlockNumberAndIndex,
] as const;

/** Tracing, as geth's debug API (src/eth/engine/trace). */
export const TRACE_METHODS = [debug_traceTransaction, debug_traceCall, debug_traceBlockByNumber, debug_traceBlockByHash] as const;

/** What anvil and hardhat users reach for (issue 27): wallet and account reads. */
export const DROPIN_METHODS = [eth_requestAccounts, eth_getAccount] as const;

/** parity's trace_ methods, from callTracer's tree (src/eth/format/parityTrace.ts). */
export const PARITY_TRACE_METHODS = [trace_transaction, trace_block, trace_call] as const;

/** Otterscan's ots_ methods, API level 8 (src/eth/engine/query/otsSearch.ts, src/eth/format/ots.ts). */
export const OTS_METHODS = [
  ots_getApiLevel,
  ots_hasCode,
  ots_getInternalOperations,
  ots_getTransactionError,
  ots_traceTransaction,
  ots_getBlockDetails,
  ots_getBlockDetailsByHash,
  ots_getBlockTransactions,
  ots_searchTransactionsBefore,
  ots_searchTransactionsAfter,
  ots_getTransactionBySenderAndNonce,
  ots_getContractCreator,
] as const;

/** Every method of eth networks, dev methods included. */
export const ALL_ETH_METHODS: readonly MethodDef<EthContext, any>[] = [
  ...ETH_METHODS,
  ...SEND_METHODS,
  ...POOL_METHODS,
  ...FILTER_METHODS,
  ...GETH_METHODS,
  ...TRACE_METHODS,
  ...DROPIN_METHODS,
  ...PARITY_TRACE_METHODS,
  ...OTS_METHODS,
  ...DEV_METHODS,
];

/** The dispatch table of an eth network; without dev methods (those with the `dev` fact) it answers them -32601, as the hosted gateway. */
export function ethMethods(opts: { devMethods?: boolean } = {}): MethodTable<EthContext> {
  // Without dev methods web3_clientVersion is devgate's own, which no test tool takes for anvil.
  const hosted = () => ALL_ETH_METHODS.filter((def) => def.facts?.dev !== true).map((def) => (def === web3_clientVersion ? hostedClientVersion : def));
  return new MethodTable<EthContext>(opts.devMethods === false ? hosted() : ALL_ETH_METHODS);
}
