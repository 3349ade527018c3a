/**
 * Otterscan's searches are bounded in work (src/eth/engine/query/otsSearch.ts): past the blocks or the transactions
 * run again that one search may take, it fails naming the limit (-32005 on the wire) and changes nothing; it yields to
 * the event loop while it scans, so other work goes on; its lookahead for `lastPage` never fails a full page.
 */
import { createAddressFromString } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { LimitExceeded } from '../../../../src/errors.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { contractCreator, searchAfter, searchBefore, txBySenderAndNonce } from '../../../../src/eth/engine/query/otsSearch.js';
import { parseSeed } from '../../../../src/seed/load.js';

const B1 = '0x00000000000000000000000000000000000000b1';
const B2 = '0x00000000000000000000000000000000000000b2';
const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

let chain: EthChain;

beforeAll(async () => {
  // B1 is paid in block 1 and block 40; 38 empty blocks between; a Token is made in block 41.
  const blocks: unknown[] = [{ transactions: [{ to: B1, value: 1 }] }];
  for (let i = 0; i < 38; i++) blocks.push({ transactions: [] });
  blocks.push({
    transactions: [
      { to: B1, value: 2 },
      { to: B2, value: 3 },
    ],
  });
  blocks.push({ transactions: [{ artifact: 'Token' }] });
  chain = await chainFromSeed(parseSeed({ name: 'ots', kind: 'eth', chainId: 1337, hardfork: 'prague', blocks }, 'prague', 'chains'));
});

describe('ots searches', () => {
  // First: blocks a search has traced are cached (by hash) and cost no traces after.
  it('past its trace limit a search fails naming it', async () => {
    const someone = createAddressFromString('0x00000000000000000000000000000000000000c7');
    const err = await searchBefore(chain, someone, 0n, 25, { blocks: 1000, traces: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(LimitExceeded);
    expect(err.message).toContain('transactions again');
  });

  it('find by sender, recipient and creation, newest first, with first and last page', async () => {
    const b1 = createAddressFromString(B1);
    const all = await searchBefore(chain, b1, 0n, 25);
    expect(all.txs.map((t) => [t.block.number, t.index])).toEqual([
      [40n, 0],
      [1n, 0],
    ]);
    expect(all).toMatchObject({ firstPage: true, lastPage: true });
    const one = await searchAfter(chain, b1, 0n, 1);
    expect(one.txs.map((t) => t.block.number)).toEqual([1n]);
    expect(one).toMatchObject({ firstPage: false, lastPage: true });
  });

  it('past its block limit a search fails naming it; a full page within it never does', async () => {
    const b1 = createAddressFromString(B1);
    const err = await searchBefore(chain, b1, 40n, 25, { blocks: 10, traces: 100 }).catch((e) => e);
    expect(err).toBeInstanceOf(LimitExceeded);
    expect(err.message).toContain('search scanned 10 blocks');
    // The newest page fills at block 40; the lookahead past the limit answers lastPage false, not an error.
    const page = await searchBefore(chain, b1, 0n, 1, { blocks: 10, traces: 100 });
    expect(page.txs.map((t) => t.block.number)).toEqual([40n]);
    expect(page.lastPage).toBe(false);
  });

  it('yields to the event loop while it scans', async () => {
    let ticks = 0;
    let done = false;
    const tick = () => {
      ticks++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    await searchBefore(chain, createAddressFromString('0x00000000000000000000000000000000000000c8'), 0n, 25);
    done = true;
    // 41 blocks, a yield every 32: another task ran meanwhile.
    expect(ticks).toBeGreaterThan(0);
  });

  it('finds a sender’s transaction by nonce and a contract’s creator by halving', async () => {
    const a0 = createAddressFromString(A0);
    expect((await txBySenderAndNonce(chain, a0, 1n))?.block.number).toBe(40n);
    expect(await txBySenderAndNonce(chain, a0, 10n)).toBeUndefined();
    const token = chain.blockByNumber(41n)!.receipts[0]!.contractAddress!;
    const found = await contractCreator(chain, token);
    expect(found?.tx.block.number).toBe(41n);
    expect(found?.creator.toString()).toBe(A0);
    expect(await contractCreator(chain, createAddressFromString(B1))).toBeUndefined();
  });
});
