/** devgate's own version, read from its package.json. */
import { readFileSync } from 'node:fs';
import { packagePath } from './packageRoot.js';

export const VERSION: string = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
