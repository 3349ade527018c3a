/** The explorer's flag on the devgate command: `--artifacts` reaches start() (a bad artifact named as devgate exits at start). */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const CLI = ['--import', 'tsx', 'src/cli.ts'];

describe('devgate --artifacts', () => {
  it('takes folders and files, repeated; a bad artifact stops the start with its name', () => {
    const bad = spawnSync(
      process.execPath,
      [...CLI, '--port', '0', '--chain', 'chains/sepolia.json', '--artifacts', 'test/explorer/fixtures/out', '--artifacts', 'test/explorer/fixtures/bad'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(
      /^devgate: cannot read the artifacts given \(--artifacts, start\(\{ artifacts \}\)\): .*fixtures\/bad\/Broken\.json is not JSON/,
    );
    expect(bad.stdout).not.toMatch(/Listening|Explorer/);
  });
});
