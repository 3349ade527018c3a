import { Address } from '@ethereumjs/util';
import { bytesHex, quantityHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { arrayOf, blockNumberOrHash, bool, field, hash32, object, quantity, type Decoder } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { checkSimulateLimits, simulate } from '../engine/simulate/simulate.js';
import type { SimBlockInput, SimBlockResult, SimCall, SimCallResult } from '../engine/simulate/types.js';
import { formatBlock } from '../format/block.js';
import { wireLog } from '../format/log.js';
import { callObject, stateBlock } from '../params.js';
import { blockOverrideParam, stateOverrideParam } from './overrideParams.js';
import { simulateReveals } from './reveals.js';

const opt = <T>(o: Record<string, unknown>, name: string, decode: Decoder<T>): T | undefined =>
  !Object.hasOwn(o, name) || o[name] === undefined || o[name] === null ? undefined : field(name, decode)(o[name]);

/** A call of a simulated block: a call object, plus chainId, maxFeePerBlobGas and blobVersionedHashes. */
const simCall: Decoder<SimCall> = (value) => {
  const o = object(value, 'a call object');
  return {
    ...callObject(value),
    chainId: opt(o, 'chainId', quantity),
    maxFeePerBlobGas: opt(o, 'maxFeePerBlobGas', quantity),
    blobVersionedHashes: opt(o, 'blobVersionedHashes', arrayOf(hash32)),
  };
};

const blockStateCall: Decoder<SimBlockInput> = (value) => {
  const o = object(value, 'a block state call { blockOverrides, stateOverrides, calls }');
  return {
    blockOverrides: opt(o, 'blockOverrides', blockOverrideParam),
    stateOverrides: opt(o, 'stateOverrides', stateOverrideParam),
    calls: opt(o, 'calls', arrayOf(simCall, 'an array of calls')) ?? [],
  };
};

export interface SimPayload {
  readonly blocks: SimBlockInput[];
  readonly traceTransfers: boolean;
  readonly validation: boolean;
  readonly returnFullTransactions: boolean;
}

const simPayload: Decoder<SimPayload> = (value) => {
  const o = object(value, 'a simulation payload { blockStateCalls, traceTransfers, validation, returnFullTransactions }');
  return {
    blocks: opt(o, 'blockStateCalls', arrayOf(blockStateCall, 'an array of block state calls')) ?? [],
    traceTransfers: opt(o, 'traceTransfers', bool) ?? false,
    validation: opt(o, 'validation', bool) ?? false,
    returnFullTransactions: opt(o, 'returnFullTransactions', bool) ?? false,
  };
};

function formatCall(
  call: SimCallResult,
  block: SimBlockResult,
  index: number,
  blockHash: string,
  blockNumber: string,
  blockTimestamp: string,
): Record<string, unknown> {
  const txHash = bytesHex(block.mined.txHashes[index]!);
  const out: Record<string, unknown> = {
    returnData: bytesHex(call.returnData),
    logs: call.logs.map((l) =>
      wireLog({ address: new Address(l.address), topics: l.topics, data: l.data, logIndex: l.logIndex }, blockHash, blockNumber, blockTimestamp, txHash, index),
    ),
    gasUsed: quantityHex(call.gasUsed),
    maxUsedGas: quantityHex(call.maxUsedGas),
    status: quantityHex(call.status),
  };
  if (call.error !== undefined) {
    out.error =
      call.error.data === undefined
        ? { message: call.error.message, code: call.error.code }
        : { message: call.error.message, code: call.error.code, data: bytesHex(call.error.data) };
  }
  return out;
}

function formatSimBlock(block: SimBlockResult, full: boolean): Record<string, unknown> {
  const out = formatBlock(block.mined, { fullTransactions: full });
  // A simulated block is no block of the chain: no total difficulty (geth sends none).
  delete out.totalDifficulty;
  const h = block.mined.header;
  const [hash, number, time] = [bytesHex(block.mined.hash), quantityHex(h.number), quantityHex(h.timestamp)];
  out.calls = block.calls.map((c, i) => formatCall(c, block, i, hash, number, time));
  return out;
}

/**
 * eth_simulateV1: simulates blocks of calls on top of a block (default `latest`), as geth does: each entry of
 * `blockStateCalls` is a block with optional `blockOverrides` and `stateOverrides` and its `calls`, run one after
 * another on the state the previous ones left. `validation` turns on nonce and base-fee checks (and the parent's
 * next base fee), `traceTransfers` adds an ERC-20-style Transfer log of 0xeeee...eeee for each ETH transfer,
 * `returnFullTransactions` answers transaction objects. Answers the blocks, each with its `calls` results; geth's
 * error codes (-38010 nonce too low ... -38026 too many blocks). Nothing of the chain changes.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_simulateV1","params":[{"blockStateCalls":[{"stateOverrides":{"0xc000000000000000000000000000000000000000":{"balance":"0x3e8"}},"calls":[{"from":"0xc000000000000000000000000000000000000000","to":"0xc100000000000000000000000000000000000000","value":"0x3e8"}]}]},"latest"]}
 */
export const eth_simulateV1 = defineMethod({
  name: 'eth_simulateV1',
  facts: { heavy: true, reveals: simulateReveals },
  params: [required('payload', simPayload), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, payload, sel) => {
    // geth checks the request's size before it looks for the block.
    checkSimulateLimits(payload);
    const base = await stateBlock(ctx.node, sel);
    const blocks = await simulate(ctx.chain, base, payload);
    return blocks.map((b) => formatSimBlock(b, payload.returnFullTransactions));
  },
});
