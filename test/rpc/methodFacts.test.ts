/**
 * The facts on the method definitions (src/rpc/method.ts) are what every gate reads: this keeps them from being
 * forgotten. Every method of every table (eth with its dev methods, rollup with the Starknet family, admin) either
 * declares `reveals` or is listed here as revealing no account's state; every control method is `dev`; the tables
 * built without dev methods hold none; heavy and persists are where the gates need them.
 */
import { describe, expect, it } from 'vitest';
import { adminMethods } from '../../src/admin/index.js';
import { DEV_METHODS } from '../../src/eth/methods/dev/index.js';
import { ethMethods } from '../../src/eth/methods/index.js';
import { rollupMethods, withoutDevnet } from '../../src/rollup/methods/index.js';
import type { MethodTable } from '../../src/rpc/dispatch.js';

const ETH = ethMethods();
const ROLLUP = rollupMethods('starknet');
const ADMIN = adminMethods();
const TABLES: [string, MethodTable<any>][] = [
  ['eth', ETH],
  ['rollup', ROLLUP],
  ['admin', ADMIN],
];

/**
 * Methods that read no account's state, code, storage or logs by params and run no code: chain and block data,
 * transactions and receipts by hash or position (transaction data, not account queries: see docs/limits.md, what a
 * `contracts` allowlist does not cover), sends (writes; fenced by the methods allowlist), filters polled by id (their
 * addresses were checked when they were made), node settings and controls that name no account.
 */
const REVEALS_NONE = new Set([
  // The node log's switch.
  'anvil_setLoggingEnabled',
  'hardhat_setLoggingEnabled',
  // eth: chain, blocks, transactions, receipts, fees, node.
  'eth_chainId',
  'net_version',
  'net_listening',
  'web3_clientVersion',
  'web3_sha3',
  'eth_blockNumber',
  'eth_syncing',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_blobBaseFee',
  'eth_accounts',
  'eth_requestAccounts',
  'ots_getApiLevel',
  'ots_getBlockDetails',
  'ots_getBlockDetailsByHash',
  'ots_getBlockTransactions',
  'debug_getRawHeader',
  'debug_getRawBlock',
  'debug_getRawReceipts',
  'debug_getRawTransaction',
  'eth_getHeaderByNumber',
  'eth_getHeaderByHash',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getUncleByBlockHashAndIndex',
  'eth_config',
  'eth_baseFee',
  'eth_capabilities',
  'eth_getRawTransactionByHash',
  'eth_getRawTransactionByBlockHashAndIndex',
  'eth_getRawTransactionByBlockNumberAndIndex',
  // eth: sends and signatures (writes), the pool.
  'eth_sendRawTransaction',
  'eth_sendRawTransactionSync',
  'eth_sendTransaction',
  'eth_signTransaction',
  'eth_sign',
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendUnsignedTransaction',
  'txpool_status',
  'txpool_content',
  'txpool_contentFrom',
  'txpool_inspect',
  // eth: filters by id, block and pending filters, unsubscribe.
  'eth_newBlockFilter',
  'eth_newPendingTransactionFilter',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
  'eth_unsubscribe',
  // eth dev methods naming no account: mining, time, fees, snapshots, impersonation switches, chain settings.
  'evm_mine',
  'anvil_mine',
  'hardhat_mine',
  'evm_mine_detailed',
  'anvil_mine_detailed',
  'evm_setTime',
  'evm_setAutomine',
  'miner_start',
  'miner_stop',
  'anvil_setAutomine',
  'evm_setIntervalMining',
  'anvil_setIntervalMining',
  'anvil_getAutomine',
  'eth_mining',
  'hardhat_getAutomine',
  'evm_increaseTime',
  'evm_setNextBlockTimestamp',
  'anvil_setBlockTimestampInterval',
  'hardhat_setBlockTimestampInterval',
  'anvil_removeBlockTimestampInterval',
  'hardhat_removeBlockTimestampInterval',
  'anvil_setNextBlockBaseFeePerGas',
  'hardhat_setNextBlockBaseFeePerGas',
  'hardhat_setPrevRandao',
  'evm_setBlockGasLimit',
  'anvil_dropTransaction',
  'hardhat_dropTransaction',
  'anvil_dropAllTransactions',
  'evm_snapshot',
  'anvil_snapshot',
  'evm_revert',
  'anvil_revert',
  'anvil_reset',
  'hardhat_reset',
  'anvil_setCoinbase',
  'hardhat_setCoinbase',
  'anvil_setChainId',
  'anvil_autoImpersonateAccount',
  'anvil_setMinGasPrice',
  'hardhat_setMinGasPrice',
  // rollup: chain, blocks, transactions, receipts, sends, node.
  'rollup_getBlockWithTxHashes',
  'rollup_getTransactionReceipt',
  'rollup_addInvokeTransaction',
  'rollup_chainId',
  'rollup_blockNumber',
  'starknet_specVersion',
  'starknet_chainId',
  'starknet_blockNumber',
  'starknet_blockHashAndNumber',
  'starknet_syncing',
  'starknet_getBlockWithTxHashes',
  'starknet_getBlockWithTxs',
  'starknet_getBlockWithReceipts',
  'starknet_getBlockTransactionCount',
  'starknet_getTransactionByHash',
  'starknet_getTransactionReceipt',
  'starknet_getTransactionStatus',
  'starknet_getTransactionByBlockIdAndIndex',
  'starknet_addInvokeTransaction',
  'starknet_getStateUpdate',
  'starknet_getClass',
  'starknet_addDeployAccountTransaction',
  'starknet_addDeclareTransaction',
  'starknet_getMessagesStatus',
  // rollup controls naming no contract.
  'devnet_createBlock',
  'devnet_acceptOnL1',
  'devnet_rejectBlock',
  'devnet_setTime',
  'devnet_increaseTime',
  'devnet_postmanSendMessageToL2',
  'devnet_mint',
  'devnet_getPredeployedAccounts',
  'devnet_getAccounts',
  // What the node is (client, chain, head, snapshots): no account.
  'anvil_metadata',
  'hardhat_metadata',
  'anvil_nodeInfo',
  'devnet_getConfig',
  'devnet_setGasPrice',
  'devnet_abortBlocks',
  'devnet_snapshot',
  'devnet_revert',
  'devnet_restart',
  'devnet_dump',
  'devnet_load',
]);

