import { quantityHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { estimateGasAt } from '../engine/exec/estimate.js';
import { callObject, stateBlock } from '../params.js';
import { checkCallBlockOverride } from '../engine/exec/overrides.js';
import { blockOverrideParam, stateOverrideParam } from './overrideParams.js';
import { callReveals } from './reveals.js';

/**
 * eth_estimateGas: the gas a transaction needs, by geth's binary search on the state after the block
 * (default `latest`); the allowance is capped at 10x the block gas limit. A revert answers as eth_call's.
 * Optional third and fourth arguments: a state override and a block override, as eth_call's.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_estimateGas","params":[{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","to":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8","value":"0x1"}]} -> "0x5208"
 */
export const eth_estimateGas = defineMethod({
  name: 'eth_estimateGas',
  facts: { heavy: true, reveals: callReveals(2) },
  params: [
    required('transaction', callObject),
    optional('block', blockNumberOrHash),
    optional('stateOverrides', stateOverrideParam),
    optional('blockOverrides', blockOverrideParam),
  ],
  handler: async (ctx: EthContext, req, sel, state, blockOverride) => {
    checkCallBlockOverride(blockOverride);
    const block = await stateBlock(ctx.node, sel ?? { tag: 'latest' });
    return quantityHex(await estimateGasAt(ctx.chain, block, req, { state, block: blockOverride }));
  },
});
