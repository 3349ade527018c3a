/**
 * The cache of built rollup chains: a chain restored from its snapshot answers every method exactly
 * as the freshly built one (blocks by number and hash, rejected ones too, receipts, pending block,
 * fee estimates), and keeps answering alike as both move on (time, new transactions, L1 acceptance,
 * rejection). A changed seed misses; a corrupt or foreign file is rebuilt, never trusted.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedRollupChain, rollupChainKey } from '../../src/cache/rollupCache.js';
import { ManualClock } from '../../src/clock.js';
import { buildRollupChain } from '../../src/rollup/build.js';
import type { RollupChain } from '../../src/rollup/engine/chain.js';
import { rollupMethods } from '../../src/rollup/methods/index.js';
import { invokeTransaction } from '../../src/rollup/params.js';
import { decodeRollupSnapshot, encodeRollupSnapshot, RollupSnapshotError } from '../../src/rollup/snapshot.js';
import { RollupSeed } from '../../src/seed/rollup.js';
import { ALICE, BOB, increase, START_MS } from './fixture.js';
import { hex, invokeV1, invokeV3 } from './txs.js';

const work = mkdtempSync(join(tmpdir(), 'devgate-rollup-cache-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirCount = 0;
const freshDir = () => join(work, `cache-${dirCount++}`);

/** The shipped chain: blocks in every status (a rejected one among them), pending transactions. */
const seed = RollupSeed.parse(JSON.parse(readFileSync('chains/starknet-mainnet.json', 'utf8')));
const methods = rollupMethods(seed.prefix);

/** One call's answer (result or error) on a chain. */
const ask = (chain: RollupChain, method: string, params: unknown) => methods.execute({ chain, networkName: seed.name }, { id: 1, method, params });

/** Every question worth asking a chain: each block by number and hash (rejected ones too), each receipt, the pending block, fees. */
async function answers(chain: RollupChain): Promise<unknown[]> {
  const { byHash, txs } = chain.parts();
  const out: unknown[] = [];
  const head = (await ask(chain, 'rollup_blockNumber', [])) as { result: number };
  out.push(head);
  for (let n = 0; n <= head.result + 1; n++) out.push(await ask(chain, 'rollup_getBlockWithTxHashes', [{ block_number: n }]));
  for (const hash of byHash.keys()) out.push(await ask(chain, 'rollup_getBlockWithTxHashes', [{ block_hash: hex(hash) }]));
  for (const tag of ['latest', 'pending']) out.push(await ask(chain, 'rollup_getBlockWithTxHashes', [tag]));
  for (const hash of txs.keys()) out.push(await ask(chain, 'rollup_getTransactionReceipt', [hex(hash)]));
  out.push(await ask(chain, 'rollup_estimateFee', [[invokeV1(ALICE, increase(1), nonceOf(chain, ALICE.address), { query: true })], [], 'pending']));
  out.push(await ask(chain, 'rollup_chainId', []));
  return out;
}

function nonceOf(chain: RollupChain, address: string): number {
  return Number(chain.stateAt(chain.pending()).get(BigInt(address))?.nonce ?? 0n);
}

describe('a rollup chain restored from the cache', () => {
  it('answers exactly like the built one, and keeps doing so as both move on', async () => {
    const dir = freshDir();
    const built = buildRollupChain(seed, new ManualClock(START_MS));
    expect(cachedRollupChain(seed, new ManualClock(START_MS), dir).cache).toBe('stored');
    const clock = new ManualClock(START_MS);
    const second = cachedRollupChain(seed, clock, dir);
    expect(second.cache).toBe('hit');
    const restored = second.chain;
    const builtClock = (built as unknown as { clock: ManualClock }).clock;

    expect(restored.parts().byHash.size).toBeGreaterThan(restored.length); // the rejected block is known by hash
    expect(await answers(restored)).toEqual(await answers(built));

    for (const [chain, c] of [
      [built, builtClock],
      [restored, clock],
    ] as const) {
      c.advance(5_000);
      chain.addInvokeTransaction(invokeV3Tx(chain));
      chain.createBlock();
      chain.addInvokeTransaction(invokeV1Tx(chain));
      chain.acceptOnL1({ tag: 'latest' });
      chain.createBlock();
      chain.rejectBlock({ tag: 'latest' });
      c.advance(3_000);
    }
    expect(await answers(restored)).toEqual(await answers(built));
    // Time-based L1 acceptance (the seed's rule: 600 s after sealing) of seeded and new blocks alike.
    builtClock.advance(597_000);
    clock.advance(597_000);
    expect(await answers(restored)).toEqual(await answers(built));
    builtClock.advance(10_000);
    clock.advance(10_000);
    const after = await answers(restored);
    expect(after).toEqual(await answers(built));
    expect(JSON.stringify(after)).not.toContain('ACCEPTED_ON_L2');
  });

  it('is rebuilt when the seed changed, the file is corrupt or from another chain', () => {
    const dir = freshDir();
    expect(cachedRollupChain(seed, new ManualClock(START_MS), dir).cache).toBe('stored');
    const changed = RollupSeed.parse({ ...JSON.parse(readFileSync('chains/starknet-mainnet.json', 'utf8')), starknetVersion: '0.13.5' });
    expect(rollupChainKey(changed)).not.toEqual(rollupChainKey(seed));
    expect(cachedRollupChain(changed, new ManualClock(START_MS), dir).cache).toBe('stored');
    // One file per network: the older build was pruned.
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const file = join(dir, files[0]!);
    const bytes = readFileSync(file);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 10] ^= 1;
    writeFileSync(file, flipped);
    expect(cachedRollupChain(changed, new ManualClock(START_MS), dir).cache).toBe('stored');
    expect(cachedRollupChain(changed, new ManualClock(START_MS), dir).cache).toBe('hit');

    const key = rollupChainKey(seed);
    const snapshot = encodeRollupSnapshot(buildRollupChain(seed, new ManualClock(START_MS)).parts(), key);
    expect(() => decodeRollupSnapshot(snapshot, rollupChainKey(changed))).toThrow(RollupSnapshotError);
    expect(() => decodeRollupSnapshot(snapshot.subarray(0, snapshot.length - 1), key)).toThrow(/checksum/);
    expect(() => decodeRollupSnapshot(new Uint8Array([1, 2, 3]), key)).toThrow(/not a devgate rollup snapshot/);
  });
});

function invokeV3Tx(chain: RollupChain) {
  return invokeTransaction(invokeV3(BOB, increase(2), nonceOf(chain, BOB.address)));
}

function invokeV1Tx(chain: RollupChain) {
  return invokeTransaction(invokeV1(ALICE, increase(3), nonceOf(chain, ALICE.address)));
}
