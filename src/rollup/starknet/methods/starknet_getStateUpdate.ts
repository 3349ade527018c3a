import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { stateDiff } from '../../engine/stateDiff.js';
import { feltHex } from '../../format.js';
import { formatStateDiff } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';
import { parentOf } from '../state.js';

/**
 * starknet_getStateUpdate: a block's state diff (storage, nonces, deployed contracts, declared classes;
 * genesis declares the seed's classes and deploys its contracts) with the state roots before and after;
 * the pending / pre_confirmed block's has no block hash or new root. Error 24 when there is no such block.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getStateUpdate","params":{"block_id":{"block_number":1}}}
 *   -> {"block_hash":"0x...","old_root":"0x...","new_root":"0x...","state_diff":{"storage_diffs":[...],"nonces":[...],...}}
 */
export const starknet_getStateUpdate = defineMethod({
  name: 'starknet_getStateUpdate',
  named: true,
  params: [required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, id) => {
    const block = resolveBlock(ctx, id);
    const parent = parentOf(ctx, block);
    const diff = stateDiff(parent?.state ?? new Map(), ctx.chain.stateAt(block), block.transactions);
    const genesis = parent === undefined ? [...ctx.chain.config.classes.values()] : [];
    const declared = [...genesis.map((c) => ({ classHash: c.classHash, compiledClassHash: c.compiledClassHash })), ...diff.declaredClasses];
    const update = { old_root: feltHex(parent?.newRoot ?? 0n), state_diff: formatStateDiff({ ...diff, declaredClasses: declared }) };
    return 'hash' in block ? { block_hash: feltHex(block.hash), new_root: feltHex(block.newRoot), ...update } : update;
  },
});