/** The control families: a method of these is a dev method, whatever table it is in. */
const CONTROL = /^(evm|anvil|hardhat|miner|devnet|testing)_|^eth_sendUnsignedTransaction$/;

describe('method facts', () => {
  it('every method of every table declares reveals or is listed as revealing no account state', () => {
    const missing: string[] = [];
    const stale: string[] = [];
    for (const [kind, table] of TABLES) {
      for (const name of table.names()) {
        const reveals = table.get(name)!.facts?.reveals !== undefined;
        const listed = REVEALS_NONE.has(name) || kind === 'admin';
        if (!reveals && !listed) missing.push(`${kind}: ${name}`);
        if (reveals && REVEALS_NONE.has(name)) stale.push(`${kind}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('every control method is a dev method, and the tables without dev methods hold none', () => {
    const notDev: string[] = [];
    for (const [kind, table] of TABLES)
      for (const name of table.names()) if (CONTROL.test(name) && table.get(name)!.facts?.dev !== true) notDev.push(`${kind}: ${name}`);
    expect(notDev).toEqual([]);
    for (const def of DEV_METHODS) expect(def.facts?.dev, def.name).toBe(true);
    for (const name of ['miner_start', 'miner_stop', 'eth_sendUnsignedTransaction', 'testing_buildBlockV1']) expect(ETH.get(name)?.facts?.dev, name).toBe(true);
    for (const table of [ethMethods({ devMethods: false }), withoutDevnet(ROLLUP)]) {
      expect(table.names().filter((n) => table.get(n)!.facts?.dev)).toEqual([]);
      expect(table.names().filter((n) => CONTROL.test(n))).toEqual([]);
    }
    // Reads and sends every node serves are not dev methods.
    for (const name of ['eth_call', 'eth_sendTransaction', 'eth_sendRawTransaction', 'eth_sign', 'personal_sign', 'eth_accounts'])
      expect(ETH.get(name)!.facts?.dev, name).toBeUndefined();
  });

  it('every dev method that changes node state persists (miner_* included); reads do not', () => {
    const nonPersisting = ETH.names().filter((n) => ETH.get(n)!.facts?.dev && !ETH.get(n)!.facts?.persists);
    expect(nonPersisting.sort()).toEqual([
      'anvil_dumpState',
      'anvil_getAutomine',
      'anvil_metadata',
      'anvil_nodeInfo',
      // The node log's switch: printing, not chain or node state.
      'anvil_setLoggingEnabled',
      'eth_mining',
      'hardhat_dumpState',
      'hardhat_getAutomine',
      'hardhat_metadata',
      'hardhat_setLoggingEnabled',
    ]);
    for (const name of ['miner_start', 'miner_stop', 'evm_setAutomine', 'anvil_setIntervalMining']) expect(ETH.get(name)!.facts?.persists, name).toBe(true);
  });

  it('heavy methods are the ones that run the EVM, scan logs, prove, trace or simulate', () => {
    const heavy = TABLES.flatMap(([, t]) => t.names().filter((n) => t.get(n)!.facts?.heavy));
    expect(heavy.sort()).toEqual(
      [
        'eth_call',
        'eth_estimateGas',
        'eth_createAccessList',
        'eth_getLogs',
        'eth_getFilterLogs',
        'eth_getProof',
        'eth_getStorageValues',
        'eth_simulateV1',
        'debug_traceCall',
        'debug_traceTransaction',
        'debug_traceBlockByNumber',
        'debug_traceBlockByHash',
        'trace_transaction',
        'trace_block',
        'trace_call',
        'ots_traceTransaction',
        'ots_getInternalOperations',
        'ots_getTransactionError',
        'ots_searchTransactionsBefore',
        'ots_searchTransactionsAfter',
        'ots_getContractCreator',
        'evm_mine_detailed',
        'anvil_mine_detailed',
        'anvil_dealERC20',
        'anvil_setERC20Allowance',
        'eth_sendTransaction',
        'eth_fillTransaction',
        'rollup_estimateFee',
        'starknet_estimateFee',
        'starknet_simulateTransactions',
      ].sort(),
    );
  });

  it('the filter methods are the ones that learn the caller', () => {
    expect(ETH.names().filter((n) => ETH.get(n)!.facts?.filter)).toEqual([
      'eth_getFilterChanges',
      'eth_getFilterLogs',
      'eth_newBlockFilter',
      'eth_newFilter',
      'eth_newPendingTransactionFilter',
      'eth_uninstallFilter',
    ]);
  });
});
