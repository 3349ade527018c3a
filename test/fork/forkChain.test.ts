/**
 * A forked EthChain against a real upstream (a second devgate serving the small test seed): its first block is the
 * upstream's fork block; the upstream's next block imports onto it (the import checks receipts, gas and the state
 * root against the upstream's header); a block mined locally carries a root its own proofs verify against; BLOCKHASH
 * of older blocks answers the upstream's hashes; cutting back to the fork block restores the fork's state.
 */
import { createBlockFromRPC } from '@ethereumjs/block';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkedChain, type ForkedChain } from '../../src/eth/engine/fork/forkChain.js';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';
import { nodeOf } from '../support/node.js';

/** The upstream's seed: a few blocks with a token, contracts with storage and logs (fast to build). */
const SMALL = 'test/fixtures/eth/small.json';
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const DEV0_KEY = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const TO = '0x00000000000000000000000000000000000000d4';

let up: Gateway;
let url: string;
let forkBlock: bigint;
let forked: ForkedChain;

const rpc = async (method: string, params: unknown[] = []) => {
  const reply = await call(url, method, params);
  if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
  return reply.result;
};
const q = (n: bigint) => `0x${n.toString(16)}`;

beforeAll(async () => {
  up = await start({ port: 0, chains: [SMALL] });
  url = up.url('small');
  forkBlock = BigInt(await rpc('eth_blockNumber'));
  forked = await forkedChain({ url, blockNumber: forkBlock, retries: 0 });
});
afterAll(() => up?.stop());

describe('a forked chain', () => {
  it("starts at the upstream's fork block, with its state", async () => {
    const { chain } = forked;
    const upstreamHead = await rpc('eth_getBlockByNumber', [q(forkBlock), false]);
    expect(chain.head().number).toBe(forkBlock);
    expect(bytesToHex(chain.head().hash)).toBe(upstreamHead.hash);
    expect(chain.blockByNumber(forkBlock - 1n)).toBeUndefined();
    const account = await chain.getAccount(createAddressFromString(DEV0), chain.head());
    expect(account!.balance).toBe(BigInt(await rpc('eth_getBalance', [DEV0, q(forkBlock)])));
    const parent = await forked.chain.view.getBlock(Number(forkBlock) - 1);
    expect(bytesToHex(parent.hash())).toBe(upstreamHead.parentHash);
  });

  it("imports the upstream's next block: same receipts, gas and state root", async () => {
    await rpc('eth_sendTransaction', [{ from: DEV0, to: TO, value: '0x1234' }]);
    const json = await rpc('eth_getBlockByNumber', [q(forkBlock + 1n), true]);
    const mined = await forked.chain.importBlock(createBlockFromRPC(json, [], { common: forked.chain.common }));
    expect(bytesToHex(mined.hash)).toBe(json.hash);
    expect((await forked.chain.getAccount(createAddressFromString(TO), mined))!.balance).toBe(0x1234n);
  });

  it('mines a local block whose root its proofs verify against; the upstream does not see it', async () => {
    const { chain } = forked;
    const nonce = (await chain.getAccount(createAddressFromString(DEV0), chain.head()))!.nonce;
    const tx = createFeeMarket1559Tx(
      { nonce, to: TO, value: 5n, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, chainId: 31337n },
      { common: chain.common },
    ).sign(DEV0_KEY);
    await nodeOf(chain).send(tx, createAddressFromString(DEV0));
    const mined = chain.head();
    expect(mined.number).toBe(forkBlock + 2n);
    const state = await chain.readStateAt(mined);
    const proof = await getMerkleStateProof(state, createAddressFromString(TO), []);
    const leaf = await verifyMerkleProof(
      hexToBytes(TO),
      proof.accountProof.map((h) => hexToBytes(h)),
      { useKeyHashing: true, root: mined.header.stateRoot },
    );
    expect(leaf).not.toBeNull();
    expect(proof.balance).toBe('0x1239');
    expect(await rpc('eth_getBalance', [TO, 'latest'])).toBe('0x1234');
  });

  it("cuts back to the fork block: the fork's state again", async () => {
    const { chain } = forked;
    await nodeOf(chain).idle();
    await chain.truncate(forkBlock);
    expect(chain.head().number).toBe(forkBlock);
    expect(await chain.getAccount(createAddressFromString(TO), chain.head())).toBeUndefined();
  });
});
