/** The dev methods of eth networks (evm_, anvil_, hardhat_): mining and its controls, as test tools call them. */
import type { MethodDef } from '../../../rpc/method.js';
import { anvil_dropAllTransactions } from './anvil_dropAllTransactions.js';
import { anvil_dropTransaction, hardhat_dropTransaction } from './anvil_dropTransaction.js';
import { anvil_getAutomine, eth_mining, hardhat_getAutomine } from './anvil_getAutomine.js';
import { anvil_mine, hardhat_mine } from './anvil_mine.js';
import { anvil_removeBlockTimestampInterval, hardhat_removeBlockTimestampInterval } from './anvil_removeBlockTimestampInterval.js';
import { anvil_setBlockTimestampInterval, hardhat_setBlockTimestampInterval } from './anvil_setBlockTimestampInterval.js';
import { anvil_setNextBlockBaseFeePerGas, hardhat_setNextBlockBaseFeePerGas } from './anvil_setNextBlockBaseFeePerGas.js';
import { hardhat_setPrevRandao } from './hardhat_setPrevRandao.js';
import { eth_sendUnsignedTransaction } from './eth_sendUnsignedTransaction.js';
import { testing_buildBlockV1 } from './testing_buildBlockV1.js';
import { evm_increaseTime } from './evm_increaseTime.js';
import { evm_mine } from './evm_mine.js';
import { anvil_setAutomine, evm_setAutomine, miner_start, miner_stop } from './evm_setAutomine.js';
import { evm_setBlockGasLimit } from './evm_setBlockGasLimit.js';
import { anvil_setIntervalMining, evm_setIntervalMining } from './evm_setIntervalMining.js';
import { evm_setNextBlockTimestamp } from './evm_setNextBlockTimestamp.js';
import { anvil_snapshot, evm_snapshot } from './evm_snapshot.js';
import { anvil_revert, evm_revert } from './evm_revert.js';
import { anvil_reset, hardhat_reset } from './anvil_reset.js';
import { anvil_setBalance, evm_setAccountBalance, hardhat_setBalance } from './anvil_setBalance.js';
import { anvil_setNonce, hardhat_setNonce } from './anvil_setNonce.js';
import { anvil_setCode, evm_setAccountCode, hardhat_setCode } from './anvil_setCode.js';
import { anvil_setStorageAt, hardhat_setStorageAt } from './anvil_setStorageAt.js';
import { anvil_setCoinbase, hardhat_setCoinbase } from './anvil_setCoinbase.js';
import { anvil_setLoggingEnabled, hardhat_setLoggingEnabled } from './anvil_setLoggingEnabled.js';
import { anvil_setChainId } from './anvil_setChainId.js';
import { anvil_impersonateAccount, hardhat_impersonateAccount } from './anvil_impersonateAccount.js';
import { anvil_stopImpersonatingAccount, hardhat_stopImpersonatingAccount } from './anvil_stopImpersonatingAccount.js';
import { anvil_autoImpersonateAccount } from './anvil_autoImpersonateAccount.js';
import { anvil_setMinGasPrice, hardhat_setMinGasPrice } from './anvil_setMinGasPrice.js';
import { anvil_dumpState, hardhat_dumpState } from './anvil_dumpState.js';
import { anvil_loadState, hardhat_loadState } from './anvil_loadState.js';
import { anvil_addBalance } from './anvil_addBalance.js';
import { evm_setTime } from './evm_setTime.js';
import { anvil_mine_detailed, evm_mine_detailed } from './anvil_mine_detailed.js';
import { anvil_dealERC20 } from './anvil_dealERC20.js';
import { anvil_setERC20Allowance } from './anvil_setERC20Allowance.js';
import { anvil_metadata, hardhat_metadata } from './anvil_metadata.js';
import { anvil_nodeInfo } from './anvil_nodeInfo.js';

/** Every dev method; a network started with devMethods: false serves none of them (-32601, as the hosted gateway). */
export const DEV_METHODS: readonly MethodDef[] = [
  evm_mine,
  anvil_mine,
  hardhat_mine,
  evm_setAutomine,
  miner_start,
  miner_stop,
  anvil_setAutomine,
  evm_setIntervalMining,
  anvil_setIntervalMining,
  anvil_getAutomine,
  eth_mining,
  hardhat_getAutomine,
  evm_increaseTime,
  evm_setNextBlockTimestamp,
  anvil_setBlockTimestampInterval,
  hardhat_setBlockTimestampInterval,
  anvil_removeBlockTimestampInterval,
  hardhat_removeBlockTimestampInterval,
  anvil_setNextBlockBaseFeePerGas,
  hardhat_setNextBlockBaseFeePerGas,
  hardhat_setPrevRandao,
  testing_buildBlockV1,
  eth_sendUnsignedTransaction,
  evm_setBlockGasLimit,
  anvil_dropTransaction,
  hardhat_dropTransaction,
  anvil_dropAllTransactions,
  // Test controls: snapshots, reset, state edits.
  evm_snapshot,
  anvil_snapshot,
  evm_revert,
  anvil_revert,
  anvil_reset,
  hardhat_reset,
  anvil_setBalance,
  evm_setAccountBalance,
  hardhat_setBalance,
  anvil_setNonce,
  hardhat_setNonce,
  anvil_setCode,
  evm_setAccountCode,
  hardhat_setCode,
  anvil_setStorageAt,
  hardhat_setStorageAt,
  anvil_setCoinbase,
  hardhat_setCoinbase,
  anvil_setLoggingEnabled,
  hardhat_setLoggingEnabled,
  anvil_setChainId,
  anvil_impersonateAccount,
  hardhat_impersonateAccount,
  anvil_stopImpersonatingAccount,
  hardhat_stopImpersonatingAccount,
  anvil_autoImpersonateAccount,
  anvil_setMinGasPrice,
  hardhat_setMinGasPrice,
  // Dump and load.
  anvil_dumpState,
  hardhat_dumpState,
  anvil_loadState,
  hardhat_loadState,
  // What anvil users reach for (issue 27).
  anvil_addBalance,
  evm_setTime,
  evm_mine_detailed,
  anvil_mine_detailed,
  anvil_dealERC20,
  anvil_setERC20Allowance,
  // What the node is.
  anvil_metadata,
  hardhat_metadata,
  anvil_nodeInfo,
];
