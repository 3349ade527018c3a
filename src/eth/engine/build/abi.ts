/**
 * Contract artifacts of chains/contracts and ABI encoding of seeded calls and deployments
 * (micro-eth-signer's ABI coder). Arguments come from JSON: integers as numbers or strings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { createContract, deployContract, parseAbiItem } from 'micro-eth-signer/abi.js';
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { packagePath } from '../../../packageRoot.js';
import type { LoadedSeed } from '../../../seed/load.js';

/** The shipped artifacts: `chains/contracts/<Name>.json`. */
export const SHIPPED_CONTRACTS = packagePath('chains/contracts/');

interface AbiParam {
  readonly name?: string;
  readonly type: string;
  readonly components?: readonly AbiParam[];
}
interface AbiItem {
  readonly type: string;
  readonly name?: string;
  readonly inputs?: readonly AbiParam[];
}
export interface Artifact {
  readonly contractName: string;
  readonly abi: readonly AbiItem[];
  readonly bytecode: string;
}

/** Whether a seed's `artifact` is a path to a user's artifact file (else a name). */
export const isArtifactPath = (name: string): boolean => name.endsWith('.json');

/** Where a seed's artifacts can come from: the folders a bare name is looked up in, and the files it names by path. */
export interface ArtifactSources {
  /** The seed's `contracts/` folder, then the shipped one (a name is looked up in this order). */
  readonly dirs: readonly string[];
  /** The artifacts the seed names by path (a user's Hardhat or Foundry build output), resolved against the seed's folder. */
  readonly files: readonly string[];
}

/**
 * Every artifact a seed can read, the one list the build, the chain cache's key and the explorer's decoding share.
 * Reading an eth seed's blocks validates them, if they were not yet (src/seed/load.ts reads them on demand).
 */
export function seedArtifacts(loaded: LoadedSeed): ArtifactSources {
  const dirs = [join(loaded.baseDir, 'contracts'), SHIPPED_CONTRACTS];
  const seed = loaded.seed;
  if (seed.kind !== 'eth') return { dirs, files: [] };
  const named = [...seed.blocks.flatMap((b) => b.transactions), ...seed.pending].flatMap((tx) =>
    'artifact' in tx && typeof tx.artifact === 'string' && isArtifactPath(tx.artifact) ? [resolve(loaded.baseDir, tx.artifact)] : [],
  );
  return { dirs, files: [...new Set(named)] };
}

/**
 * Loads artifacts by name from the seed's own `contracts/` folder first, then the shipped ones; or by path (ending in
 * .json) relative to the seed's folder: Hardhat's artifacts (`bytecode` a hex string) and Foundry's (`bytecode.object`).
 */
export class Artifacts {
  private readonly cache = new Map<string, Artifact>();

  constructor(
    private readonly dirs: readonly string[],
    private readonly baseDir = process.cwd(),
  ) {}

