import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { folderDigest, KEYED_PACKAGES, KEYED_SOURCES, packageVersion, sourceDigest } from '../../src/cache/buildFacts.js';
import { packagePath } from '../../src/packageRoot.js';

describe('build facts of the cache keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'devgate-facts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a folder's digest changes with any .ts/.js file's name or content, not with other files", () => {
    writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
    const first = folderDigest(dir);
    expect(folderDigest(dir)).toBe(first);
    writeFileSync(join(dir, 'notes.md'), 'not source');
    expect(folderDigest(dir)).toBe(first);
    writeFileSync(join(dir, 'a.ts'), 'export const a = 2;\n');
    const changed = folderDigest(dir);
    expect(changed).not.toBe(first);
    writeFileSync(join(dir, 'b.js'), '');
    expect(folderDigest(dir)).not.toBe(changed);
  });

  it('run from src/, a source folder is digested from src/ and a package version is the installed one', () => {
    for (const folder of KEYED_SOURCES) expect(sourceDigest(folder)).toBe(folderDigest(fileURLToPath(new URL(`../../src/${folder}/`, import.meta.url))));
    for (const name of KEYED_PACKAGES) {
      const pkg = fileURLToPath(new URL(`../../node_modules/${name}/package.json`, import.meta.url));
      expect(packageVersion(name)).toBe((JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version);
    }
  });

  it("the package root is the folder of devgate's package.json", () => {
    expect((JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { name: string }).name).toBe('devgate');
  });
});
