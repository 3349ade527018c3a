/**
 * The page's script and style. Run from source (tsx, vitest), the script is bundled from src/explorer/web/ by
 * esbuild (a dev dependency) on the first request and kept; the installed package serves dist/explorer.js, which
 * scripts/build.ts bundles the same way. No framework: the script is vanilla TypeScript plus viem's ABI decoders.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../packageRoot.js';

/** esbuild's options for the page's script; scripts/build.ts uses the same. */
export const WEB_BUILD = { bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', legalComments: 'none' } as const;

export const WEB_ENTRY = 'src/explorer/web/main.ts';

let bundled: Promise<string> | undefined;

export function appBundle(): Promise<string> {
  bundled ??= load();
  bundled.catch(() => (bundled = undefined));
  return bundled;
}

const fromSource = /[\\/]src[\\/]explorer[\\/]bundle\.ts$/.test(fileURLToPath(import.meta.url));

async function load(): Promise<string> {
  if (!fromSource) return readFileSync(packagePath('dist/explorer.js'), 'utf8');
  // A name, not a literal: a bundle of devgate must not take esbuild in.
  const name = 'esbuild';
  const esbuild = (await import(name)) as typeof import('esbuild');
  const result = await esbuild.build({ ...WEB_BUILD, entryPoints: [packagePath(WEB_ENTRY)], write: false });
  return result.outputFiles[0]!.text;
}

export const WEB_CSS = 'src/explorer/web/app.css';

let css: string | undefined;

/** The page's style, read on first use. */
export function appCss(): string {
  css ??= readFileSync(packagePath(fromSource ? WEB_CSS : 'dist/explorer.css'), 'utf8');
  return css;
}
