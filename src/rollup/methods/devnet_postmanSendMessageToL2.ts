import { InvalidArgument } from '../../errors.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { arrayOf, describe, type Decoder } from '../../rpc/params.js';
import type { RollupContext } from '../context.js';
import { l1ToL2MessageHash } from '../engine/hash.js';
import type { L1HandlerTx } from '../engine/types.js';
import { feltHex } from '../format.js';
import { felt, l1TransactionHash } from '../params.js';

const ETH_ADDRESS = /^0x[0-9a-fA-F]{1,40}$/;
const l1Address: Decoder<bigint> = (v) => {
  if (typeof v !== 'string' || !ETH_ADDRESS.test(v)) throw new InvalidArgument(`expected an L1 (20-byte) address, got ${describe(v)}`);
  return BigInt(v);
};
const amount: Decoder<bigint> = (v) => {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,32}$/.test(v)) throw new InvalidArgument(`expected a 0x-prefixed hex amount below 2^128, got ${describe(v)}`);
  return BigInt(v);
};

/**
 * devnet_postmanSendMessageToL2 (starknet-devnet's name): delivers an L1 -> L2 message as an
 * L1_HANDLER transaction in the pending block: it calls `entry_point_selector` of `l2_contract_address`
 * with (l1_contract_address, ...payload); `paid_fee_on_l1` (wei) must cover its fee (estimateMessageFee).
 * devgate's own `l1_transaction_hash` (default: the message hash) is what starknet_getMessagesStatus
 * looks the message up by. Errors: 20 target not deployed, 53 fee paid below the handler's fee.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_postmanSendMessageToL2","params":{"l2_contract_address":"0x2c1e...",
 *   "entry_point_selector":"0x...","l1_contract_address":"0xae0e...","payload":["0x1"],"paid_fee_on_l1":"0x5af3107a4000","nonce":"0x0"}}
 *   -> {"transaction_hash":"0x...","message_hash":"0x..."}
 */
export const devnet_postmanSendMessageToL2 = defineMethod({
  name: 'devnet_postmanSendMessageToL2',
  facts: { dev: true },
  named: true,
  params: [
    required('l2_contract_address', felt),
    required('entry_point_selector', felt),
    required('l1_contract_address', l1Address),
    required('payload', arrayOf(felt, 'an array of felts')),
    required('paid_fee_on_l1', amount),
    required('nonce', felt),
    optional('l1_transaction_hash', l1TransactionHash),
  ],
  handler: (ctx: RollupContext, to, selector, from, payload, paid, nonce, l1Hash) => {
    const draft = {
      kind: 'L1_HANDLER',
      version: 0,
      query: false,
      contractAddress: to,
      entryPointSelector: selector,
      calldata: [from, ...payload],
      nonce,
      signature: [],
      paidFeeOnL1: paid,
    } as const;
    const messageHash = l1ToL2MessageHash({ ...draft, l1TransactionHash: 0n });
    const tx: L1HandlerTx = { ...draft, l1TransactionHash: l1Hash ?? messageHash };
    return { transaction_hash: feltHex(ctx.chain.addInvokeTransaction(tx)), message_hash: '0x' + messageHash.toString(16).padStart(64, '0') };
  },
});
