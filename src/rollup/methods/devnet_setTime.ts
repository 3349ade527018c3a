import { defineMethod, optional, required } from '../../rpc/method.js';
import { bool } from '../../rpc/params.js';
import type { RollupContext } from '../context.js';
import { feltHex } from '../format.js';
import { seconds } from '../params.js';

/**
 * devnet_setTime: sets chain time (Unix seconds; never before the latest block) and, unless
 * `generate_block` is false, seals a block at that time (starknet-devnet's default). Without a block,
 * `block_hash` is null, as starknet-devnet answers.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_setTime","params":{"time":1735689600,"generate_block":true}}
 *   -> {"block_timestamp":1735689600,"block_hash":"0x..."}
 */
export const devnet_setTime = defineMethod({
  name: 'devnet_setTime',
  facts: { dev: true },
  named: true,
  params: [required('time', seconds), optional('generate_block', bool)],
  handler: (ctx: RollupContext, time, generate) => {
    const block = ctx.chain.setTime(time, generate ?? true);
    return { block_timestamp: Number(time), block_hash: block === undefined ? null : feltHex(block.hash) };
  },
});
