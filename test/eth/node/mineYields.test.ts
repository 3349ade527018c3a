/**
 * The node mines on its writer, and a transaction being mined yields to other requests by work done (#25: a
 * 36,000-log transaction held another network's probe for 877 ms): while a block runs a long loop, the event loop
 * turns (counted with setImmediate, no clock read), and the block is the same as ever.
 */
import { createLegacyTx } from '@ethereumjs/tx';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../src/eth/engine/chain/chain.js';
import { standaloneNode } from '../../../src/eth/node/standalone.js';
import { loadSeedFile } from '../../../src/seed/load.js';
import { hexToBytes } from '@ethereumjs/util';
import { turnsDuring } from '../../support/turns.js';

let chain: EthChain;

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
});

describe('mining under the work clock', () => {
  it('turns the event loop while a long transaction is mined, and mines it (out of gas) as before', async () => {
    const node = standaloneNode(chain, { mining: { automine: false } });
    await node.mineBlock(); // the seed's pending transactions
    const dev = chain.devAccounts()[5]!;
    const nonce = (await chain.getAccount(dev.address, chain.head()))!.nonce;
    // Init code JUMPDEST PUSH1 0 JUMP: a loop until its 3,000,000 gas are gone.
    const tx = createLegacyTx({ nonce, gasLimit: 3_000_000n, gasPrice: 100_000_000_000n, data: hexToBytes('0x5b600056') }, { common: chain.common }).sign(
      dev.privateKey,
    );
    await node.send(tx);
    const { value: block, turns } = await turnsDuring(() => node.mineBlock());
    expect(block.block.transactions).toHaveLength(1);
    expect(block.receipts[0]!.status ?? 0).toBe(0);
    expect(block.header.gasUsed).toBe(3_000_000n);
    // Without the clock the whole block runs in one turn (a turn or two around its awaits).
    expect(turns).toBeGreaterThan(5);
  }, 60_000);
});
