/**
 * Modules of @ethereumjs/evm's ESM build that the package does not export (the Interpreter class and
 * helpers the EVM fast path patches or calls), loaded by path: the very modules the package's EVM
 * imports, so classes and prototypes are the same objects. The bundle build (scripts/build.ts) puts
 * static imports of these files in this module's place, so a bundle hands out its own copies (the
 * ones its EVM runs), never second ones from node_modules. Load such files only through here.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The files, relative to the package's dist/esm/. */
export const EVM_FILES = ['interpreter.js', 'evm.js', 'opcodes/EIP7928.js'] as const;
export type EvmFile = (typeof EVM_FILES)[number];

/** The folder of @ethereumjs/evm's ESM build, as installed where `from` (a file path or URL) resolves packages. */
export function evmEsmFolder(from: string = import.meta.url): string {
  // dist/cjs/index.js -> dist/esm/
  return join(dirname(dirname(createRequire(from).resolve('@ethereumjs/evm'))), 'esm');
}

/** One of the files' module (its exports unchecked). */
export async function evmFile(file: EvmFile): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(join(evmEsmFolder(), file)).href)) as Record<string, unknown>;
}
