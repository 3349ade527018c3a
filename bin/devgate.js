#!/usr/bin/env node
// The `devgate` command of an installed package: runs the built CLI (dist/, made by `npm run build`).
// In a checkout (src/ next to dist/) it says so when dist/ is missing or older than src/.
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const builtCli = new URL('dist/cli.js', root);
const src = new URL('src/', root);

/** The newest modification time (ms) of any file under `dir`. */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = new URL(entry.isDirectory() ? `${entry.name}/` : entry.name, dir);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(builtCli)) {
  console.error('devgate: dist/ is missing: run `npm run build` first (or `npm run dev` to run from src/)');
  process.exit(1);
}
if (existsSync(src) && newestMtime(src) > statSync(builtCli).mtimeMs) {
  console.warn('devgate: warning: dist/ is older than src/: run `npm run build` to serve the current code (or `npm run dev`)');
}
await import(builtCli.href);
