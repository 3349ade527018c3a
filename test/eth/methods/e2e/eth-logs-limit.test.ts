/**
 * eth_getLogs over 10,000 results: -32005 `query returned more than 10000 results` with a suggested
 * range in `data` (as the hosted gateway answers), a range that does fit; and topic filters at scale.
 */
import { keccak256, toBytes } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import { EMITTER, UNLIMITED } from '../seed.js';

const PER_BLOCK = 3_500;
const BLOCKS = 3;

const seed = {
  name: 'logs',
  kind: 'eth',
  chainId: 1337,
  hardfork: 'osaka',
  genesis: { timestamp: '0x6553f100' },
  blocks: [
    { transactions: [{ artifact: 'Token' }, { artifact: 'Reverter' }, { artifact: 'StorageLayout' }, { artifact: 'Emitter', label: 'em' }] },
    ...Array.from({ length: BLOCKS }, () => ({
      transactions: [{ to: '@em', artifact: 'Emitter', function: 'emitMany', args: [String(PER_BLOCK)], gas: '0xf42400' }],
    })),
  ],
};

let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [seed], keys: UNLIMITED });
  url = gw.url('logs');
});
afterAll(() => gw?.stop());

describe('eth_getLogs limit', () => {
  it('answers -32005 with a suggested range over 10,000 results', async () => {
    const res = await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    expect(res.error).toEqual({
      code: -32005,
      message: 'query returned more than 10000 results',
      data: { from: '0x0', to: '0x3', limit: 10000 },
    });
    const fitting = await call(url, 'eth_getLogs', [{ fromBlock: res.error.data.from, toBlock: res.error.data.to }]);
    expect(fitting.result).toHaveLength(2 * PER_BLOCK + 1 /* the token's mint */);
  });

  it('a single block over the limit is not an error; filters narrow big ranges', async () => {
    const one = await call(url, 'eth_getLogs', [{ fromBlock: '0x4', toBlock: '0x4', address: EMITTER }]);
    expect(one.result).toHaveLength(PER_BLOCK);
    // OneIndexed(uint256 indexed id, uint256 value) with id 2: one per emitMany call.
    const oneIndexed = keccak256(toBytes('OneIndexed(uint256,uint256)'));
    const id2 = '0x' + '2'.padStart(64, '0');
    const narrowed = await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [oneIndexed, id2] }]);
    expect(narrowed.result).toHaveLength(BLOCKS);
    expect(narrowed.result.map((l: { blockNumber: string }) => l.blockNumber)).toEqual(['0x2', '0x3', '0x4']);
    const either = await call(url, 'eth_getLogs', [{ fromBlock: '0x2', toBlock: '0x2', topics: [[oneIndexed], [id2, '0x' + '8'.padStart(64, '0')]] }]);
    expect(either.result).toHaveLength(2);
  });
});
