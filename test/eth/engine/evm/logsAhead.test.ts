/**
 * A mined transaction's logs are hashed for the bloom and encoded for the receipt trie ahead, a slice at a time
 * (src/eth/engine/evm/logsAhead.ts, #25: after the code of a transaction of 36,000 logs ran, runTx's bloom and the
 * receipt trie were one ~150 ms turn). The block is the same: its logsBloom is the one the yellow paper's rule gives
 * from the logs (keccak256 here from @noble/hashes, not the hook's), its receiptsRoot the trie of @ethereumjs's own
 * encodeReceipt; and mining it lets the event loop turn.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { hexToBytes } from '@ethereumjs/util';
import { encodeReceipt, type TxReceipt } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, start } from '../../../../src/index.js';
import { expectYielded, watchTurns } from '../../../support/turns.js';

let gw: Gateway;
let from: string;
const LOGS = 12_000;
/** Init code of a loop of LOGS LOG2s, log k with topics (k + 1, k) and no data (see test/eth/methods/e2e/eth-filter-scan.test.ts). */
const LOG_LOOP = `0x61${LOGS.toString(16).padStart(4, '0')}5b806001820160006000a2600190038060035700`;

const rpc = (method: string, params: unknown[] = []) => gw.provider('dev').request({ method, params }) as Promise<any>;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } }], dev: {}, bare: 'dev' });
  [from] = (await rpc('eth_accounts')) as [string];
});
afterAll(() => gw?.stop());

/** The 2048-bit bloom of some logs by the yellow paper's rule: 3 bits of each address's and topic's keccak256. */
function bloomOf(logs: { address: string; topics: string[] }[]): Uint8Array {
  const bits = new Uint8Array(256);
  for (const l of logs) {
    for (const item of [l.address, ...l.topics]) {
      const h = keccak_256(hexToBytes(item as `0x${string}`));
      for (let i = 0; i < 6; i += 2) {
        const loc = ((h[i]! << 8) | h[i + 1]!) & 2047;
        bits[255 - (loc >> 3)]! |= 1 << (loc % 8);
      }
    }
  }
  return bits;
}

describe('logs hashed and encoded ahead', () => {
  it('a transaction of 12,000 LOG2s: mining it lets the event loop turn, and the bloom and receipts root are the stock ones', async () => {
    let hash = '';
    const turns = await watchTurns(
      (async () => {
        hash = await rpc('eth_sendTransaction', [{ from, data: LOG_LOOP, gas: '0xe4e1c0' }]);
      })(),
    );
    expectYielded(turns);

    const receipt = await rpc('eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.logs).toHaveLength(LOGS);
    const block = await rpc('eth_getBlockByHash', [receipt.blockHash, false]);
    expect(block.transactions).toEqual([hash]);

    const bloom = bloomOf(receipt.logs);
    expect(receipt.logsBloom).toBe(`0x${Buffer.from(bloom).toString('hex')}`);
    expect(block.logsBloom).toBe(receipt.logsBloom);

    const stock: TxReceipt = {
      status: 1,
      cumulativeBlockGasUsed: BigInt(receipt.cumulativeGasUsed),
      bitvector: bloom,
      logs: receipt.logs.map((l: { address: string; topics: string[]; data: string }) => [
        hexToBytes(l.address as `0x${string}`),
        l.topics.map((t) => hexToBytes(t as `0x${string}`)),
        hexToBytes(l.data as `0x${string}`),
      ]),
    } as TxReceipt;
    const trie = new MerklePatriciaTrie();
    await trie.put(RLP.encode(0), encodeReceipt(stock, Number(receipt.type) as Parameters<typeof encodeReceipt>[1]));
    expect(block.receiptsRoot).toBe(`0x${Buffer.from(trie.root()).toString('hex')}`);
  }, 60_000);
});
