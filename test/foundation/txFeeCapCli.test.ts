/** The --tx-fee-cap flag of the devgate command (geth's --rpc.txfeecap): documented in --help, a bad value refused. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const CLI = ['--import', 'tsx', 'src/cli.ts'];

describe('devgate --tx-fee-cap', () => {
  it('is in --help; a negative or non-numeric value exits 2 naming the flag', () => {
    const help = spawnSync(process.execPath, [...CLI, '--help'], { encoding: 'utf8' });
    expect(help.stdout).toContain('--tx-fee-cap ETHER');
    for (const bad of ['-1', 'lots', '']) {
      const r = spawnSync(process.execPath, [...CLI, '--port', '0', `--tx-fee-cap=${bad}`], { encoding: 'utf8' });
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toContain('--tx-fee-cap must be a number of ether, 0 or more');
    }
  });
});
