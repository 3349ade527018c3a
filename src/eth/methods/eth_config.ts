import { bytesHex, quantityHex } from '../../hex.js';
import { defineMethod } from '../../rpc/method.js';
import { RawJson } from '../../rpc/rawJson.js';
import type { EthContext } from '../context.js';
import { chainForkConfig, type ForkConfig } from '../engine/query/forkConfig.js';

/** One fork's entry as geth writes it: activationTime and the blob schedule as JSON numbers (bigints, written exactly below), chainId a quantity, maps by name. */
function forkJson(c: ForkConfig | undefined): Record<string, unknown> | null {
  if (c === undefined) return null;
  const s = c.blobSchedule;
  return {
    activationTime: c.activationTime,
    blobSchedule: s === undefined ? null : { target: s.target, max: s.max, baseFeeUpdateFraction: s.baseFeeUpdateFraction },
    chainId: quantityHex(c.chainId),
    forkId: bytesHex(c.forkId),
    precompiles: Object.fromEntries(c.precompiles.map(([name, address]) => [name, address.toString()])),
    systemContracts: Object.fromEntries(c.systemContracts.map(([name, address]) => [name, address.toString()])),
  };
}

/** JSON text with bigints as exact JSON integers (geth's uint64 fields: a fork time past 2^53 keeps every digit). */
function exactJson(value: unknown): RawJson {
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `\u0000${v}` : v));
  return new RawJson(text.replace(/"\\u0000(\d+)"/g, '$1'));
}

/**
 * eth_config (EIP-7910): the fork configuration at head (`current`), of the next scheduled fork (`next`) and of the
 * last scheduled one (`last`), each with activationTime, blobSchedule, chainId, forkId (EIP-2124), precompiles
 * and systemContracts, as geth computes them from the chain's rules. Only time-based forks (Shanghai on) have
 * entries, as in geth: a chain before Shanghai answers `current: null`; no fork scheduled after head's answers
 * `next: null, last: null`.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_config","params":[]}
 */
export const eth_config = defineMethod({
  name: 'eth_config',
  params: [],
  handler: (ctx: EthContext) => {
    const { current, next, last } = chainForkConfig(ctx.chain);
    return exactJson({ current: forkJson(current), next: forkJson(next), last: forkJson(last) });
  },
});
