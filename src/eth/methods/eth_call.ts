import { bytesHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { callAt } from '../engine/exec/call.js';
import { callObject, stateBlock } from '../params.js';
import { checkCallBlockOverride } from '../engine/exec/overrides.js';
import { blockOverrideParam, stateOverrideParam } from './overrideParams.js';
import { callReveals } from './reveals.js';

/**
 * eth_call: executes a message call on the state after the given block (number, tag, or EIP-1898
 * block hash object), with that block's header as context, and returns its output; never changes
 * state. `gas` is capped at 10x the block gas limit (no gas: the cap). A REVERT answers code 3,
 * `execution reverted: <reason>`, data the payload. Optional third and fourth arguments: a state override and a
 * block override, as geth's (overrideParams.ts); they apply to this call only.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x5fbdb2315678afecb367f032d93f642f64180aa3","data":"0x18160ddd"},"latest"]}
 */
export const eth_call = defineMethod({
  name: 'eth_call',
  facts: { heavy: true, reveals: callReveals(2) },
  params: [
    required('transaction', callObject),
    optional('block', blockNumberOrHash),
    optional('stateOverrides', stateOverrideParam),
    optional('blockOverrides', blockOverrideParam),
  ],
  handler: async (ctx: EthContext, req, sel, state, block) => {
    checkCallBlockOverride(block);
    return bytesHex(await callAt(ctx.chain, await stateBlock(ctx.node, sel), req, undefined, { state, block }));
  },
});
