import { Address } from '@ethereumjs/util';
import { InvalidArgument } from '../../../errors.js';
import { defineMethod, optional, required } from '../../../rpc/method.js';
import { address, arrayOf, field, hash32, hexData, object, uint64, type Decoder } from '../../../rpc/params.js';
import type { PayloadAttributes } from '../../engine/mining/payload.js';
import { formatPayloadEnvelope } from '../../format/payload.js';
import type { EthContext } from '../../context.js';
import { withdrawalParam } from '../overrideParams.js';
import { revealsAny } from '../reveals.js';

/** PayloadAttributesV3: `{ timestamp, prevRandao, suggestedFeeRecipient, withdrawals, parentBeaconBlockRoot }`. */
const payloadAttributes: Decoder<PayloadAttributes> = (value) => {
  const o = object(value, 'payload attributes { timestamp, prevRandao, suggestedFeeRecipient, withdrawals, parentBeaconBlockRoot }');
  const present = (name: string) => o[name] !== undefined && o[name] !== null;
  return {
    timestamp: field('timestamp', uint64)(o.timestamp),
    prevRandao: field('prevRandao', hash32)(o.prevRandao),
    feeRecipient: new Address(field('suggestedFeeRecipient', address)(o.suggestedFeeRecipient)),
    ...(present('withdrawals') ? { withdrawals: field('withdrawals', arrayOf(withdrawalParam, 'an array of withdrawals'))(o.withdrawals) } : {}),
    ...(present('parentBeaconBlockRoot') ? { parentBeaconBlockRoot: field('parentBeaconBlockRoot', hash32)(o.parentBeaconBlockRoot) } : {}),
  };
};

const extraDataParam: Decoder<Uint8Array> = (value) => {
  const bytes = hexData(value);
  if (bytes.length > 32) throw new InvalidArgument(`extraData is ${bytes.length} bytes, at most 32`);
  return bytes;
};

/**
 * testing_buildBlockV1 (geth's testing API, execution-apis src/testing): builds a block on head (`parentHash` must be
 * head's) from payload attributes and answers it as engine_getPayloadV4 does, without adding it to the chain. With a
 * list of raw transactions the block holds exactly those (one that does not apply fails the request, -32000 with
 * geth's message); an empty list builds an empty block; null or no list takes the pool's executable transactions.
 * A dev method: not served with devMethods off.
 * @example {"jsonrpc":"2.0","id":1,"method":"testing_buildBlockV1","params":["0xd226...",{"timestamp":"0x228","prevRandao":"0x00...","suggestedFeeRecipient":"0x00...","withdrawals":[],"parentBeaconBlockRoot":"0xcf8e..."},[],"0x"]} -> {"executionPayload":{...},"blockValue":"0x0",...}
 */
export const testing_buildBlockV1 = defineMethod({
  name: 'testing_buildBlockV1',
  facts: { dev: true, persists: true, reveals: revealsAny },
  params: [
    required('parentHash', hash32),
    required('payloadAttributes', payloadAttributes),
    optional('transactions', arrayOf(hexData, 'an array of raw transactions')),
    optional('extraData', extraDataParam),
  ],
  handler: async (ctx: EthContext, parentHash, attrs, raws, extraData) =>
    formatPayloadEnvelope(await ctx.node.buildPayload(parentHash, attrs, raws, extraData ?? new Uint8Array())),
});
