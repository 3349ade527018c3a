/**
 * globalSetup of the `restored` vitest project: a fresh, empty chain cache directory for the run
 * (DEVGATE_CACHE_DIR, set by vitest.config.ts), removed afterwards. The first start of a seed stores
 * its chain image there and serves the chain restored from it; later starts restore it from the file.
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = project.config.env.DEVGATE_CACHE_DIR;
  if (typeof dir !== 'string' || dir === '') throw new Error('the restored project needs DEVGATE_CACHE_DIR');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return () => rmSync(dir, { recursive: true, force: true });
}
