import { defineMethod, required } from '../../rpc/method.js';
import type { RollupContext } from '../context.js';
import { feltHex } from '../format.js';
import { seconds } from '../params.js';

/**
 * devnet_increaseTime: moves chain time forward by `time` seconds and seals a block, as
 * starknet-devnet does.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_increaseTime","params":{"time":3600}} -> {"timestamp_increased_by":3600,"block_hash":"0x..."}
 */
export const devnet_increaseTime = defineMethod({
  name: 'devnet_increaseTime',
  facts: { dev: true },
  named: true,
  params: [required('time', seconds)],
  handler: (ctx: RollupContext, time) => ({ timestamp_increased_by: Number(time), block_hash: feltHex(ctx.chain.increaseTime(time).hash) }),
});