  get(name: string): Artifact {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    const file = isArtifactPath(name) ? resolve(this.baseDir, name) : this.dirs.map((d) => join(d, `${name}.json`)).find((f) => existsSync(f));
    if (file === undefined) throw new Error(`no artifact ${name}.json in ${this.dirs.join(' or ')}`);
    let raw: { abi?: unknown; bytecode?: unknown; contractName?: unknown };
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`cannot read artifact ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    // Foundry keeps the code under bytecode.object; Hardhat and devgate's own artifacts as a string.
    const bytecode = typeof raw.bytecode === 'object' && raw.bytecode !== null ? (raw.bytecode as { object?: unknown }).object : raw.bytecode;
    if (!Array.isArray(raw.abi) || typeof bytecode !== 'string') throw new Error(`${file} is not a compiled artifact (abi, bytecode)`);
    if (/__\$[0-9a-fA-F]{34}\$__/.test(bytecode)) throw new Error(`${file} needs libraries linked (its bytecode has link placeholders)`);
    const contractName = typeof raw.contractName === 'string' ? raw.contractName : basename(file, '.json');
    const artifact: Artifact = { contractName, abi: raw.abi as AbiItem[], bytecode: bytecode.startsWith('0x') ? bytecode : `0x${bytecode}` };
    this.cache.set(name, artifact);
    return artifact;
  }
}

/** JSON values to what the coder takes: bigints for (u)int, nested arrays and tuples likewise. */
function coerce(param: AbiParam, value: unknown, where: string): unknown {
  const arrayMatch = /^(.*)\[(\d*)\]$/.exec(param.type);
  if (arrayMatch !== null) {
    if (!Array.isArray(value)) throw new Error(`${where}: expected an array for ${param.type}`);
    return value.map((v, i) => coerce({ ...param, type: arrayMatch[1]! }, v, `${where}[${i}]`));
  }
  if (/^u?int\d*$/.test(param.type)) {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value === 'string' && /^(-?[0-9]+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value);
    throw new Error(`${where}: expected an integer for ${param.type}, got ${JSON.stringify(value)}`);
  }
  if (param.type === 'tuple') return coerceArgs(param.components ?? [], Array.isArray(value) ? value : [value], where);
  if (/^bytes\d*$/.test(param.type) && typeof value === 'string') return hexToBytes(value as PrefixedHexString);
  return value;
}

/** Arguments in micro-eth-signer's shape: one value, or an object by name, or an array. */
function coerceArgs(inputs: readonly AbiParam[], args: readonly unknown[], where: string): unknown {
  if (args.length !== inputs.length) throw new Error(`${where}: expected ${inputs.length} argument(s), got ${args.length}`);
  const values = inputs.map((p, i) => coerce(p, args[i], `${where}[${i}]`));
  if (inputs.length === 1) return values[0];
  if (inputs.every((p) => p.name !== undefined && p.name !== '')) return Object.fromEntries(inputs.map((p, i) => [p.name!, values[i]]));
  return values;
}

/** Init code of a deployment: bytecode followed by the encoded constructor arguments. */
export function deployData(artifact: Artifact, args: readonly unknown[]): Uint8Array {
  const ctor = artifact.abi.find((i) => i.type === 'constructor');
  const inputs = ctor?.inputs ?? [];
  if (inputs.length === 0) {
    if (args.length > 0) throw new Error(`args: ${artifact.contractName}'s constructor takes no arguments`);
    return hexToBytes(artifact.bytecode as PrefixedHexString);
  }
  const value = coerceArgs(inputs, args, 'args');
  return hexToBytes(deployContract(artifact.abi as never, artifact.bytecode, value as never) as PrefixedHexString);
}

/**
 * Call data of a function: `fn` is a signature (`transfer(address,uint256)`) or, with an artifact,
 * a function name of its ABI.
 */
export function callData(fn: string, args: readonly unknown[], artifact: Artifact | undefined): Uint8Array {
  // A signature does not depend on the artifact; a bare name does.
  const cache = fn.includes('(') || artifact === undefined ? bySignature : (byArtifact.get(artifact) ?? byArtifact.set(artifact, new Map()).get(artifact)!);
  let entry = cache.get(fn);
  if (entry === undefined) cache.set(fn, (entry = functionEncoder(fn, artifact)));
  return entry.encode(coerceArgs(entry.inputs, args, 'args'));
}

/** Parsed functions with their encoders (building one hashes its signature), kept for the next call. */
type Encoder = { inputs: readonly AbiParam[]; encode(value: unknown): Uint8Array };
const bySignature = new Map<string, Encoder>();
const byArtifact = new WeakMap<Artifact, Map<string, Encoder>>();

function functionEncoder(fn: string, artifact: Artifact | undefined): Encoder {
  let item: AbiItem;
  if (fn.includes('(')) {
    try {
      item = parseAbiItem(`function ${fn}`) as AbiItem;
    } catch (err) {
      throw new Error(`function: cannot parse ${JSON.stringify(fn)}: ${(err as Error).message}`);
    }
  } else {
    if (artifact === undefined) throw new Error('function: a function name needs `artifact` (or write a signature like transfer(address,uint256))');
    const found = artifact.abi.filter((i) => i.type === 'function' && i.name === fn);
    if (found.length !== 1) throw new Error(`function: ${artifact.contractName} has ${found.length === 0 ? 'no' : 'several'} function(s) named ${fn}`);
    item = found[0]!;
  }
  const name = item.name ?? '';
  const contract = createContract([{ outputs: [], ...item }] as never) as unknown as Record<string, { encodeInput(v: unknown): Uint8Array }>;
  const method = contract[name];
  if (method === undefined) throw new Error(`function: cannot encode ${fn}`);
  return { inputs: item.inputs ?? [], encode: (value) => method.encodeInput(value) };
}
