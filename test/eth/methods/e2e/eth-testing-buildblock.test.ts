/**
 * testing_buildBlockV1 on a shipped chain (geth's own answers are in the execution-apis conformance run): a block
 * built from payload attributes and signed transactions (viem signs), answered as engine_getPayloadV4,
 * never joins the chain; the same request gives the same block; bad input names the problem; devMethods off hides it.
 */
import { createWalletClient, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call, result } from '../../../support/http.js';

// The first of the shipped chains' dev accounts (anvil's mnemonic).
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const SINK = '0x00000000000000000000000000000000000000b8';
const ZERO32 = `0x${'00'.repeat(32)}`;

let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw?.stop());

async function attrs() {
  const head = await result(url, 'eth_getBlockByNumber', ['latest', false]);
  const payloadAttributes = {
    timestamp: `0x${(BigInt(head.timestamp) + 12n).toString(16)}`,
    prevRandao: `0x${'42'.repeat(32)}`,
    suggestedFeeRecipient: '0x00000000000000000000000000000000000000fe',
    withdrawals: [{ index: '0x1', validatorIndex: '0x2', address: SINK, amount: '0x3' }],
    parentBeaconBlockRoot: `0x${'07'.repeat(32)}`,
  };
  return { head, payloadAttributes };
}

describe('testing_buildBlockV1', () => {
  it('builds a real block from a signed transaction without touching the chain, the same every time', async () => {
    const account = privateKeyToAccount(KEY);
    const wallet = createWalletClient({ account, transport: http(url) });
    const chainId = Number(await result(url, 'eth_chainId'));
    const nonce = Number(await result(url, 'eth_getTransactionCount', [account.address, 'latest']));
    const raw = await wallet.signTransaction({
      chain: null,
      chainId,
      nonce,
      to: SINK,
      value: parseEther('1'),
      gas: 21000n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 2_000_000_000n,
    });
    const { head, payloadAttributes } = await attrs();
    const before = await result(url, 'eth_getBalance', [SINK, 'latest']);
    const params = [head.hash, payloadAttributes, [raw], '0x64657667617465'];
    const built = await result(url, 'testing_buildBlockV1', params);
    const p = built.executionPayload;
    expect(p).toMatchObject({
      parentHash: head.hash,
      feeRecipient: payloadAttributes.suggestedFeeRecipient,
      prevRandao: payloadAttributes.prevRandao,
      blockNumber: `0x${(BigInt(head.number) + 1n).toString(16)}`,
      timestamp: payloadAttributes.timestamp,
      gasUsed: '0x5208',
      extraData: '0x64657667617465', // "devgate"
      transactions: [raw],
      withdrawals: payloadAttributes.withdrawals,
    });
    expect(built.blockValue).toBe(`0x${(21000n * 2_000_000_000n).toString(16)}`);
    expect(built.shouldOverrideBuilder).toBe(false);
    // Nothing changed: head, the recipient's balance, the pool.
    expect((await result(url, 'eth_getBlockByNumber', ['latest', false])).hash).toBe(head.hash);
    expect(await result(url, 'eth_getBalance', [SINK, 'latest'])).toBe(before);
    expect(await result(url, 'eth_getTransactionCount', [account.address, 'latest'])).toBe(`0x${nonce.toString(16)}`);
    // Deterministic: the same request, the same block.
    expect((await result(url, 'testing_buildBlockV1', params)).executionPayload.blockHash).toBe(p.blockHash);
    // An empty list builds an empty block with the withdrawal applied in its state root only.
    const empty = await result(url, 'testing_buildBlockV1', [head.hash, payloadAttributes, [], null]);
    expect(empty.executionPayload).toMatchObject({ transactions: [], gasUsed: '0x0', extraData: '0x' });
    expect(empty.executionPayload.stateRoot).not.toBe(head.stateRoot);
  });

  it('refuses what geth refuses, with its words, and leaves the chain as it was', async () => {
    const { head, payloadAttributes } = await attrs();
    const notHead = await call(url, 'testing_buildBlockV1', [ZERO32, payloadAttributes, []]);
    expect(notHead.error).toMatchObject({ code: -32000, message: 'parentHash is not current head' });
    const past = await call(url, 'testing_buildBlockV1', [head.hash, { ...payloadAttributes, timestamp: head.timestamp }, []]);
    expect(past.error.message).toContain('invalid timestamp');
    const noRoot = await call(url, 'testing_buildBlockV1', [head.hash, { ...payloadAttributes, parentBeaconBlockRoot: undefined }, []]);
    expect(noRoot.error.message).toContain('parentBeaconBlockRoot');
    const longExtra = await call(url, 'testing_buildBlockV1', [head.hash, payloadAttributes, [], `0x${'ab'.repeat(33)}`]);
    expect(longExtra.error).toMatchObject({ code: -32602 });
    expect(longExtra.error.message).toContain('extraData is 33 bytes');
    const junk = await call(url, 'testing_buildBlockV1', [head.hash, payloadAttributes, ['0x02c0']]);
    expect(junk.error.code).toBe(-32000);
    expect((await result(url, 'eth_getBlockByNumber', ['latest', false])).hash).toBe(head.hash);
  });

  it('is a dev method: a gateway started with devMethods off does not serve it', async () => {
    const plain = await start({ port: 0, chains: ['chains/sepolia.json'], devMethods: false });
    try {
      const reply = await call(plain.url('sepolia'), 'testing_buildBlockV1', [ZERO32, {}, []]);
      expect(reply.error).toMatchObject({ code: -32601 });
    } finally {
      await plain.stop();
    }
  });
});
