/** Seeded genesis holds the system contracts of its hardfork, and blocks really call them (EIP-4788, EIP-2935). */
import { nodeOf } from '../../../support/node.js';
import { Address, bytesToBigInt, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { SYSTEM_CONTRACTS } from '../../../../src/eth/engine/build/systemContracts.js';
import { parseSeed } from '../../../../src/seed/load.js';

const addr = (a: string) => new Address(hexToBytes(a as `0x${string}`));
const build = (hardfork: string) => chainFromSeed(parseSeed({ name: 'sys', kind: 'eth', chainId: 1, hardfork, accounts: { count: 1 } }, 'test'));

describe('system contracts', () => {
  it('are in an osaka genesis with nonce 1 and their code, and blocks write the parent hash into EIP-2935 storage', async () => {
    const chain = await build('osaka');
    const genesis = chain.head();
    for (const c of SYSTEM_CONTRACTS) {
      expect(Buffer.from(await chain.getCode(addr(c.address), genesis)).toString('hex')).toBe(c.code.slice(2));
    }
    const one = await nodeOf(chain).mineBlock();
    const history = SYSTEM_CONTRACTS.find((c) => c.name.startsWith('EIP-2935'))!;
    // EIP-2935: block n stores the hash of block n-1 at slot (n-1) % 8191.
    const stored = await chain.getStorage(addr(history.address), setLengthLeft(new Uint8Array([0]), 32), one);
    expect(Buffer.from(stored).toString('hex')).toBe(Buffer.from(genesis.hash).toString('hex'));
    const beacon = SYSTEM_CONTRACTS.find((c) => c.name.startsWith('EIP-4788'))!;
    // EIP-4788: the timestamp ring buffer holds this block's timestamp at slot timestamp % 8191.
    const slot = setLengthLeft(hexToBytes(`0x${(one.block.header.timestamp % 8191n).toString(16).padStart(2, '0')}` as `0x${string}`), 32);
    expect(bytesToBigInt(await chain.getStorage(addr(beacon.address), slot, one))).toBe(one.block.header.timestamp);
  });

  it('are absent before their hardfork: cancun has only the beacon roots contract, shanghai none', async () => {
    const cancun = await build('cancun');
    const present = await Promise.all(SYSTEM_CONTRACTS.map(async (c) => (await cancun.getCode(addr(c.address), cancun.head())).length > 0));
    expect(present).toEqual(SYSTEM_CONTRACTS.map((c) => c.since === 'cancun'));
    const shanghai = await build('shanghai');
    for (const c of SYSTEM_CONTRACTS) expect((await shanghai.getCode(addr(c.address), shanghai.head())).length).toBe(0);
  });
});
