/**
 * eth_getLogs through its per-block log index and per-block log JSON texts, against a plain scan of every
 * receipt formatted with formatLog: the same JSON text for random filters (address sets, topic ORs,
 * wildcards, more positions than the logs have) over numbered and tagged ranges (latest, pending,
 * earliest, safe, finalized, past head) and blockHash, before and after a new block is mined.
 */
import { nodeOf } from '../../support/node.js';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { encodeFunctionData, parseAbi } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EthChain } from '../../../src/eth/engine/chain/chain.js';
import type { EthContext } from '../../../src/eth/context.js';
import { chainFromSeed } from '../../../src/eth/engine/build/chainFromSeed.js';
import type { LogFilter } from '../../../src/eth/engine/query/logs.js';
import type { MinedBlock, StoredLog } from '../../../src/eth/engine/chain/types.js';
import { formatLog } from '../../../src/eth/format/log.js';
import { eth_getLogs } from '../../../src/eth/methods/eth_getLogs.js';
import { logFilterParam } from '../../../src/eth/params.js';
import { jsonText } from '../../../src/rpc/rawJson.js';
import { parseSeed } from '../../../src/seed/load.js';
import { EMITTER, REVERTER, TOKEN, readSurfaceSeed } from './seed.js';

let chain: EthChain;
let ctx: EthContext;
let topics: string[];
beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(readSurfaceSeed(), 'read-surface seed'));
  ctx = { node: nodeOf(chain), chain, networkName: 'dev', miner: nodeOf(chain).miner };
  const seen = new Set<string>();
  for (const block of chain.blocks()) for (const r of block.receipts) for (const log of r.logs) for (const t of log.topics) seen.add(hex(t));
  topics = [...seen, '0x' + 'ab'.repeat(32)];
});

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');
const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

/** What eth_getLogs answers, as the JSON text sent (or the error's message and data). */
async function answer(raw: Record<string, unknown>): Promise<string> {
  try {
    return jsonText(await eth_getLogs.handler(ctx, logFilterParam(raw)));
  } catch (e) {
    return JSON.stringify({ error: (e as Error).message, data: (e as { data?: unknown }).data });
  }
}

function plainMatches(log: StoredLog, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => same(a, log.address.bytes))) return false;
  if (filter.topics.length > log.topics.length) return false;
  return filter.topics.every((options, i) => options === undefined || options.length === 0 || options.some((t) => same(t, log.topics[i]!)));
}

function plainBlock(block: MinedBlock, filter: LogFilter): unknown[] {
  return block.receipts.flatMap((r, txIndex) =>
    r.logs
      .filter((log) => plainMatches(log, filter))
      .map((log) =>
        formatLog(log, {
          blockHash: block.hash,
          blockNumber: block.number,
          blockTimestamp: block.header.timestamp,
          transactionHash: block.block.transactions[txIndex]!.hash(),
          transactionIndex: txIndex,
        }),
      ),
  );
}

/** The reference: resolve the range, scan every receipt of every block, format each log anew. */
function expected(raw: Record<string, unknown>): string {
  const q = logFilterParam(raw);
  if (q.blockHash !== undefined) {
    const block = chain.blockByHash(q.blockHash);
    return JSON.stringify(block === undefined ? { error: 'unknown block' } : plainBlock(block, q.filter));
  }
  const head = chain.head().number;
  const end = (ref: typeof q.fromBlock) =>
    ref === undefined ? head : 'number' in ref ? ref.number : chain.resolveMined(ref.tag === 'pending' ? 'latest' : ref.tag)!.number;
  const from = end(q.fromBlock);
  const to = end(q.toBlock);
  if (from > to) return JSON.stringify({ error: 'invalid block range params' });
  if (to > head) return JSON.stringify({ error: 'block range extends beyond current head block' });
  const out: unknown[] = [];
  for (let n = from; n <= to && n <= head; n++) out.push(...plainBlock(chain.blockByNumber(n)!, q.filter));
  return JSON.stringify(out);
}

let seed = 9;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const some = <T>(list: readonly T[], max: number): T[] => Array.from({ length: 1 + Math.floor(rand() * max) }, () => pick(list));

function randomFilter(): Record<string, unknown> {
  const head = Number(chain.head().number);
  const refs = ['latest', 'pending', 'earliest', 'safe', 'finalized', undefined, ...Array.from({ length: head + 3 }, (_, n) => '0x' + n.toString(16))];
  const addresses = [TOKEN, EMITTER, REVERTER, '0x' + '77'.repeat(20)];
  const f: Record<string, unknown> = { fromBlock: pick(refs), toBlock: pick(refs) };
  const a = rand();
  if (a < 0.3) f.address = pick(addresses);
  else if (a < 0.6) f.address = some(addresses, 3);
  if (rand() < 0.8)
    f.topics = Array.from({ length: Math.floor(rand() * 5) }, () => (rand() < 0.3 ? null : rand() < 0.2 ? [] : rand() < 0.5 ? pick(topics) : some(topics, 4)));
  return f;
}

describe('eth_getLogs (indexed, cached) against a plain scan', () => {
  it('gives the same JSON for random filters over numbered and tagged ranges', async () => {
    let nonEmpty = 0;
    for (let k = 0; k < 600; k++) {
      const f = randomFilter();
      const want = expected(f);
      expect(await answer(f), JSON.stringify(f)).toBe(want);
      if (want.startsWith('[{')) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(60);
  });

  it('by blockHash, and the same again from the cache', async () => {
    for (const block of chain.blocks()) {
      for (const f of [{}, { address: EMITTER }, { topics: [null, null] }, { topics: [topics[0]] }]) {
        const q = { ...f, blockHash: hex(block.hash) };
        expect(await answer(q)).toBe(expected(q));
        expect(await answer(q)).toBe(expected(q));
      }
    }
    expect(await answer({ blockHash: '0x' + '11'.repeat(32) })).toBe(JSON.stringify({ error: 'unknown block' }));
  });

  it('latest moves to a newly mined block (with logs), pending still reads as latest', async () => {
    const everything = await answer({ fromBlock: 'earliest', toBlock: 'pending' });
    const dev = chain.devAccounts()[3]!;
    const nonce = (await chain.getAccount(dev.address, chain.head()))!.nonce;
    const data = encodeFunctionData({ abi: parseAbi(['function emitMany(uint256 n)']), functionName: 'emitMany', args: [7n] });
    const tx = createFeeMarket1559Tx(
      { chainId: 1337n, nonce, gasLimit: 1_000_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, to: EMITTER, data },
      { common: chain.common },
    ).sign(dev.privateKey);
    await chain.addPending(tx);
    expect(await answer({ fromBlock: 'earliest', toBlock: 'pending' })).toBe(everything);
    const mined = await nodeOf(chain).mineBlock();
    expect(mined.receipts.flatMap((r) => r.logs)).toHaveLength(7);
    const latest = await answer({ fromBlock: 'latest', address: EMITTER });
    expect(JSON.parse(latest)).toHaveLength(7);
    for (const f of [{ fromBlock: 'latest' }, { fromBlock: '0x0', toBlock: 'pending' }, { fromBlock: 'earliest', address: EMITTER, topics: [null, null] }])
      expect(await answer(f)).toBe(expected(f));
    expect(await answer({ fromBlock: 'earliest', toBlock: '0x' + (mined.number - 1n).toString(16) })).toBe(everything);
  });
});
