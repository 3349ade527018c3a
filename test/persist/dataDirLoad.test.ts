/**
 * A state file loaded into a gateway with a data directory: the loaded blocks go through the same seal gate as mined
 * ones, so a restart from the directory serves them (same hashes, provable state). Before, the directory's head
 * record counted them but its index did not, and the next start refused the directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../../src/index.js';
import { call } from '../support/http.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
const rpc = async (url: string, method: string, params: unknown[] = []) => (await call(url, method, params)).result;
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const WHO = '0x00000000000000000000000000000000000000e9';

describe('a state file loaded with --data-dir', () => {
  it('is kept in the directory: a restart serves the loaded blocks, and their state proves against their roots', async () => {
    const file = join(tmp('devgate-state-'), 'state.bin');
    const dataDir = tmp('devgate-data-');
    let gw = await start({ port: 0, chains: ['chains/sepolia.json'], cache: false });
    await rpc(gw.url('sepolia'), 'anvil_mine', ['0x3']);
    await rpc(gw.url('sepolia'), 'eth_sendTransaction', [{ from: DEV0, to: WHO, value: '0x99' }]);
    const head = await rpc(gw.url('sepolia'), 'eth_getBlockByNumber', ['latest', false]);
    await gw.dumpState(file);
    await gw.stop();

    gw = await start({ port: 0, chains: ['chains/sepolia.json'], cache: false, dataDir, state: { load: file } });
    expect((await rpc(gw.url('sepolia'), 'eth_getBlockByNumber', ['latest', false])).hash).toBe(head.hash);
    await gw.stop();

    gw = await start({ port: 0, chains: ['chains/sepolia.json'], cache: false, dataDir });
    try {
      const url = gw.url('sepolia');
      const restarted = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
      expect(restarted.hash).toBe(head.hash);
      const proof = await rpc(url, 'eth_getProof', [WHO, [], restarted.number]);
      expect(bytesToHex(keccak_256(hexToBytes(proof.accountProof[0])))).toBe(restarted.stateRoot);
      expect(proof.balance).toBe('0x99');
    } finally {
      await gw.stop();
    }
  });
});
