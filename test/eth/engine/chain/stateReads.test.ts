/**
 * The state readers of EthChain (getAccount, getCode, getStorage: reads shared per state root, straight
 * from the node store) answer as a MerkleStateManager at the same root does, at every block, the pending
 * block, and a block mined after the reads.
 */
import { nodeOf } from '../../../support/node.js';
import { createAddressFromString, hexToBytes, setLengthLeft, type Address } from '@ethereumjs/util';
import { encodeAbiParameters, keccak256, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { ACCOUNT0, ACCOUNT1, ACCOUNT2, EMITTER, GAS_LEFT_ADDRESS, REVERTER, STORAGE_LAYOUT, TOKEN, readSurfaceSeed } from '../../methods/seed.js';

const ADDRESSES = [ACCOUNT0, ACCOUNT1, ACCOUNT2, TOKEN, REVERTER, STORAGE_LAYOUT, EMITTER, GAS_LEFT_ADDRESS, '0x00000000000000000000000000000000000000b7'].map(
  (a) => createAddressFromString(a),
);
const mappingSlot = (key: Hex, slot: bigint) => hexToBytes(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot])));
const SLOTS = [
  ...[0n, 1n, 2n, 3n, 5n, 9n].map((n) => setLengthLeft(hexToBytes(`0x${n.toString(16).padStart(2, '0')}`), 32)),
  ...[ACCOUNT0, ACCOUNT1, ACCOUNT2].flatMap((a) => [mappingSlot(a as Hex, 0n), mappingSlot(a as Hex, 3n)]),
];

let chain: EthChain;
beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(readSurfaceSeed(), 'read-surface seed'));
});

/** Every reader's answer at `block`, by the chain and by a MerkleStateManager at its root. */
async function expectSameReads(block: MinedBlock): Promise<number> {
  const slow = await chain.stateAt(block);
  let nonEmpty = 0;
  for (const a of ADDRESSES as Address[]) {
    const account = await slow.getAccount(a);
    const fast = await chain.getAccount(a, block);
    expect(fast === undefined ? undefined : fast.serialize()).toEqual(account?.serialize());
    expect(await chain.getCode(a, block)).toEqual(account === undefined ? new Uint8Array() : await slow.getCode(a));
    for (const s of SLOTS) {
      const want = account === undefined ? new Uint8Array() : await slow.getStorage(a, s);
      const got = await chain.getStorage(a, s, block);
      expect(got).toEqual(want);
      if (want.length > 0) nonEmpty++;
    }
  }
  return nonEmpty;
}

describe('state readers', () => {
  it('answer as a MerkleStateManager at every block and the pending block', async () => {
    let nonEmpty = 0;
    for (const block of chain.blocks()) nonEmpty += await expectSameReads(block);
    nonEmpty += await expectSameReads(await nodeOf(chain).pendingBlock());
    expect(nonEmpty).toBeGreaterThan(10);
  });

  it('read a block mined after them, and the blocks before it unchanged', async () => {
    const before = chain.head();
    const balance = (await chain.getAccount(createAddressFromString(ACCOUNT1), before))!.balance;
    const mined = await nodeOf(chain).mineBlock();
    expect(mined.txHashes.length).toBeGreaterThan(0);
    await expectSameReads(mined);
    await expectSameReads(before);
    expect((await chain.getAccount(createAddressFromString(ACCOUNT1), before))!.balance).toBe(balance);
    expect((await chain.getAccount(createAddressFromString(ACCOUNT1), mined))!.balance).toBeGreaterThan(balance);
  });
});
