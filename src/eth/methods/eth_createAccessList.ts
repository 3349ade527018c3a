import { quantityHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { createAccessListAt } from '../engine/exec/accessList.js';
import { formatAccessList } from '../format/accessList.js';
import { callObject, stateBlock } from '../params.js';
import { stateOverrideParam } from './overrideParams.js';
import { callReveals } from './reveals.js';

/**
 * eth_createAccessList: the access list a transaction would use and its gas with that list, on the
 * state after the block (default `pending`, as geth). A failed execution is reported in `error`. Optional
 * third argument: a state override (as geth, no precompile is moved there: movePrecompileToAddress is refused).
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_createAccessList","params":[{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","to":"0x5fbdb2315678afecb367f032d93f642f64180aa3","data":"0x18160ddd"},"latest"]}
 */
export const eth_createAccessList = defineMethod({
  name: 'eth_createAccessList',
  facts: { heavy: true, reveals: callReveals(2) },
  params: [required('transaction', callObject), optional('block', blockNumberOrHash), optional('stateOverrides', stateOverrideParam)],
  handler: async (ctx: EthContext, req, sel, state) => {
    const block = await stateBlock(ctx.node, sel ?? { tag: 'pending' });
    const result = await createAccessListAt(ctx.chain, block, req, state);
    const out: Record<string, unknown> = { accessList: formatAccessList(result.accessList) };
    if (result.error !== undefined) out.error = result.error;
    out.gasUsed = quantityHex(result.gasUsed);
    return out;
  },
});
