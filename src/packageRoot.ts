/**
 * devgate's package root (the folder of package.json, chains/, src/ and dist/), for modules that
 * read files that ship with the package. This module's code sits one level below the root in every
 * form devgate runs in: src/ (tsx, vitest), and dist/ (the bundle's files, whichever holds this code).
 */
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);

/** The absolute path of `relative` (forward slashes, a trailing one for a folder) under the package root. */
export function packagePath(relative: string): string {
  return fileURLToPath(new URL(relative, ROOT));
}
