import { RollupError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import type { RollupContext } from '../../context.js';
import { deployedAt } from '../../engine/execute.js';
import { felt } from '../../params.js';
import { formatClass } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';
import { classAt } from '../state.js';
import { feltParam } from './reveals.js';

/**
 * starknet_getClassAt: the Sierra class of the contract at an address, at a block. Errors: 24 unknown
 * block, 20 no contract there, 28 when the contract's class is not one the chain declares (a seed
 * contract given a class hash without its class).
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_getClassAt","params":{"block_id":"latest","contract_address":"0x64b4..."}}
 */
export const starknet_getClassAt = defineMethod({
  name: 'starknet_getClassAt',
  facts: { reveals: feltParam(1, 'contract_address') },
  named: true,
  params: [required('block_id', starknetBlockId), required('contract_address', felt)],
  handler: (ctx: RollupContext, id, address) => {
    const block = resolveBlock(ctx, id);
    const contract = deployedAt(ctx.chain.stateAt(block), address);
    if (contract === undefined) throw new RollupError(20, 'Contract not found');
    return formatClass(classAt(ctx, block, contract.classHash).contractClass);
  },
});
