import { InvalidArgument } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import { describe, type Decoder } from '../../../rpc/params.js';
import type { RollupContext } from '../../context.js';
import { feltHex } from '../../format.js';
import { felt } from '../../params.js';
import { modelledCall, type CallRequest } from '../call.js';
import { resolveBlock, starknetBlockId } from '../params.js';
import { callRequestReveals } from './reveals.js';

const callRequest: Decoder<CallRequest> = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidArgument(`expected a function call object, got ${describe(value)}`);
  const o = value as Record<string, unknown>;
  const member = (k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);
  const calldata = member('calldata');
  if (!Array.isArray(calldata)) throw new InvalidArgument(`"calldata": expected an array of felts, got ${describe(calldata)}`);
  try {
    return { contractAddress: felt(member('contract_address')), selector: felt(member('entry_point_selector')), calldata: calldata.map(felt) };
  } catch (err) {
    throw new InvalidArgument(`contract_address, entry_point_selector and calldata must be felts: ${(err as Error).message}`);
  }
};

/**
 * starknet_call: a view answered from the simulation's state for what it models (fee tokens'
 * balanceOf/balance_of, decimals, symbol, name, totalSupply; an account's public key and nonce);
 * anything else is error 40 whose revert_error says devgate does not execute this contract.
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_call","params":{"request":{"contract_address":"0x49d3...",
 *   "entry_point_selector":"0x2e4263afad30923c891518314c3c95dbe830a16874e8abc5777a9a20b54c76e","calldata":["0x64b4..."]},"block_id":"latest"}}
 */
export const starknet_call = defineMethod({
  name: 'starknet_call',
  facts: { reveals: callRequestReveals },
  named: true,
  params: [required('request', callRequest), required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, req, id) => modelledCall(ctx.chain.stateAt(resolveBlock(ctx, id)), ctx.chain.config, req).map(feltHex),
});
