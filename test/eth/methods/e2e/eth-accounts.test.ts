import { JsonRpcProvider, Wallet } from 'ethers';
import { createPublicClient, createTestClient, createWalletClient, http, keccak256, parseTransaction, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as const;
const DEV4 = { address: '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65', key: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a' } as const;
const WHALE = '0x00000000000000000000000000000000000000a7' as const;
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };
const typed = {
  domain: { name: 'Ether Mail', version: '1', chainId: 11155111, verifyingContract: '0xcccccccccccccccccccccccccccccccccccccccc' },
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const;

let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
});
afterAll(() => gw.stop());

describe('dev accounts', () => {
  it("viem's JSON-RPC account sends with eth_sendTransaction and signs as its local account does", async () => {
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    const rpcWallet = createWalletClient({ account: DEV4.address, chain, transport: http(url) });
    const local = privateKeyToAccount(DEV4.key);
    const hash = await rpcWallet.sendTransaction({ to: WHALE, value: 1234n });
    const receipt = await client.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const tx = await client.getTransaction({ hash });
    expect(tx).toMatchObject({ from: DEV4.address, type: 'eip1559', value: 1234n });
    expect(tx.maxFeePerGas! > tx.maxPriorityFeePerGas!).toBe(true);
    for (const message of ['hello devgate', { raw: '0xdeadbeef' as const }]) {
      expect(await rpcWallet.signMessage({ message })).toBe(await local.signMessage({ message }));
    }
    expect(await rpcWallet.signTypedData(typed)).toBe(await local.signTypedData(typed));
    const legacy = await rpcWallet.sendTransaction({ to: WHALE, value: 1n, gasPrice: 5_000_000_000n });
    expect((await client.getTransaction({ hash: legacy })).type).toBe('legacy');
  });

  it("ethers' JsonRpcSigner signs as its Wallet does; eth_signTransaction fills and signs without sending", async () => {
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true });
    const signer = await provider.getSigner(DEV4.address);
    const wallet = new Wallet(DEV4.key);
    expect(await signer.signMessage('hello')).toBe(await wallet.signMessage('hello'));
    const types = { Person: typed.types.Person, Mail: typed.types.Mail };
    expect(await signer.signTypedData(typed.domain, types as never, typed.message)).toBe(
      await wallet.signTypedData(typed.domain, types as never, typed.message),
    );
    provider.destroy();
    const head = (await call(url, 'eth_blockNumber')).result;
    const raw = (await call(url, 'eth_signTransaction', [{ from: DEV4.address, to: WHALE, value: '0x5' }])).result as Hex;
    const parsed = parseTransaction(raw);
    expect(parsed).toMatchObject({ type: 'eip1559', chainId: 11155111, to: WHALE, value: 5n });
    expect((await call(url, 'eth_blockNumber')).result).toBe(head);
    expect((await call(url, 'eth_sendRawTransaction', [raw])).result).toBe(keccak256(raw));
  });

  it('a from that is neither a dev account nor impersonated is refused, naming it', async () => {
    const r = await call(url, 'eth_sendTransaction', [{ from: WHALE, to: DEV4.address, value: '0x1' }]);
    expect(r.error).toMatchObject({ code: -32000, message: expect.stringContaining(`unknown account ${WHALE}`) });
    expect((await call(url, 'eth_sign', [WHALE, '0x00'])).error.message).toContain('unknown account');
    expect((await call(url, 'eth_sendTransaction', [{ to: WHALE }])).error.code).toBe(-32602);
  });
});

describe('impersonation', () => {
  for (const mode of ['anvil', 'hardhat'] as const) {
    it(`${mode}: an impersonated address sends without its key; hashes are stable and distinct; stopping ends it`, async () => {
      const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
      const test = createTestClient({ chain, mode, transport: http(url) });
      await test.setBalance({ address: WHALE, value: 10n ** 19n });
      await test.impersonateAccount({ address: WHALE });
      const wallet = createWalletClient({ account: WHALE, chain, transport: http(url) });
      const a = await wallet.sendTransaction({ to: DEV4.address, value: 1n });
      const b = await wallet.sendTransaction({ to: DEV4.address, value: 1n });
      expect(a).not.toBe(b);
      expect((await client.getTransaction({ hash: a })).from).toBe(WHALE);
      expect((await client.getTransactionReceipt({ hash: b })).status).toBe('success');
      expect(await client.getTransactionCount({ address: WHALE })).toBeGreaterThanOrEqual(2);
      await test.stopImpersonatingAccount({ address: WHALE });
      await expect(wallet.sendTransaction({ to: DEV4.address, value: 1n })).rejects.toThrow(/unknown account/);
    });
  }

  it('the same request impersonated twice from the same state gives the same hash; auto-impersonation; snapshots restore it', async () => {
    const send = () =>
      call(url, 'eth_sendTransaction', [
        { from: WHALE, to: TOKEN, value: '0x0', data: '0x', gas: '0x7530', maxFeePerGas: '0x2540be400', maxPriorityFeePerGas: '0x1' },
      ]);
    await call(url, 'anvil_setBalance', [WHALE, '0x8ac7230489e80000']);
    const snap = (await call(url, 'evm_snapshot')).result;
    expect((await call(url, 'anvil_autoImpersonateAccount', [true])).result).toBeNull();
    const first = (await send()).result;
    expect((await call(url, 'evm_revert', [snap])).result).toBe(true);
    // Auto-impersonation was off when the snapshot was taken.
    expect((await send()).error.message).toContain('unknown account');
    await call(url, 'anvil_impersonateAccount', [WHALE]);
    expect((await send()).result).toBe(first);
  });
});

describe('eth_sendUnsignedTransaction', () => {
  it("viem's sendUnsignedTransaction test action sends from an address that is not impersonated, only for that request", async () => {
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    const test = createTestClient({ chain, mode: 'anvil', transport: http(url) });
    const SENDER = '0x00000000000000000000000000000000000000a8' as const;
    await test.setBalance({ address: SENDER, value: 10n ** 18n });
    const hash = await test.sendUnsignedTransaction({ from: SENDER, to: DEV4.address, value: 5n });
    const receipt = await client.getTransactionReceipt({ hash });
    expect(receipt).toMatchObject({ status: 'success', from: SENDER, to: DEV4.address });
    // Not impersonated afterwards; an address without funds is refused with the pool's reason and nothing mined.
    expect((await call(url, 'eth_sendTransaction', [{ from: SENDER, to: DEV4.address, value: '0x1' }])).error.message).toContain('unknown account');
    const head = await client.getBlockNumber();
    const poor = await call(url, 'eth_sendUnsignedTransaction', [{ from: '0x00000000000000000000000000000000000000a9', to: DEV4.address, value: '0x1' }]);
    expect(poor.error.code).toBe(-32000);
    expect(poor.error.message).toMatch(/insufficient funds/);
    expect(await client.getBlockNumber()).toBe(head);
  });
});
