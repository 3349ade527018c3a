/**
 * The committed artifacts in chains/contracts are exactly what the sources compile to with the
 * pinned solc, and the storage layout each source documents is the one solc reports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CONTRACTS_DIR,
  DEPRECATED_EVM_WARNING,
  SOLC_VERSION,
  compileContracts,
  type CompileResult,
} from '../../scripts/compile-contracts.js';

interface StorageEntry {
  label: string;
  slot: string;
  offset: number;
  type: string;
}
interface StorageLayout {
  storage: StorageEntry[];
  types: Record<string, { label: string }>;
}

/** The `slot N [offset M]  label  type` lines of a source's storage layout comment. */
function documentedSlots(source: string): { slot: string; offset: number; label: string; type: string }[] {
  const lines = source.split('\n').map((l) => /^\s*\/\/\/\s+slot (\d+)(?: offset (\d+))?\s+(\w+)\s+(.+?)\s*$/.exec(l));
  return lines
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ slot: m[1]!, offset: Number(m[2] ?? 0), label: m[3]!, type: m[4]! }));
}

const committed = (name: string) => readFileSync(join(CONTRACTS_DIR, `${name}.json`), 'utf8');

describe('contract artifacts', () => {
  let compiled: CompileResult;
  beforeAll(() => {
    compiled = compileContracts();
  });

  it('are what the sources compile to with the pinned solc', () => {
    const committedNames = readdirSync(CONTRACTS_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
    expect([...compiled.files.keys()].sort()).toEqual(committedNames);
    expect(committedNames).toEqual(['Emitter', 'Reverter', 'SimpleStore', 'SimpleStoreHomestead', 'StorageLayout', 'Token']);
    for (const [name, text] of compiled.files) expect(committed(name), `${name}.json is stale: run npm run contracts`).toBe(text);
  });

  it('use solc ' + SOLC_VERSION + ' with the optimizer, paris by default and homestead for SimpleStoreHomestead', () => {
    for (const a of compiled.artifacts.values()) {
      expect(a.compiler.version).toMatch(new RegExp(`^${SOLC_VERSION.replaceAll('.', '\\.')}\\+commit\\.`));
      expect(a.compiler.optimizer).toEqual({ enabled: true, runs: 200 });
      expect(a.compiler.evmVersion).toBe(a.contractName === 'SimpleStoreHomestead' ? 'homestead' : 'paris');
      expect(a.bytecode).toMatch(/^0x([0-9a-f]{2})+$/);
      expect(a.deployedBytecode).toMatch(/^0x([0-9a-f]{2})+$/);
    }
    expect(compiled.artifacts.get('SimpleStoreHomestead')!.abi).toEqual(compiled.artifacts.get('SimpleStore')!.abi);
  });

  it('compile without warnings other than the homestead deprecation', () => {
    const unexpected = compiled.warnings.filter((w) => !(w.includes('(homestead)') && w.includes(DEPRECATED_EVM_WARNING)));
    expect(unexpected).toEqual([]);
  });

  it('document the storage slots solc reports, for every state variable', () => {
    for (const a of compiled.artifacts.values()) {
      const source = readFileSync(join(CONTRACTS_DIR, a.sourceName.split('/').pop()!), 'utf8');
      const layout = a.storageLayout as StorageLayout;
      const documented = documentedSlots(source);
      const actual = layout.storage.map((e) => ({
        slot: e.slot,
        offset: e.offset,
        label: e.label,
        type: layout.types[e.type]!.label,
      }));
      expect(documented.map(({ type, ...rest }) => rest), a.contractName).toEqual(actual.map(({ type, ...rest }) => rest));
      documented.forEach((d, i) => expect(d.type.startsWith(actual[i]!.type), `${a.contractName}.${d.label}: ${d.type}`).toBe(true));
    }
  });

  it('put the Token balances mapping at slot 0 and allowances at slot 1', () => {
    const layout = compiled.artifacts.get('Token')!.storageLayout as StorageLayout;
    expect(layout.storage.slice(0, 2).map((e) => [e.label, e.slot, layout.types[e.type]!.label])).toEqual([
      ['balances', '0', 'mapping(address => uint256)'],
      ['allowances', '1', 'mapping(address => mapping(address => uint256))'],
    ]);
  });
});
