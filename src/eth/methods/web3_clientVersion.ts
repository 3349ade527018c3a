import { defineMethod } from '../../rpc/method.js';
import { DEV_CLIENT_VERSION, HOSTED_CLIENT_VERSION } from './anvilCompat.js';

/**
 * web3_clientVersion: `anvil/v1.7.1/devgate/<version>` while the dev methods are served (test tools such as
 * hardhat-network-helpers look for a client starting `anvil`, `hardhatnetwork` or `zksync` before they call
 * hardhat_mine, evm_snapshot, ...: devgate serves those); `devgate/<version>` without them (hostedClientVersion).
 * @example {"jsonrpc":"2.0","id":1,"method":"web3_clientVersion","params":[]} -> "anvil/v1.7.1/devgate/0.1.0"
 */
export const web3_clientVersion = defineMethod({
  name: 'web3_clientVersion',
  params: [],
  handler: () => DEV_CLIENT_VERSION,
});

/** web3_clientVersion of a network without dev methods: `devgate/<version>`, which no test tool takes for a dev node. */
export const hostedClientVersion = defineMethod({
  name: 'web3_clientVersion',
  params: [],
  handler: () => HOSTED_CLIENT_VERSION,
});
