/**
 * The text of a `console.log` call (hardhat's console.sol, forge-std's console): its calldata decoded with the
 * signature its selector names (consoleSignatures.ts, generated from console.sol) and formatted as foundry's
 * `console_format` does (anvil 1.7.1's node log): the first argument, when a string, may carry format specifiers
 * (`%s`, `%d`, `%i`, `%o`, `%x`, `%%`), and the arguments left over follow it, separated by spaces. Addresses are
 * checksummed, bytes are 0x hex, integers decimal.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { toChecksumAddress } from '@ethereumjs/util';
import { createContract } from 'micro-eth-signer/abi.js';
import { CONSOLE_SIGNATURES } from './consoleSignatures.js';
import { bytesHex } from '../hex.js';

interface Decoder {
  readonly types: readonly string[];
  readonly decode: (body: Uint8Array) => unknown;
}

let bySelector: Map<number, Decoder> | undefined;

/** The decoders by selector, made on the first console.log seen (a node that never sees one never builds them). */
function decoders(): Map<number, Decoder> {
  if (bySelector !== undefined) return bySelector;
  bySelector = new Map();
  for (const signature of CONSOLE_SIGNATURES) {
    const hash = keccak_256(new TextEncoder().encode(signature));
    const selector = ((hash[0]! << 24) | (hash[1]! << 16) | (hash[2]! << 8) | hash[3]!) >>> 0;
    const types = signature
      .slice(signature.indexOf('(') + 1, -1)
      .split(',')
      .filter((t) => t !== '');
    // The arguments decoded as a function's outputs: micro-eth-signer's ABI coder, for the calldata after the selector.
    const outputs = types.map((type) => ({ name: '', type }));
    const method = createContract([{ type: 'function', name: 'log', inputs: [], outputs }] as never)['log'] as unknown as {
      decodeOutput(b: Uint8Array): unknown;
    };
    bySelector.set(selector, { types, decode: (body) => (types.length === 0 ? [] : method.decodeOutput(body)) });
  }
  return bySelector;
}

/** A decoded argument and its Solidity type. */
interface Arg {
  readonly type: string;
  readonly value: unknown;
}

/** The line a console.log call prints, or undefined when the calldata names no console.sol signature or does not decode. */
export function consoleLogText(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0;
  const decoder = decoders().get(selector);
  if (decoder === undefined) return undefined;
  let decoded: unknown;
  try {
    decoded = decoder.decode(data.subarray(4));
  } catch {
    return undefined;
  }
  const values = decoder.types.length === 1 ? [decoded] : (decoded as unknown[]);
  return format(decoder.types.map((type, i) => ({ type, value: values[i] })));
}

/** An argument as `%s` (and a trailing argument) shows it. */
function display(arg: Arg): string {
  const { type, value } = arg;
  if (type === 'address') return toChecksumAddress(String(value));
  if (value instanceof Uint8Array) return bytesHex(value);
  return String(value);
}

/** An argument as a specifier shows it; undefined: the specifier does not apply and is printed as it is. */
function specified(spec: string, arg: Arg): string | undefined {
  switch (spec) {
    case 's':
      return display(arg);
    case 'd':
    case 'i':
      return typeof arg.value === 'bigint' ? arg.value.toString() : display(arg);
    case 'x':
      return typeof arg.value === 'bigint' ? `0x${(arg.value < 0n ? (1n << 256n) + arg.value : arg.value).toString(16)}` : display(arg);
    case 'o':
      return arg.type === 'string' ? JSON.stringify(arg.value) : display(arg);
    default:
      return undefined;
  }
}

/** foundry's console_format: specifiers in a leading string, then the rest of the arguments, spaced. */
function format(args: readonly Arg[]): string {
  if (args.length === 0) return '';
  const [first, ...rest] = args;
  if (first!.type !== 'string') return args.map(display).join(' ');
  const template = String(first!.value);
  let next = 0;
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '%' || i + 1 >= template.length) {
      out += c;
      continue;
    }
    const spec = template[i + 1]!;
    if (spec === '%') {
      out += '%';
      i++;
      continue;
    }
    const text = next < rest.length ? specified(spec, rest[next]!) : undefined;
    if (text === undefined) {
      out += c;
      continue;
    }
    out += text;
    next++;
    i++;
  }
  return [out, ...rest.slice(next).map(display)].join(' ');
}
