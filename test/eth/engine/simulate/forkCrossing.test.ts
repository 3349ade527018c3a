/**
 * eth_simulateV1 across hardforks on the execution-apis chain (a geth genesis scheduling Shanghai at 390, Cancun at
 * 420, Prague at 450, Osaka at 480): three blocks from an earlier base, with time overrides that cross a fork, run on
 * one private state with a pooled VM per hardfork. The block hashes are those devgate answered before its VMs were
 * pooled (main 4133496, a VM made per hardfork per request): state overrides, transfers, system calls from Cancun and
 * requests from Prague all go into them.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { result } from '../../../support/http.js';
import { UNLIMITED } from '../../methods/seed.js';

const SEED = fileURLToPath(new URL('../../../conformance/seed.json', import.meta.url));
let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [SEED], keys: UNLIMITED });
  url = gw.url('hive');
});
afterAll(() => gw?.stop());

const hex = (n: number) => `0x${n.toString(16)}`;
const A = '0xc000000000000000000000000000000000000000';
const B = '0xc100000000000000000000000000000000000000';
const C = '0xc200000000000000000000000000000000000000';

/** Base block number -> the hashes of the three simulated blocks (times: base + 10, + 40, + 75). */
const EXPECTED: Record<number, string[]> = {
  37: [
    '0x5d4418b070f3ba0376f8e0f4ee1b2ad63fcd4728c963e3c30cd345874836c475',
    '0x566bc5e1b63ed0b99cc0628ee3e95e81776becb16cfd70eb3f3c22cdc5570a83',
    '0xb002ed779c6749f26e2ddb9628d9510731f1d36706dd390665e2e092a60e9a92',
  ],
  41: [
    '0x04d41985fdfbce7dc1886893a785373e5fdb8f963d46a65dbcb58e1ac2f27b11',
    '0xa7c2779bfdcb81082edce4f4423bc5479b611376bd2343546adbf8b7efad6cd7',
    '0x86229d1244cdd6cd5d1ec28a786c708feca2708587e77d2054e8171a1d63d96d',
  ],
  44: [
    '0xac4c6bf937acbee71d6508e68000745587b6c44c17bbb99c8de15b9a5221d0be',
    '0x27e7c1bdcd2bbd91d0d47d53b7503682617ffa363498695b8dcde2bbefa67077',
    '0x50e1cad3a6ccb608d72ddc8f198c2cb5bd3cbf37dfc2a2f1f4f04969bffe60aa',
  ],
  47: [
    '0x305bff9e11eb0c6d94319e264d020bbbac76e10c8fc704bd9096be6909356b8a',
    '0xace321254313951f128e45acc081f81164aa4f4202862d06be13d57a5845157d',
    '0xde1eb4f62bb9da08ad6108a15a25d796ceda8ef7512844cf63f01e1b567a1b3c',
  ],
};

describe('eth_simulateV1 across hardforks', () => {
  it('builds the blocks of each hardfork as before, on one state', async () => {
    for (const [n, hashes] of Object.entries(EXPECTED)) {
      const base = await result(url, 'eth_getBlockByNumber', [hex(Number(n)), false]);
      const t = Number(base.timestamp);
      const blocks = await result(url, 'eth_simulateV1', [
        {
          traceTransfers: true,
          blockStateCalls: [
            { blockOverrides: { time: hex(t + 10) }, stateOverrides: { [A]: { balance: '0xde0b6b3a7640000' } }, calls: [{ from: A, to: B, value: '0x10' }] },
            { blockOverrides: { time: hex(t + 40) }, calls: [{ from: B, to: C, value: '0x1' }] },
            { blockOverrides: { time: hex(t + 75) }, calls: [{ from: A, to: C, value: '0x2' }] },
          ],
        },
        hex(Number(n)),
      ]);
      expect(blocks.map((b: { hash: string }) => b.hash)).toEqual(hashes);
      expect(blocks.every((b: { calls: { status: string }[] }) => b.calls[0]!.status === '0x1')).toBe(true);
    }
  });
});
