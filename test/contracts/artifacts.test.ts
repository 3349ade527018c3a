/**
 * The committed artifacts in chains/contracts are exactly what the sources compile to with the
 * pinned solc, and the storage layout each source documents is the one solc reports.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CONTRACTS_DIR,
  DEPRECATED_EVM_WARNING,
  ContractCompileError,
  SOLC_VERSION,
  compileContracts,
  run,
  writeArtifacts,
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
  return lines.filter((m): m is RegExpExecArray => m !== null).map((m) => ({ slot: m[1]!, offset: Number(m[2] ?? 0), label: m[3]!, type: m[4]! }));
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
      expect(
        documented.map(({ type, ...rest }) => rest),
        a.contractName,
      ).toEqual(actual.map(({ type, ...rest }) => rest));
      documented.forEach((d, i) => {
        expect(d.type.startsWith(actual[i]!.type), `${a.contractName}.${d.label}: ${d.type}`).toBe(true);
      });
    }
  });

  it('put the Token balances mapping at slot 0 and allowances at slot 1', () => {
    const layout = compiled.artifacts.get('Token')!.storageLayout as StorageLayout;
    expect(layout.storage.slice(0, 2).map((e) => [e.label, e.slot, layout.types[e.type]!.label])).toEqual([
      ['balances', '0', 'mapping(address => uint256)'],
      ['allowances', '1', 'mapping(address => mapping(address => uint256))'],
    ]);
  });

  describe('the compile script', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'devgate-contracts-'));
      return () => rmSync(dir, { recursive: true, force: true });
    });

    it('writes the artifacts of a folder, removes stale artifacts and leaves other JSON alone', () => {
      copyFileSync(join(CONTRACTS_DIR, 'SimpleStore.sol'), join(dir, 'SimpleStore.sol'));
      writeFileSync(join(dir, 'Gone.json'), JSON.stringify({ contractName: 'Gone', sourceName: 'Gone.sol', deployedBytecode: '0x' }));
      writeFileSync(join(dir, 'notes.json'), '{"keep": true}');
      writeArtifacts(dir);
      expect(readdirSync(dir).sort()).toEqual(['SimpleStore.json', 'SimpleStore.sol', 'SimpleStoreHomestead.json', 'notes.json']);
      const written = JSON.parse(readFileSync(join(dir, 'SimpleStore.json'), 'utf8'));
      expect(Object.keys(written)).toEqual(['contractName', 'sourceName', 'compiler', 'abi', 'bytecode', 'deployedBytecode', 'storageLayout']);
      expect(written.abi).toEqual(compiled.artifacts.get('SimpleStore')!.abi);
    });

    it('exits non-zero with the compiler message on an error, writing nothing', () => {
      const broken = join(dir, 'broken');
      mkdirSync(broken);
      writeFileSync(join(broken, 'Broken.sol'), 'pragma solidity ^0.8.0;\ncontract Broken { function f() external { undefinedThing(); } }\n');
      expect(() => compileContracts(broken)).toThrow(ContractCompileError);
      const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        expect(run(broken)).toBe(1);
        expect(String(stderr.mock.calls[0]?.[0])).toContain('Undeclared identifier');
      } finally {
        stderr.mockRestore();
      }
      expect(readdirSync(broken)).toEqual(['Broken.sol']);
    });
  });
});
