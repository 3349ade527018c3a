import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { felt } from '../../params.js';
import { formatClass } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';
import { classAt } from '../state.js';

/**
 * starknet_getClass: the Sierra class with a hash, as declared at a block (by the seed or a DECLARE
 * transaction): program, entry points, version, ABI. Errors: 24 unknown block, 28 class not declared there.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getClass","params":{"block_id":"latest","class_hash":"0x5c47..."}}
 *   -> {"sierra_program":["0x1",...],"contract_class_version":"0.1.0","entry_points_by_type":{...},"abi":"[...]"}
 */
export const starknet_getClass = defineMethod({
  name: 'starknet_getClass',
  named: true,
  params: [required('block_id', starknetBlockId), required('class_hash', felt)],
  handler: (ctx: RollupContext, id, classHash) => formatClass(classAt(ctx, resolveBlock(ctx, id), classHash).contractClass),
});
