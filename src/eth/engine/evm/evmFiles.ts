/**
 * Modules of @ethereumjs/evm's ESM build that the package does not export (the Interpreter class and
 * helpers the EVM fast path patches or calls), loaded by path: the very modules the package's EVM
 * imports, so classes and prototypes are the same objects. The bundle build (scripts/build.ts) puts
 * static imports of these files in this module's place, so a bundle hands out its own copies (the
 * ones its EVM runs), never second ones from node_modules. Load such files only through here, and
 * name each by a string literal (`evmFile('interpreter.js')`): that is how the build finds them.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folder of @ethereumjs/evm's ESM build, as installed where `from` (a file path or URL) resolves packages. */
export function evmEsmFolder(from: string = import.meta.url): string {
  // dist/cjs/index.js -> dist/esm/
  return join(dirname(dirname(createRequire(from).resolve('@ethereumjs/evm'))), 'esm');
}

/** The module of a file of the package's dist/esm/ (`opcodes/functions.js`), its exports unchecked. */
export async function evmFile(file: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(join(evmEsmFolder(), file)).href)) as Record<string, unknown>;
}
