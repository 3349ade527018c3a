/** Every hardfork a seed may name builds real blocks, and those blocks import back into a fresh engine. */
import { nodeOf } from '../../../support/node.js';
import { createBlockFromRLP } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { seedGenesis } from '../../../../src/eth/engine/build/seed.js';
import { HARDFORKS } from '../../../../src/seed/eth.js';
import { parseSeed } from '../../../../src/seed/load.js';

const seedFor = (hardfork: string) =>
  parseSeed(
    {
      name: 'hf',
      kind: 'eth',
      chainId: 7,
      hardfork,
      accounts: { count: 2 },
      blocks: [
        { transactions: [{ to: '0x00000000000000000000000000000000000000b1', value: 1 }, { artifact: 'SimpleStoreHomestead' }] },
        { transactions: [{ from: 1, to: '0x00000000000000000000000000000000000000b1', value: 1 }] },
      ],
      pending: [{ to: '0x00000000000000000000000000000000000000b2', value: 1 }],
    },
    hardfork,
    'chains',
  );

describe.each(HARDFORKS)('%s', (hardfork) => {
  it('builds, keeps a pending block, and round-trips through importBlock', async () => {
    const loaded = seedFor(hardfork);
    const chain = await chainFromSeed(loaded);
    expect(chain.common.hardfork()).toBe(hardfork);
    expect(chain.head().number).toBe(2n);
    const receipts = chain.blockByNumber(1n)!.receipts;
    const byzantium = HARDFORKS.indexOf(hardfork) >= HARDFORKS.indexOf('byzantium');
    expect(receipts.map((r) => (byzantium ? r.status : r.root?.length))).toEqual(byzantium ? [1, 1] : [32, 32]);
    expect(chain.blockByNumber(1n)!.block.header.difficulty > 0n).toBe(HARDFORKS.indexOf(hardfork) < HARDFORKS.indexOf('paris'));
    expect(chain.blockByNumber(1n)!.block.header.baseFeePerGas !== undefined).toBe(HARDFORKS.indexOf(hardfork) >= HARDFORKS.indexOf('london'));
    expect((await nodeOf(chain).pendingBlock()).block.transactions).toHaveLength(1);

    const copy = await EthChain.fromGenesis({ ...seedGenesis(loaded), genesisBlock: chain.blockByNumber(0n)!.block });
    for (const mined of chain.blocks(1n)) await copy.importBlock(createBlockFromRLP(mined.block.serialize(), { common: copy.common }));
    expect([...copy.blocks()].map((b) => bytesToHex(b.hash))).toEqual([...chain.blocks()].map((b) => bytesToHex(b.hash)));
  });
});
