/**
 * The real @nomicfoundation/hardhat-network-helpers in a real hardhat project (a temporary directory with a
 * hardhat.config.cjs whose network points at devgate's bare address): mine, time.increase, setBalance and
 * takeSnapshot/restore run in a child node process as a user's hardhat script runs them. The helpers refuse a node
 * whose web3_clientVersion does not start with `anvil`, `hardhatnetwork` or `zksync` (devgate/0.1.0 was refused).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';

const run = promisify(execFile);
const ACCOUNT = '0x00000000000000000000000000000000000000b8';

const SCRIPT = `
const helpers = require('@nomicfoundation/hardhat-network-helpers');
const hre = require('hardhat');
const p = hre.network.provider;
const n = async (method, params = []) => BigInt(await p.request({ method, params }));
(async () => {
  const out = { network: hre.network.name };
  const b0 = await n('eth_blockNumber');
  await helpers.mine(5);
  out.mined = String((await n('eth_blockNumber')) - b0);
  const t0 = await helpers.time.latest();
  await helpers.time.increase(3600);
  out.timeMoved = (await helpers.time.latest()) - t0;
  const snapshot = await helpers.takeSnapshot();
  await helpers.setBalance('${ACCOUNT}', 123456789n);
  out.balanceSet = String(await n('eth_getBalance', ['${ACCOUNT}', 'latest']));
  const head = await n('eth_blockNumber');
  await helpers.mine(3);
  await snapshot.restore();
  out.balanceRestored = String(await n('eth_getBalance', ['${ACCOUNT}', 'latest']));
  out.headRestored = (await n('eth_blockNumber')) === head;
  console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({ error: String(e && e.message || e) })); process.exitCode = 1; });
`;

let gw: Gateway;
let project: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [{ name: 'other', kind: 'eth', chainId: 7, accounts: { count: 0 } }], bare: 'dev' });
  project = mkdtempSync(join(tmpdir(), 'devgate-hardhat-'));
  symlinkSync(resolve('node_modules'), join(project, 'node_modules'), 'dir');
  writeFileSync(join(project, 'package.json'), '{"name":"devgate-hardhat-test","private":true}');
  writeFileSync(
    join(project, 'hardhat.config.cjs'),
    `module.exports = { solidity: '0.8.28', defaultNetwork: 'devgate', networks: { devgate: { url: ${JSON.stringify(gw.bareUrl())} } } };\n`,
  );
  writeFileSync(join(project, 'run.cjs'), SCRIPT);
});
afterAll(async () => {
  await gw?.stop();
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

describe('hardhat-network-helpers in a hardhat project, at the bare address', () => {
  it('runs mine, time.increase, setBalance and takeSnapshot/restore', async () => {
    const { stdout } = await run(process.execPath, ['run.cjs'], {
      cwd: project,
      env: { ...process.env, HARDHAT_NETWORK: 'devgate', HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', DO_NOT_TRACK: '1' },
      timeout: 50_000,
    }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: `${err.stdout ?? ''}${err.stderr ?? ''}` }));
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out).toEqual({ network: 'devgate', mined: '5', timeMoved: 3600, balanceSet: '123456789', balanceRestored: '0', headRestored: true });
  });
});
