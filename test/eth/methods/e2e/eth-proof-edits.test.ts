/**
 * eth_getProof between a state edit and the next block: asked at head's number (or hash) the proof verifies against
 * that block's header stateRoot (issue 14); asked at `latest` it proves the state reads see, the edit included (as
 * anvil and hardhat answer). After the next block both are that block's.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';

const WHO = '0x00000000000000000000000000000000000000e7';
let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

const rpc = async (method: string, params: unknown[]) => {
  const reply = await call(url, method, params);
  if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
  return reply.result;
};
/** The root a proof hangs from: the hash of its first (root) node. */
const rootOf = (proof: { accountProof: string[] }) => bytesToHex(keccak_256(hexToBytes(proof.accountProof[0] as `0x${string}`)));

describe('eth_getProof while head carries an unmined edit', () => {
  it('by number or hash: against the header stateRoot; at latest: the edited state; after the next block: that block', async () => {
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    await rpc('anvil_setBalance', [WHO, '0x1234']);
    const byNumber = await rpc('eth_getProof', [WHO, [], head.number]);
    const byHash = await rpc('eth_getProof', [WHO, [], { blockHash: head.hash }]);
    const latest = await rpc('eth_getProof', [WHO, [], 'latest']);
    expect(rootOf(byNumber)).toBe(head.stateRoot);
    expect(rootOf(byHash)).toBe(head.stateRoot);
    expect(byNumber.balance).toBe('0x0');
    expect(latest.balance).toBe('0x1234');
    expect(rootOf(latest)).not.toBe(head.stateRoot);
    await rpc('evm_mine', []);
    const next = await rpc('eth_getBlockByNumber', ['latest', false]);
    const mined = await rpc('eth_getProof', [WHO, [], next.number]);
    expect(rootOf(mined)).toBe(next.stateRoot);
    expect(mined.balance).toBe('0x1234');
    expect(rootOf(await rpc('eth_getProof', [WHO, [], 'latest']))).toBe(next.stateRoot);
  });
});
