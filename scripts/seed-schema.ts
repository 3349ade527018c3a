/**
 * Writes chains/seed.schema.json, the JSON Schema of devgate seed files, from the zod schemas in
 * src/seed (the `Seed` union, so every network kind is covered). Run: npx tsx scripts/seed-schema.ts
 * (add --check to fail instead of writing when the file is out of date).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Seed } from '../src/seed/load.js';

const out = fileURLToPath(new URL('../chains/seed.schema.json', import.meta.url));

export function seedJsonSchema(): string {
  const schema = z.toJSONSchema(Seed, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const doc = {
    $schema: schema.$schema,
    $id: 'https://devgate.local/seed.schema.json',
    title: 'devgate seed',
    description: 'A devgate chain seed: an eth network (genesis, dev accounts, blocks, pending transactions) or a rollup network.',
    ...schema,
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = seedJsonSchema();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(out, 'utf8');
    } catch {}
    if (current !== text) {
      console.error('chains/seed.schema.json is out of date: run npx tsx scripts/seed-schema.ts');
      process.exit(1);
    }
  } else {
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
  }
}
