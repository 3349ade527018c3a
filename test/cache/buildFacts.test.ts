import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { graphDigest, importGraph, KEYED_PACKAGES, KEYED_SOURCES, packageVersion, sourceDigest } from '../../src/buildFacts.js';
import { packagePath } from '../../src/packageRoot.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

describe('build facts of the cache keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'devgate-facts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a digest follows every relative import, into subfolders, and changes with any reached file only', () => {
    mkdirSync(join(dir, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(dir, 'entry.ts'), "import { b } from './sub/b.js';\nexport const a = async () => (await import('./sub/deeper/c.js')).c + b;\n");
    writeFileSync(join(dir, 'sub', 'b.ts'), "import type { X } from '../types.js';\nexport const b = 1;\n");
    writeFileSync(join(dir, 'sub', 'deeper', 'c.ts'), "export const c = new URL('./w.js', import.meta.url);\n");
    writeFileSync(join(dir, 'sub', 'deeper', 'w.ts'), 'export {};\n');
    writeFileSync(join(dir, 'types.ts'), 'export type X = 1;\n');
    writeFileSync(join(dir, 'unreached.ts'), 'export const u = 1;\n');
    expect(importGraph(join(dir, 'entry.ts')).map((f) => f.slice(dir.length + 1))).toEqual([
      'entry.ts',
      'sub/b.ts',
      'sub/deeper/c.ts',
      'sub/deeper/w.ts',
      'types.ts',
    ]);
    const first = graphDigest(dir, 'entry.ts');
    writeFileSync(join(dir, 'unreached.ts'), 'export const u = 2;\n');
    expect(graphDigest(dir, 'entry.ts')).toBe(first);
    for (const file of ['sub/deeper/w.ts', 'sub/b.ts', 'types.ts']) {
      const before = graphDigest(dir, 'entry.ts');
      writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8') + '// edited\n');
      expect(graphDigest(dir, 'entry.ts')).not.toBe(before);
    }
  });

  it("the eth key covers the engine's subfolders (the EVM fast path), the seed schema and the chain image code", () => {
    const files = importGraph(join(SRC, KEYED_SOURCES.eth)).map((f) => f.slice(SRC.length));
    for (const needed of ['eth/engine/evm/loop.ts', 'eth/engine/build/seed.ts', 'eth/engine/build/import.ts', 'seed/eth.ts']) expect(files).toContain(needed);
    expect(importGraph(join(SRC, KEYED_SOURCES.rollup)).map((f) => f.slice(SRC.length))).toContain('rollup/engine/chain.ts');
  });

  it('run from src/, a digest is of src/ and a package version is the installed one', () => {
    for (const kind of ['eth', 'rollup'] as const) expect(sourceDigest(kind)).toBe(graphDigest(SRC, KEYED_SOURCES[kind]));
    for (const name of KEYED_PACKAGES) {
      const pkg = fileURLToPath(new URL(`../../node_modules/${name}/package.json`, import.meta.url));
      expect(packageVersion(name)).toBe((JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version);
    }
  });

  it("the package root is the folder of devgate's package.json", () => {
    expect((JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { name: string }).name).toBe('devgate');
  });
});
