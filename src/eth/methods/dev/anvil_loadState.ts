import { defineMethod, required } from '../../../rpc/method.js';
import { hexData } from '../../../rpc/params.js';
import { loadGateway } from '../../../persist/gatewayState.js';
import type { EthContext } from '../../context.js';
import { dumpTargetOf } from './dumpTargetOf.js';
import { ethStateErased } from '../../kindState.js';
import { revealsAny } from '../reveals.js';

/**
 * anvil_loadState: loads hex bytes of a state into this network: what anvil_dumpState answered (devgate's state
 * file, gzip'd or not), or an anvil state (its JSON, gzip'd or not: accounts are merged into head's state as anvil
 * merges them; anvil's blocks are not replayed). A devgate dump replaces the chain above the blocks both share and
 * forgets every snapshot. Anything unsound is refused (-32602 naming the problem) and changes nothing.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_loadState","params":["0x1f8b0800..."]} -> true
 */
export const anvil_loadState = defineMethod({
  name: 'anvil_loadState',
  facts: { dev: true, persists: true, reveals: revealsAny },
  params: [required('state', hexData)],
  handler: async (ctx: EthContext, bytes) => {
    await loadGateway([{ name: ctx.networkName, kind: 'eth', engine: dumpTargetOf(ctx), state: ethStateErased }], bytes, ctx.networkName);
    return true;
  },
});

/** hardhat_loadState: the same as anvil_loadState (hardhat has none; served for viem's testClient in hardhat mode). */
export const hardhat_loadState = { ...anvil_loadState, name: 'hardhat_loadState' };
