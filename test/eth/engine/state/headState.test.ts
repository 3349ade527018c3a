/** HeadStateManager's account reads (decoded once per cached RLP) answer as @ethereumjs's MerkleStateManager does. */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, MapDB, ValueEncoding } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { seedCommon } from '../../../../src/eth/engine/exec/common.js';
import { HeadStateManager } from '../../../../src/eth/engine/state/headState.js';
import { prng } from '../../../support/prng.js';

const common = seedCommon(31337, 'head', 'osaka');
const state = (Manager: typeof MerkleStateManager) =>
  new Manager({
    common,
    trie: new MerklePatriciaTrie({ useKeyHashing: true, common, db: new MapDB(), valueEncoding: ValueEncoding.Bytes }),
    caches: new Caches(),
  });
const fields = (a: Account | undefined) =>
  a === undefined ? undefined : [a.nonce, a.balance, Buffer.from(a.storageRoot).toString('hex'), Buffer.from(a.codeHash).toString('hex')];

describe('HeadStateManager.getAccount', () => {
  it('gives what MerkleStateManager gives through puts, deletes, checkpoints, reverts and flushes, and a fresh copy each time', async () => {
    const head = state(HeadStateManager);
    const plain = state(MerkleStateManager);
    const rand = prng(7);
    const addresses = Array.from({ length: 12 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 31 + j) & 255)));
    for (let step = 0; step < 600; step++) {
      const address = addresses[Math.floor(rand() * addresses.length)]!;
      const r = rand();
      const balance = BigInt(Math.floor(rand() * 1e9));
      for (const s of [head, plain]) {
        if (r < 0.4) await s.putAccount(address, new Account(BigInt(step), balance));
        else if (r < 0.45) await s.deleteAccount(address);
        else if (r < 0.5) await s.checkpoint();
        else if (r < 0.55) await s.revert().catch(() => {});
        else if (r < 0.6) await s.commit().catch(() => {});
        else if (r < 0.62) await s.flush();
      }
      if (r >= 0.4 && r < 0.62) continue;
      const got = await head.getAccount(address);
      expect(fields(got)).toEqual(fields(await plain.getAccount(address)));
      if (got !== undefined) {
        got.nonce += 1000n;
        got.balance = 1n;
        expect(fields(await head.getAccount(address))).toEqual(fields(await plain.getAccount(address)));
      }
    }
  });
});
