/**
 * gw.provider(): an in-process EIP-1193 provider driven by unchanged viem (custom transport, public, wallet and test
 * actions) and ethers (BrowserProvider and its signer), with the same answers and policy as HTTP, and eth_subscribe
 * notifications as EIP-1193 `message` events.
 */
import { BrowserProvider, Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, custom, http, parseAbi, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ProviderRpcError, start, type Gateway } from '../../../src/index.js';
import { ACCOUNT0, ACCOUNT1, TOKEN, readSurfaceSeed } from '../../eth/methods/seed.js';

const KEY1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function totalSupply() view returns (uint256)']);
let gw: Gateway;

beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [readSurfaceSeed()],
    keys: {
      open: true,
      defaultPlan: 'growth',
      keys: [{ key: 'reads-only', plan: 'growth', allowlist: { methods: ['eth_blockNumber', 'eth_chainId'] } }],
    },
  });
});
afterAll(() => gw?.stop());

describe('gw.provider', () => {
  it('serves viem through custom(): reads, a local-account write and test actions, as HTTP answers', async () => {
    const transport = custom(gw.provider('dev'));
    const client = createPublicClient({ transport });
    const overHttp = createPublicClient({ transport: http(gw.url('dev')) });
    expect(await client.getBlockNumber()).toBe(await overHttp.getBlockNumber());
    expect(await client.getBlock({ blockTag: 'latest' })).toEqual(await overHttp.getBlock({ blockTag: 'latest' }));
    expect(await client.readContract({ address: TOKEN, abi: erc20, functionName: 'totalSupply' })).toBe(
      await overHttp.readContract({ address: TOKEN, abi: erc20, functionName: 'totalSupply' }),
    );
    const chainId = await client.getChainId();
    const chain = { id: chainId, name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } };
    const wallet = createWalletClient({ account: privateKeyToAccount(KEY1), chain, transport });
    const hash = await wallet.sendTransaction({ to: ACCOUNT0, value: 5n });
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 10 })).status).toBe('success');
    const test = createTestClient({ mode: 'anvil', transport }).extend(publicActions);
    const before = await test.getBlockNumber({ cacheTime: 0 });
    await test.mine({ blocks: 3 });
    expect(await test.getBlockNumber({ cacheTime: 0 })).toBe(before + 3n);
    await test.setBalance({ address: ACCOUNT1, value: 123n });
    expect(await overHttp.getBalance({ address: ACCOUNT1 })).toBe(123n);
  });

  it('serves ethers through BrowserProvider: a dev-account signer sends, a contract reads', async () => {
    const provider = new BrowserProvider(gw.provider('dev'));
    const signer = await provider.getSigner(ACCOUNT0);
    const tx = await signer.sendTransaction({ to: ACCOUNT1, value: 7n });
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    const token = new Contract(TOKEN, ['function balanceOf(address) view returns (uint256)'], provider);
    expect(typeof (await token.balanceOf(ACCOUNT0))).toBe('bigint');
    expect(Number((await provider.getNetwork()).chainId)).toBe(Number(await gw.provider('dev').request({ method: 'net_version' })));
  });

  it('rejects as EIP-1193 with the JSON-RPC code, message and data; the key policy holds', async () => {
    const p = gw.provider('dev');
    await expect(p.request({ method: 'eth_nope' })).rejects.toMatchObject({ code: -32601 });
    await expect(p.request({ method: 'eth_getBalance', params: ['0x12'] })).rejects.toMatchObject({ code: -32602 });
    const err = await p.request({ method: 'eth_call', params: [{ to: TOKEN, data: '0xdeadbeef' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderRpcError);
    expect((err as ProviderRpcError).code).toBe(3);
    const limited = gw.provider('dev', 'reads-only');
    expect(await limited.request({ method: 'eth_blockNumber' })).toMatch(/^0x/);
    await expect(limited.request({ method: 'eth_getBalance', params: [ACCOUNT0, 'latest'] })).rejects.toMatchObject({ code: -32002 });
    expect(() => gw.provider('dev', 'bad key!')).toThrow(/invalid key/);
    expect(() => gw.provider('nowhere')).toThrow(/unknown network/);
  });

  it('delivers eth_subscribe notifications as message events, in order, after the subscription id', async () => {
    const p = gw.provider('dev');
    const heads: { subscription: string; result: { number: string } }[] = [];
    p.on('message', (m: { type: string; data: { subscription: string; result: { number: string } } }) => {
      if (m.type === 'eth_subscription') heads.push(m.data);
    });
    const id = (await p.request({ method: 'eth_subscribe', params: ['newHeads'] })) as string;
    const start = BigInt((await p.request({ method: 'eth_blockNumber' })) as string);
    await p.request({ method: 'anvil_mine', params: ['0x2'] });
    for (let i = 0; i < 100 && heads.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(heads.map((h) => h.subscription)).toEqual([id, id]);
    expect(heads.map((h) => BigInt(h.result.number))).toEqual([start + 1n, start + 2n]);
    p.disconnect();
    await p.request({ method: 'evm_mine' });
    await new Promise((r) => setTimeout(r, 50));
    expect(heads).toHaveLength(2);
  });
});
