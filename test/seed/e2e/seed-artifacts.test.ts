/**
 * Seeds take a user's compiled artifacts by path, relative to the seed file: Hardhat's (artifacts/.../X.json,
 * `bytecode` a string) and Foundry's (out/X.sol/X.json, `bytecode.object`), to deploy and to call by function name;
 * the gateway answers the `@label` contracts a seed deployed (the banner prints them with each network's checksummed
 * accounts and balances). Before: `artifact` took only a name of the seed's contracts/ folder or devgate's own.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../src/index.js';
import { bannerLines } from '../../../src/log/banner.js';
import { call } from '../../support/http.js';

const SEED = fileURLToPath(new URL('../../fixtures/dropin/seed.json', import.meta.url));
const deployed = (path: string) => {
  const a = JSON.parse(readFileSync(new URL(`../../fixtures/dropin/${path}`, import.meta.url), 'utf8'));
  return (typeof a.deployedBytecode === 'string' ? a.deployedBytecode : a.deployedBytecode.object) as string;
};

let gw: Gateway;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], bare: 'none' });
});
afterAll(() => gw?.stop());

describe('seed artifacts by path', () => {
  it("deploys a Hardhat and a Foundry artifact and calls one by function name from the other's ABI", async () => {
    const labels = gw.contracts('artifacts');
    expect(Object.keys(labels)).toEqual(['hardhat', 'foundry']);
    const url = gw.url('artifacts');
    expect((await call(url, 'eth_getCode', [labels.hardhat, 'latest'])).result).toBe(deployed('artifacts/contracts/ConsoleLogger.sol/ConsoleLogger.json'));
    expect((await call(url, 'eth_getCode', [labels.foundry, 'latest'])).result).toBe(deployed('out/ConsoleLogger.sol/ConsoleLogger.json'));
    // value() of the Hardhat-deployed one, set to 7 by the seed's call.
    expect(BigInt((await call(url, 'eth_call', [{ to: labels.hardhat, data: '0x3fa4f245' }, 'latest'])).result)).toBe(7n);
  });

  it('prints the labels and the checksummed accounts with balances in the banner', async () => {
    const handle = gw.eth('artifacts');
    const accounts = await Promise.all(handle.devAccounts().map(async (a) => ({ ...a, balance: await handle.getBalance(a.address) })));
    const lines = bannerLines({ name: 'artifacts', accounts, labels: gw.contracts('artifacts') }).join('\n');
    expect(lines).toContain('(1) 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 (10000.000000000000000000 ETH)');
    expect(lines).toMatch(/Contracts \(artifacts\)\n=+\n@hardhat 0x[0-9a-fA-F]{40}\n@foundry 0x/);
  });

  it('names a missing artifact file', async () => {
    const bad = { name: 'bad', kind: 'eth', chainId: 9, blocks: [{ transactions: [{ artifact: 'out/None.sol/None.json' }] }] };
    await expect(start({ port: 0, chains: [bad], bare: 'none' })).rejects.toThrow(/out\/None\.sol\/None\.json: ENOENT/);
  });
});
