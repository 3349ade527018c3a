/**
 * anvil's flags and habits (#27): `--code-size-limit N` / `--disable-code-size-limit` (start()'s `dev.codeSizeLimit`)
 * hold contracts to N bytes (init code to 2N, as revm derives it) or to none; evm_increaseTime(3600) then evm_mine
 * moves the clock exactly 3,600 s, as anvil and hardhat (was 3,612). Before: the flags were refused ("not supported
 * yet") and contracts were held to EIP-170's 24,576 bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { call } from '../../../../support/http.js';

const ALPHA = { name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } };
const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** Init code whose runtime is `size` zero bytes: PUSH2 size PUSH1 0 RETURN. */
const initCodeFor = (size: number) => `0x61${size.toString(16).padStart(4, '0')}6000f3`;

async function deploy(url: string, data: string): Promise<{ status?: string; error?: { message: string } }> {
  const sent = await call(url, 'eth_sendTransaction', [{ from: ACCOUNT0, data, gas: '0xf42400' }]);
  if (sent.error !== undefined) return { error: sent.error };
  return { status: (await call(url, 'eth_getTransactionReceipt', [sent.result])).result.status };
}

describe('code size limits', () => {
  let small: Gateway;
  let unlimited: Gateway;
  beforeAll(async () => {
    [small, unlimited] = await Promise.all([
      start({ port: 0, chains: [ALPHA], bare: 'dev', dev: { codeSizeLimit: 100 } }),
      start({ port: 0, chains: [ALPHA], bare: 'dev', dev: { codeSizeLimit: 'unlimited' } }),
    ]);
  });
  afterAll(async () => {
    await small?.stop();
    await unlimited?.stop();
  });

  it('--code-size-limit 100: 100 bytes of code deploy, 101 fail; init code past 200 bytes is refused', async () => {
    const url = small.bareUrl();
    expect((await deploy(url, initCodeFor(100))).status).toBe('0x1');
    expect((await deploy(url, initCodeFor(101))).status).toBe('0x0');
    const big = await deploy(url, `0x${'5b'.repeat(201)}`);
    expect(big.error?.message).toMatch(/initcode size.*201.*200|initcode size.*200.*201/);
  });

  it('--disable-code-size-limit: 30,000 bytes of code deploy (EIP-170 would refuse past 24,576)', async () => {
    const url = unlimited.bareUrl();
    expect((await deploy(url, initCodeFor(30_000))).status).toBe('0x1');
    expect((await deploy(url, `0x${'5b'.repeat(60_000)}`)).error).toBeUndefined();
  });

  it('evm_increaseTime(3600) then evm_mine moves the clock exactly 3,600 s', async () => {
    const url = small.bareUrl();
    await call(url, 'evm_mine');
    const before = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).result.timestamp);
    await call(url, 'evm_increaseTime', [3600]);
    await call(url, 'evm_mine');
    const after = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).result.timestamp);
    expect(after - before).toBe(3600n);
  });
});
