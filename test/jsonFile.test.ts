/** readJsonFile: the errors name the file and what it is; seeds and keys files both use it. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonFile } from '../src/jsonFile.js';
import { start } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'devgate-json-'));
const broken = join(dir, 'broken.json');
writeFileSync(broken, '{"name": ');

describe('readJsonFile', () => {
  it('parses a file and names a missing or broken one', () => {
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, '{"a": 1}');
    expect(readJsonFile(ok, 'seed file', (m) => new Error(m))).toEqual({ a: 1 });
    expect(() => readJsonFile(join(dir, 'none.json'), 'seed file', (m) => new RangeError(m))).toThrow(RangeError);
    expect(() => readJsonFile(join(dir, 'none.json'), 'seed file', (m) => new Error(m))).toThrow(/cannot read seed file .*none\.json: ENOENT/);
    expect(() => readJsonFile(broken, 'keys file', (m) => new Error(m))).toThrow(/keys file .*broken\.json is not valid JSON/);
  });

  it('is what start() reports for a broken seed or keys file', async () => {
    await expect(start({ port: 0, chains: [broken] })).rejects.toThrow(/seed file .*broken\.json is not valid JSON/);
    await expect(start({ port: 0, chains: [{ name: 'a', kind: 'eth', chainId: 1 }], keys: broken })).rejects.toThrow(
      /keys file .*broken\.json is not valid JSON/,
    );
  });
});
