import { gzipSync } from 'node:zlib';
import { bytesHex } from '../../../hex.js';
import { defineMethod, optional } from '../../../rpc/method.js';
import { bool } from '../../../rpc/params.js';
import { dumpNetwork } from '../../../persist/gatewayState.js';
import type { EthContext } from '../../context.js';
import { dumpTargetOf } from './dumpTargetOf.js';
import { ethStateErased } from '../../kindState.js';
import { revealsAny } from '../reveals.js';

/**
 * anvil_dumpState: this network's state as hex bytes, in anvil's form: gzip'd, of devgate's own state file (every
 * block, receipt, trie node reachable from kept roots, the pool, mining settings and time controls; not anvil's
 * JSON), so anvil_loadState (or `--load-state`) brings back every historical answer. anvil's optional
 * `preserveHistoricalStates` flag is accepted and changes nothing: devgate always keeps every state.
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_dumpState","params":[]} -> "0x1f8b0800..."
 */
export const anvil_dumpState = defineMethod({
  name: 'anvil_dumpState',
  facts: { dev: true, reveals: revealsAny },
  params: [optional('preserveHistoricalStates', bool)],
  handler: async (ctx: EthContext, _preserve) =>
    bytesHex(gzipSync(await dumpNetwork({ name: ctx.networkName, kind: 'eth', engine: dumpTargetOf(ctx), state: ethStateErased }), { level: 1 })),
});

/** hardhat_dumpState: the same as anvil_dumpState. hardhat has no such method; devgate serves it so viem's testClient in hardhat mode can dump. */
export const hardhat_dumpState = { ...anvil_dumpState, name: 'hardhat_dumpState' };
