/** Decoding with the ABIs devgate knows (the page's meta): inputs by selector, logs by topic, reverts by selector. */
import { type Abi, type AbiEvent, type AbiFunction, decodeEventLog, decodeFunctionData, toEventSelector, toFunctionSelector } from 'viem';
import { show } from './dom.js';
import type { Meta } from './rpc.js';

interface Known<T> {
  readonly contract: string;
  readonly item: T;
}

const functions = new Map<string, Known<AbiFunction>[]>();
const events = new Map<string, Known<AbiEvent>[]>();

export function learnAbis(meta: Meta): void {
  for (const { name, abi } of meta.abis) {
    for (const item of abi as Abi) {
      try {
        if (item.type === 'function') push(functions, toFunctionSelector(item), { contract: name, item });
        else if (item.type === 'event') push(events, toEventSelector(item), { contract: name, item });
      } catch {
        // an ABI item viem cannot read is left out
      }
    }
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

export interface Decoded {
  /** `Token.transfer` */
  readonly name: string;
  readonly args: readonly (readonly [string, string])[];
}

/** A call's input decoded, or undefined when no known ABI has its selector (or none decodes it). */
export function decodeInput(input: string | undefined): Decoded | undefined {
  if (input === undefined || input.length < 10) return undefined;
  for (const { contract, item } of functions.get(input.slice(0, 10).toLowerCase()) ?? []) {
    try {
      const r = decodeFunctionData({ abi: [item], data: input as `0x${string}` });
      return { name: `${contract}.${item.name}`, args: item.inputs.map((p, i) => [p.name || `arg${i}`, show((r.args ?? [])[i])] as const) };
    } catch {
      // another contract's function with the same selector may fit
    }
  }
  return undefined;
}

/** A log decoded, or undefined when no known event fits its topics and data. */
export function decodeLog(topics: readonly string[], data: string): Decoded | undefined {
  const first = topics[0];
  if (first === undefined) return undefined;
  for (const { contract, item } of events.get(first.toLowerCase()) ?? []) {
    try {
      const r = decodeEventLog({ abi: [item], data: data as `0x${string}`, topics: topics as [`0x${string}`, ...`0x${string}`[]] });
      const args = r.args as unknown as Record<string, unknown> | unknown[];
      return {
        name: `${contract}.${item.name}`,
        args: item.inputs.map((p, i) => [p.name || `arg${i}`, show(Array.isArray(args) ? args[i] : args[p.name ?? `${i}`])] as const),
      };
    } catch {
      // the same event signature with other indexed parameters may fit
    }
  }
  return undefined;
}
