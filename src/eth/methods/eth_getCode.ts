import { bytesHex } from '../../hex.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import { RawJson } from '../../rpc/rawJson.js';
import type { EthContext } from '../context.js';
import { addressParam, stateBlock } from '../params.js';
import { addressAt } from './reveals.js';

/**
 * The answer of code already answered, per code object (the chain hands out one object per code while it
 * keeps it; code never changes): its JSON text, so a few KB of hex are not JSON.stringify-ed (scanned for
 * escapes) on every answer.
 */
const answerOfCode = new WeakMap<Uint8Array, RawJson>();

function codeAnswer(code: Uint8Array): RawJson {
  let answer = answerOfCode.get(code);
  // Hex needs no escaping: its JSON text is the hex in quotes.
  if (answer === undefined) answerOfCode.set(code, (answer = new RawJson(`"${bytesHex(code)}"`)));
  return answer;
}

/**
 * eth_getCode: the code of an address at a block; `0x` for an account without code.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getCode","params":["0x5fbdb2315678afecb367f032d93f642f64180aa3","latest"]}
 */
export const eth_getCode = defineMethod({
  name: 'eth_getCode',
  facts: { reveals: addressAt(0) },
  params: [required('address', addressParam), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, address, sel) => codeAnswer(await ctx.chain.getCode(address, await stateBlock(ctx.node, sel))),
});
