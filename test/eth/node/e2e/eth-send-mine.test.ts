/**
 * devgate takes writes: viem's wallet and test clients, and ethers, unchanged, deploy, send, wait and mine on
 * the shipped sepolia chain over HTTP and WebSocket; proofs of mined blocks verify against their stateRoot.
 */
import { readFileSync } from 'node:fs';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, webSocket, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';

const token = JSON.parse(readFileSync(new URL('../../../../chains/contracts/Token.json', import.meta.url), 'utf8')) as { abi: Abi; bytecode: Hex };
const KEY1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
const KEY2 = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' as const;
const SINK = '0x00000000000000000000000000000000000000c1' as const;

let gw: Gateway;
let url: string;
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

describe('viem', () => {
  it('a local account deploys, writes and transfers with automine; receipts are there at once', async () => {
    const account = privateKeyToAccount(KEY1);
    const wallet = createWalletClient({ account, chain, transport: http(url) });
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    const before = await client.getBlockNumber();
    const deploy = await wallet.deployContract({ abi: token.abi, bytecode: token.bytecode, args: [] });
    const deployed = await client.waitForTransactionReceipt({ hash: deploy });
    expect(deployed.status).toBe('success');
    expect(deployed.blockNumber).toBe(before + 1n);
    const address = deployed.contractAddress!;
    const write = await wallet.writeContract({ address, abi: token.abi, functionName: 'transfer', args: [SINK, 1234n] });
    expect((await client.getTransactionReceipt({ hash: write })).logs).toHaveLength(1);
    expect(await client.readContract({ address, abi: token.abi, functionName: 'balanceOf', args: [SINK] })).toBe(1234n);
    const send = await wallet.sendTransaction({ to: SINK, value: parseEther('1.5') });
    const receipt = await client.waitForTransactionReceipt({ hash: send });
    expect(receipt.blockNumber).toBe(before + 3n);
    expect(await client.getBalance({ address: SINK })).toBe(parseEther('1.5'));
    const tx = await client.getTransaction({ hash: send });
    expect(tx.from.toLowerCase()).toBe(account.address.toLowerCase());
    expect(tx.blockHash).toBe(receipt.blockHash);
  });

  it('testClient in anvil and hardhat modes: mine, setAutomine, increaseTime, setNextBlockTimestamp', async () => {
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    for (const mode of ['anvil', 'hardhat'] as const) {
      const test = createTestClient({ chain, mode, transport: http(url) });
      const start = await client.getBlock();
      await test.mine({ blocks: 3 });
      const after = await client.getBlock();
      expect(after.number).toBe(start.number + 3n);
      expect(after.timestamp).toBe(start.timestamp + 36n);
      await test.increaseTime({ seconds: 100 });
      await test.mine({ blocks: 1 });
      // The increase stands in for the block time, as on anvil and hardhat (was 100 + 12).
      expect((await client.getBlock()).timestamp).toBe(after.timestamp + 100n);
      const next = (await client.getBlock()).timestamp + 1000n;
      await test.setNextBlockTimestamp({ timestamp: next });
      await test.mine({ blocks: 1 });
      expect((await client.getBlock()).timestamp).toBe(next);

      await test.setAutomine(false);
      expect(await call(url, mode === 'anvil' ? 'anvil_getAutomine' : 'hardhat_getAutomine')).toMatchObject({ result: false });
      const wallet = createWalletClient({ account: privateKeyToAccount(KEY2), chain, transport: http(url) });
      const head = await client.getBlockNumber();
      const hash = await wallet.sendTransaction({ to: SINK, value: 5n });
      expect(await client.getBlockNumber()).toBe(head);
      expect(await client.getTransactionReceipt({ hash }).catch(() => null)).toBeNull();
      const pending = await client.getBlock({ blockTag: 'pending', includeTransactions: false });
      expect(pending.transactions).toContain(hash);
      await test.mine({ blocks: 1 });
      expect((await client.getTransactionReceipt({ hash })).blockNumber).toBe(head + 1n);
      await test.setAutomine(true);
    }
  });

  it('eth_sendRawTransactionSync answers the receipt; without automine it times out with error 4 and the hash', async () => {
    const account = privateKeyToAccount(KEY2);
    const wallet = createWalletClient({ account, chain, transport: http(url) });
    const signed = await wallet.signTransaction(await wallet.prepareTransactionRequest({ to: SINK, value: 7n }));
    const receipt = (await call(url, 'eth_sendRawTransactionSync', [signed])).result;
    expect(receipt).toMatchObject({ status: '0x1', to: SINK });
    gw.eth('sepolia').setAutomine(false);
    try {
      const again = await wallet.signTransaction(await wallet.prepareTransactionRequest({ to: SINK, value: 8n }));
      const timedOut = await call(url, 'eth_sendRawTransactionSync', [again, 50]);
      expect(timedOut.error).toMatchObject({
        code: 4,
        message: expect.stringMatching(/wasn't processed in 50ms/),
        data: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      await gw.eth('sepolia').mine();
    } finally {
      gw.eth('sepolia').setAutomine(true);
    }
  });

  it('sends over WebSocket too', async () => {
    const account = privateKeyToAccount(KEY2);
    const transport = webSocket(gw.wsUrl('sepolia'));
    const wallet = createWalletClient({ account, chain, transport });
    const client = createPublicClient({ chain, transport });
    const hash = await wallet.sendTransaction({ to: SINK, value: 9n });
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
    await (await transport({ chain }).value?.getRpcClient())?.close();
  });
});

describe('ethers v6', () => {
  it('Wallet.sendTransaction and ContractFactory.deploy with wait()', async () => {
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = new Wallet(KEY2, provider);
    const sent = await wallet.sendTransaction({ to: SINK, value: 11n });
    const mined = await sent.wait();
    expect(mined?.status).toBe(1);
    const factory = new ContractFactory(token.abi as never, token.bytecode, wallet);
    const contract = await factory.deploy();
    await contract.waitForDeployment();
    const address = await contract.getAddress();
    expect(await provider.getCode(address)).not.toBe('0x');
    provider.destroy();
  });
});

describe('mined blocks are real', () => {
  it('a proof at a mined block verifies against its stateRoot, and bad input changes nothing', async () => {
    const block = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result;
    const proof = (await call(url, 'eth_getProof', [SINK, [], block.number])).result;
    const value = await verifyMerkleProof(
      hexToBytes(SINK),
      proof.accountProof.map((n: string) => hexToBytes(n as Hex)),
      { useKeyHashing: true, root: hexToBytes(block.stateRoot) },
    );
    expect(value).not.toBeNull();
    const [, balance] = RLP.decode(value!) as Uint8Array[];
    expect(balance!.length === 0 ? 0n : BigInt(bytesToHex(balance!))).toBe(BigInt(proof.balance));
    expect(BigInt(proof.balance)).toBeGreaterThan(0n);

    const head = block.number;
    for (const raw of ['0x', '0x1234', '0x05' + 'ab'.repeat(40), '0xf86c' + '00'.repeat(100)]) {
      const r = await call(url, 'eth_sendRawTransaction', [raw]);
      expect(r.error.code).toBe(-32000);
      expect(r.error.message).toMatch(/transaction|type|^rlp: /);
    }
    expect((await call(url, 'eth_blockNumber')).result).toBe(head);
  });

  it("a seed's own mining settings apply unless start() gives some", async () => {
    const seed = { ...JSON.parse(readFileSync(new URL('../../../../chains/sepolia.json', import.meta.url), 'utf8')), mining: { automine: false } };
    const own = await start({ port: 0, chains: [seed] });
    const overridden = await start({ port: 0, chains: [seed], mining: { automine: true } });
    try {
      expect(own.eth('sepolia').miningMode()).toEqual({ automine: false, intervalMs: undefined });
      expect(overridden.eth('sepolia').miningMode()).toEqual({ automine: true, intervalMs: undefined });
    } finally {
      await Promise.all([own.stop(), overridden.stop()]);
    }
  });

  it('interval mining follows devgate clock, empty blocks too', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const own = await start({ port: 0, chains: ['chains/sepolia.json'], clock, mining: { blockTime: 5 } });
    try {
      const handle = own.eth('sepolia');
      const first = handle.blockNumber();
      expect(handle.getAutomine()).toBe(false);
      clock.advance(4_999);
      await new Promise((r) => setTimeout(r, 20));
      expect(handle.blockNumber()).toBe(first);
      clock.advance(1);
      await new Promise((r) => setTimeout(r, 50));
      expect(handle.blockNumber()).toBe(first + 1n);
      clock.advance(10_000);
      await new Promise((r) => setTimeout(r, 100));
      expect(handle.blockNumber()).toBe(first + 3n);
      const a = (await handle.getBlock(first + 2n))!;
      const b = (await handle.getBlock(first + 3n))!;
      expect(b.timestamp - a.timestamp).toBe(5n);
    } finally {
      await own.stop();
    }
  });
});
