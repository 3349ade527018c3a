/**
 * Installing devgate: `prepare` (run by every `npm install`) does not rebuild dist/ when it is newer than its inputs
 * (it rebuilt for ~25 s each time), and dist/'s source maps carry their sources (vitest warned that they pointed to
 * missing files: an installed package has no src/). Runs against a dist/ built by `npm run build`; skipped without one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const built = existsSync('dist/.built');

describe.skipIf(!built)('the build for installs', () => {
  it('prepare skips the build when dist/ is newer than its inputs', () => {
    const before = statSync('dist/.built');
    const later = new Date(Date.now() + 3600_000);
    utimesSync('dist/.built', later, later);
    try {
      const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
      expect(pkg.scripts.prepare).toBe('tsx scripts/build.ts --if-stale');
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-stale'], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/dist\/ is newer than its inputs, not rebuilt/);
    } finally {
      utimesSync('dist/.built', before.atime, before.mtime);
    }
  });

  it("dist/'s source maps carry every source they name", () => {
    const maps = readdirSync('dist').filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const file of maps) {
      const map = JSON.parse(readFileSync(`dist/${file}`, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(map.sourcesContent?.length, file).toBe(map.sources.length);
      expect(
        map.sourcesContent!.every((s) => typeof s === 'string'),
        file,
      ).toBe(true);
    }
  });
});
