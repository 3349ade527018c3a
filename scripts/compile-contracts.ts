/**
 * Compiles `chains/contracts/*.sol` with solc-js (the `solc` npm package: wasm, no download at run
 * time) into `chains/contracts/<Name>.json` artifacts. Run with `npm run contracts` (or
 * `tsx scripts/compile-contracts.ts <dir>` for another folder); exits non-zero on any compiler error. Each source is compiled on its own so its artifacts (AST ids in the storage
 * layout, metadata hash) do not change when another source is added. Output is deterministic:
 * fixed compiler version and settings, stable key order, 2-space JSON.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';

/** The solc release the artifacts are built with; the installed `solc` package must be exactly this. */
export const SOLC_VERSION = '0.8.37';
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONTRACTS_DIR = join(REPO_ROOT, 'chains', 'contracts');

const DEFAULT_EVM_VERSION = 'paris';
const OPTIMIZER = { enabled: true, runs: 200 } as const;

/** Sources also built for another EVM version, under another artifact name. */
const EXTRA_BUILDS: { source: string; evmVersion: string; rename: Record<string, string> }[] = [
  { source: 'SimpleStore.sol', evmVersion: 'homestead', rename: { SimpleStore: 'SimpleStoreHomestead' } },
];

/** The compiler's warning for pre-London targets: expected for the homestead build only. */
export const DEPRECATED_EVM_WARNING = 'Support for EVM versions older than london is deprecated';

export interface Artifact {
  contractName: string;
  sourceName: string;
  compiler: { version: string; evmVersion: string; optimizer: { enabled: boolean; runs: number } };
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
  storageLayout: unknown;
}

export interface CompileResult {
  /** Artifact name -> the exact text of its JSON file. */
  files: Map<string, string>;
  artifacts: Map<string, Artifact>;
  warnings: string[];
}

export class ContractCompileError extends Error {}

interface SolcMessage {
  severity: 'error' | 'warning' | 'info';
  formattedMessage: string;
}
interface SolcContract {
  abi: unknown[];
  evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
  storageLayout: unknown;
}
interface SolcOutput {
  errors?: SolcMessage[];
  contracts?: Record<string, Record<string, SolcContract>>;
}

/** Compiles every `.sol` file of `dir` (and the extra builds) into artifacts, in memory. */
export function compileContracts(dir: string = CONTRACTS_DIR): CompileResult {
  const version = solc.version();
  if (!version.startsWith(`${SOLC_VERSION}+`)) {
    throw new ContractCompileError(`solc ${SOLC_VERSION} is required, the installed solc is ${version}`);
  }
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  const builds = [
    ...sources.map((source) => ({ source, evmVersion: DEFAULT_EVM_VERSION, rename: {} as Record<string, string> })),
    ...EXTRA_BUILDS.filter((b) => sources.includes(b.source)),
  ];
  const result: CompileResult = { files: new Map(), artifacts: new Map(), warnings: [] };
  const errors: string[] = [];
  for (const build of builds) {
    const sourceName = relative(REPO_ROOT, join(dir, build.source)).split('\\').join('/');
    const output = compileOne(sourceName, readFileSync(join(dir, build.source), 'utf8'), build.evmVersion);
    for (const m of output.errors ?? []) {
      if (m.severity === 'error') errors.push(m.formattedMessage);
      else if (m.severity === 'warning') result.warnings.push(`${build.source} (${build.evmVersion}): ${m.formattedMessage}`);
    }
    for (const [contractName, c] of Object.entries(output.contracts?.[sourceName] ?? {})) {
      if (c.evm.bytecode.object === '') continue; // interfaces and abstract contracts
      const name = build.rename[contractName] ?? contractName;
      if (result.artifacts.has(name)) errors.push(`two contracts are named ${name}`);
      const artifact: Artifact = {
        contractName: name,
        sourceName,
        compiler: { version, evmVersion: build.evmVersion, optimizer: { ...OPTIMIZER } },
        abi: sortKeys(c.abi) as unknown[],
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        storageLayout: sortKeys(c.storageLayout),
      };
      result.artifacts.set(name, artifact);
      result.files.set(name, `${JSON.stringify(artifact, null, 2)}\n`);
    }
  }
  if (errors.length > 0) throw new ContractCompileError(`solc failed:\n${errors.join('\n')}`);
  return result;
}

function compileOne(sourceName: string, content: string, evmVersion: string): SolcOutput {
  const input = {
    language: 'Solidity',
    sources: { [sourceName]: { content } },
    settings: {
      optimizer: OPTIMIZER,
      evmVersion,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'storageLayout'] } },
    },
  };
  const findImports = (path: string) => {
    try {
      return { contents: readFileSync(join(REPO_ROOT, path), 'utf8') };
    } catch {
      return { error: `import not found: ${path}` };
    }
  };
  return JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput;
}

/** Object keys in sorted order at every depth (array order is kept: it is meaningful in an ABI). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/** True for a JSON file this script wrote (so stale artifacts can be removed, other JSON left alone). */
function isArtifactFile(path: string): boolean {
  try {
    const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    return typeof json.contractName === 'string' && typeof json.sourceName === 'string' && 'deployedBytecode' in json;
  } catch {
    return false;
  }
}

/** Compiles and writes the artifacts of `dir`, removing artifacts whose contract is gone. */
export function writeArtifacts(dir: string = CONTRACTS_DIR): CompileResult {
  const result = compileContracts(dir);
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    if (!result.files.has(f.slice(0, -'.json'.length)) && isArtifactFile(join(dir, f))) rmSync(join(dir, f));
  }
  for (const [name, text] of result.files) writeFileSync(join(dir, `${name}.json`), text);
  return result;
}

/** The command: compiles and writes the artifacts of `dir`, reports, and gives the exit code (1 on any error). */
export function run(dir: string = CONTRACTS_DIR): number {
  try {
    const result = writeArtifacts(resolve(dir));
    for (const w of result.warnings) console.warn(w.trimEnd());
    const names = [...result.files.keys()].sort();
    console.log(`solc ${solc.version()}: wrote ${names.length} artifacts: ${names.join(', ')}`);
    return 0;
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = run(process.argv[2]);
}
