/** The dispatch table of eth_ networks: every method, one file each. */
import { MethodTable } from '../../rpc/dispatch.js';
import type { EthContext } from '../context.js';
import { eth_blockNumber } from './eth_blockNumber.js';
import { eth_chainId } from './eth_chainId.js';
import { eth_getBlockByNumber } from './eth_getBlockByNumber.js';
import { net_version } from './net_version.js';
import { web3_clientVersion } from './web3_clientVersion.js';

export function ethMethods(): MethodTable<EthContext> {
  return new MethodTable<EthContext>([eth_chainId, net_version, web3_clientVersion, eth_blockNumber, eth_getBlockByNumber]);
}
