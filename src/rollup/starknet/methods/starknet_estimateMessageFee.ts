import { InvalidArgument, RollupError } from '../../../errors.js';
import { defineMethod, required } from '../../../rpc/method.js';
import { describe, type Decoder } from '../../../rpc/params.js';
import type { RollupContext } from '../../context.js';
import { deployedAt } from '../../engine/execute.js';
import { l1HandlerGas } from '../../engine/fees.js';
import type { Felt } from '../../engine/types.js';
import { feltHex } from '../../format.js';
import { felt } from '../../params.js';
import { formatFeeEstimate } from '../format.js';
import { resolveBlock, starknetBlockId } from '../params.js';
import { classAt } from '../state.js';
import { revealsAny } from './reveals.js';

interface MessageFromL1 {
  readonly fromAddress: Felt;
  readonly toAddress: Felt;
  readonly selector: Felt;
  readonly payload: readonly Felt[];
}

const ETH_ADDRESS = /^0x[0-9a-fA-F]{1,40}$/;

const messageFromL1: Decoder<MessageFromL1> = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidArgument(`expected a MSG_FROM_L1 object, got ${describe(value)}`);
  const o = value as Record<string, unknown>;
  const extra = Object.keys(o).find((k) => !['from_address', 'to_address', 'entry_point_selector', 'payload'].includes(k));
  if (extra !== undefined) throw new InvalidArgument(`unknown message member ${JSON.stringify(extra.slice(0, 40))}`);
  if (typeof o.from_address !== 'string' || !ETH_ADDRESS.test(o.from_address))
    throw new InvalidArgument(`"from_address": expected an L1 (20-byte) address, got ${describe(o.from_address)}`);
  if (!Array.isArray(o.payload)) throw new InvalidArgument(`"payload": expected an array of felts, got ${describe(o.payload)}`);
  const named = (k: string, v: unknown) => {
    try {
      return felt(v);
    } catch (err) {
      throw new InvalidArgument(`"${k}": ${(err as Error).message}`);
    }
  };
  return {
    fromAddress: BigInt(o.from_address),
    toAddress: named('to_address', o.to_address),
    selector: named('entry_point_selector', o.entry_point_selector),
    payload: o.payload.map((p, i) => named(`payload: ${i}`, p)),
  };
};

/**
 * starknet_estimateMessageFee: the fee (in WEI, paid on L1) of the L1_HANDLER transaction an L1 -> L2
 * message would become, at a block: gas by the simulation's rule for a call with calldata
 * (from_address, ...payload) (docs/rollup.md "Fee model"), at the block's L1 gas price in wei. The target must be
 * deployed (20); when its class is declared, the selector must be one of its L1_HANDLER entry points (40).
 * @example {"jsonrpc":"2.0","id":1,"method":"starknet_estimateMessageFee","params":{"message":{"from_address":"0xae0e...",
 *   "to_address":"0x2c1e...","entry_point_selector":"0x...","payload":["0x1"]},"block_id":"latest"}}
 *   -> {"l1_gas_consumed":"0x...","l1_gas_price":"0x...",...,"overall_fee":"0x...","unit":"WEI"}
 */
export const starknet_estimateMessageFee = defineMethod({
  name: 'starknet_estimateMessageFee',
  facts: { reveals: revealsAny },
  named: true,
  params: [required('message', messageFromL1), required('block_id', starknetBlockId)],
  handler: (ctx: RollupContext, msg, id) => {
    const block = resolveBlock(ctx, id);
    const target = deployedAt(ctx.chain.stateAt(block), msg.toAddress);
    if (target === undefined) throw new RollupError(20, 'Contract not found');
    let handlers: readonly { selector: Felt }[] | undefined;
    try {
      handlers = classAt(ctx, block, target.classHash).contractClass.entryPoints.l1Handler;
    } catch {
      handlers = undefined; // a seed contract whose class is not declared: any selector
    }
    if (handlers !== undefined && !handlers.some((h) => h.selector === msg.selector)) {
      throw new RollupError(40, 'Contract error', {
        revert_error: `Entry point ${feltHex(msg.selector)} is not an L1_HANDLER of contract ${feltHex(msg.toAddress)} (class ${feltHex(target.classHash)}).`,
      });
    }
    return formatFeeEstimate(l1HandlerGas(msg.payload.length), 'WEI', block.gasPrices, ctx.chain.config);
  },
});
