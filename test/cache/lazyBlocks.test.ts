/**
 * A restored chain's blocks decode their Block, transactions, senders and receipts on use and hold them
 * weakly (image/chainImage.ts): what nothing uses any more is freed by a full GC (a load touching every
 * block kept them all before), and what is made again equals what was made first.
 */
import { nodeOf } from '../support/node.js';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { chainKey, chainCommon } from '../../src/cache/chainCache.js';
import { chainFromSeed } from '../../src/eth/engine/build/chainFromSeed.js';
import { encodeChainImage, encodeReceipt, restoreChainImage } from '../../src/eth/engine/image/chainImage.js';
import { parseSeed } from '../../src/seed/load.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collect(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('restored blocks', () => {
  it('free their decoded parts once unused, and decode them again equal', async () => {
    const seedDir = join(mkdtempSync(join(tmpdir(), 'devgate-lazy-')), 'seed');
    mkdirSync(join(seedDir, 'contracts'), { recursive: true });
    copyFileSync('chains/contracts/Token.json', join(seedDir, 'contracts', 'Token.json'));
    const loaded = parseSeed(JSON.parse(readFileSync('test/fixtures/eth/small.json', 'utf8')), 'small', seedDir);
    const built = await chainFromSeed(loaded);
    await nodeOf(built).pendingBlock();
    const key = chainKey(loaded);
    const chain = await restoreChainImage(encodeChainImage(built.parts(), key), { key, common: await chainCommon(loaded) });
    const mined = [...chain.blocks(1n)].find((m) => m.txHashes.length > 0)!;
    expect(mined).toBeDefined();
    // The chain image's receipts are the bytes @ethereumjs's RLP encoder gives (written in place by encodeChainImage).
    for (const [i, m] of [...built.blocks(0n)].entries()) {
      expect(bytesToHex(chain.blockByNumber(BigInt(i))!.saved!.receipts)).toBe(bytesToHex(RLP.encode(m.receipts.map(encodeReceipt))));
    }

    const freed: string[] = [];
    const registry = new FinalizationRegistry((what: string) => freed.push(what));
    const first = (() => {
      const tx = mined.transactionAt!(0);
      registry.register(tx, 'transaction');
      registry.register(mined.receipts, 'receipts');
      registry.register(mined.senders, 'senders');
      registry.register(mined.header, 'header');
      return { hash: bytesToHex(tx.hash()), serialized: bytesToHex(tx.serialize()), receipt: mined.receipts[0]!.cumulativeGasUsed };
    })();
    // Held while in use: the same objects each time.
    const held = mined.transactionAt!(0);
    expect(mined.transactionAt!(0)).toBe(held);
    expect(mined.receipts).toBe(mined.receipts);
    await collect();
    expect(freed.sort()).toEqual(['header', 'receipts', 'senders']);
    expect(mined.transactionAt!(0)).toBe(held);

    // Whole blocks too, and everything decodes again equal.
    registry.register(mined.block, 'block');
    await collect();
    expect(freed).toContain('block');
    const again = mined.transactionAt!(0);
    expect(bytesToHex(again.hash())).toBe(first.hash);
    expect(bytesToHex(again.serialize())).toBe(first.serialized);
    expect(mined.receipts[0]!.cumulativeGasUsed).toBe(first.receipt);
    expect(bytesToHex(mined.block.hash())).toBe(bytesToHex(mined.hash));
  });
});
