/**
 * `devgate --fork-url URL --fork-block-number N` (anvil's flags): the bare address serves the fork of a second devgate
 * (the small test seed) at block N, with the upstream's chain id; --auto-impersonate lets any address send unsigned
 * (the usual fork use); bad fork flags are refused naming the flag.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];
const TINY = 'test/fixtures/eth/small.json';
let up: Gateway;
let upUrl: string;

beforeAll(async () => {
  up = await start({ port: 0, chains: [TINY] });
  upUrl = up.url('small');
});
afterAll(() => up?.stop());

describe('devgate --fork-url', () => {
  it('refuses bad fork flags, naming them', () => {
    const noUrl = spawnSync(process.execPath, [...CLI, '--fork-block-number', '3'], { encoding: 'utf8' });
    expect(noUrl.status).toBe(2);
    expect(noUrl.stderr).toContain('--fork-block-number needs --fork-url');
    const badNumber = spawnSync(process.execPath, [...CLI, '--fork-url', upUrl, '--fork-block-number', 'x'], { encoding: 'utf8' });
    expect(badNumber.status).toBe(2);
    expect(badNumber.stderr).toContain('--fork-block-number must be a whole number from 0, got "x"');
  });

  it('serves the fork at the bare address; any address sends unsigned with --auto-impersonate', async () => {
    const args = [...CLI, '--port', '0', '--chain', TINY, '--fork-url', upUrl, '--fork-block-number', '2', '--auto-impersonate', '--no-cache'];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    try {
      const ready = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line; output so far:\n${out}`)), 60_000);
        child.stderr.on('data', (chunk) => {
          out += chunk;
        });
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const m = /Listening on (127\.0\.0\.1:\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      const url = `http://${ready}/`;
      expect((await call(url, 'eth_chainId')).result).toBe('0x7a69');
      expect((await call(url, 'eth_blockNumber')).result).toBe('0x2');
      expect((await call(url, 'eth_getBlockByNumber', ['0x2', false])).result.hash).toBe(
        (await call(upUrl, 'eth_getBlockByNumber', ['0x2', false])).result.hash,
      );
      // 0xaa exists upstream (the seed's alloc) with code and storage.
      const aa = '0x00000000000000000000000000000000000000aa';
      expect((await call(url, 'eth_getStorageAt', [aa, '0x1', 'latest'])).result).toBe((await call(upUrl, 'eth_getStorageAt', [aa, '0x1', '0x2'])).result);
      expect((await call(url, 'eth_call', [{ to: aa }, 'latest'])).result).toBe(`0x${'2a'.padStart(64, '0')}`);
      // An address of someone else's (no key here) sends unsigned.
      const stranger = '0x00000000000000000000000000000000000000c1';
      await call(url, 'anvil_setBalance', [stranger, '0xde0b6b3a7640000']);
      const sent = await call(url, 'eth_sendTransaction', [{ from: stranger, to: '0x00000000000000000000000000000000000000bb', value: '0x1' }]);
      expect(sent.error).toBeUndefined();
      expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/);
      const receipt = (await call(url, 'eth_getTransactionReceipt', [sent.result])).result;
      expect(receipt.blockNumber).toBe('0x3');
      expect((await call(upUrl, 'eth_getBalance', ['0x00000000000000000000000000000000000000bb', 'latest'])).result).toBe('0x0');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
