/**
 * eth_fillTransaction as geth answers it (TransactionAPI.FillTransaction: setDefaults, then the unsigned
 * transaction's MarshalBinary and its object), and viem's writes through it: fill, sign locally, send raw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createWalletClient, http, keccak256, parseTransaction, type Hex, type TransactionSerializable } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { start, type Gateway } from '../../../../src/index.js';
import { ACCOUNT0, ACCOUNT1, readSurfaceSeed, UNLIMITED } from '../seed.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
let gw: Gateway;
let url: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [readSurfaceSeed()], keys: UNLIMITED });
  url = gw.url('dev');
});
afterAll(() => gw?.stop());

async function rpc(method: string, params: unknown[]): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: { code: number; message: string } };
}

describe('eth_fillTransaction', () => {
  it('fills nonce, gas, EIP-1559 fees and chain id; raw is the unsigned encoding and tx.hash its keccak', async () => {
    const { result } = await rpc('eth_fillTransaction', [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }]);
    const nonce = (await rpc('eth_getTransactionCount', [ACCOUNT0, 'pending'])).result;
    const chainId = (await rpc('eth_chainId', [])).result;
    expect(Object.keys(result).sort()).toEqual(['raw', 'tx']);
    const tx = result.tx;
    expect(tx).toMatchObject({ type: '0x2', nonce, gas: '0x5208', to: ACCOUNT1, value: '0x1', input: '0x', chainId, from: ACCOUNT0 });
    expect(tx).toMatchObject({ v: '0x0', r: '0x0', s: '0x0', yParity: '0x0', blockHash: null, blockNumber: null, transactionIndex: null });
    expect(BigInt(tx.maxFeePerGas)).toBeGreaterThanOrEqual(BigInt(tx.maxPriorityFeePerGas));
    expect(tx.hash).toBe(keccak256(result.raw));
    // geth's unsigned typed transaction: v, r and s encode as zero (0x80 each).
    expect(result.raw.startsWith('0x02')).toBe(true);
    expect(result.raw.endsWith('c0808080')).toBe(true);
    const parsed = parseTransaction(result.raw as Hex);
    expect(parsed).toMatchObject({ type: 'eip1559', to: ACCOUNT1, value: 1n, gas: 21000n, nonce: Number(nonce), chainId: Number(chainId) });
  });

  it('a filled transaction signed with the sender key is mined as filled', async () => {
    const { result } = await rpc('eth_fillTransaction', [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x7' }]);
    const account = privateKeyToAccount(KEY0);
    const { v: _v, r: _r, s: _s, yParity: _y, ...unsigned } = parseTransaction(result.raw as Hex);
    const signed = await account.signTransaction(unsigned as TransactionSerializable);
    const sent = await rpc('eth_sendRawTransaction', [signed]);
    expect(sent.error).toBeUndefined();
    const receipt = (await rpc('eth_getTransactionReceipt', [sent.result])).result;
    expect(receipt).toMatchObject({ status: '0x1', gasUsed: '0x5208', from: ACCOUNT0, to: ACCOUNT1 });
  });

  it('with gasPrice: a legacy transaction, unsigned with v = r = s = 0 as geth (no EIP-155 payload)', async () => {
    const { result } = await rpc('eth_fillTransaction', [{ from: ACCOUNT1, to: ACCOUNT0, gasPrice: '0x3b9aca00' }]);
    expect(result.tx).toMatchObject({ type: '0x0', gasPrice: '0x3b9aca00', v: '0x0' });
    expect(result.tx.yParity).toBeUndefined();
    expect(result.raw.endsWith('808080')).toBe(true);
  });

  it('fills for any sender; without from, for the zero address (geth), and names a bad field', async () => {
    const stranger = '0x1111111111111111111111111111111111111111';
    const filled = await rpc('eth_fillTransaction', [{ from: stranger, to: ACCOUNT0 }]);
    expect(filled.result.tx).toMatchObject({ from: stranger, nonce: '0x0' });
    const bare = await rpc('eth_fillTransaction', [{ to: ACCOUNT0 }]);
    expect(bare.result.tx.from).toBe('0x0000000000000000000000000000000000000000');
    const bad = await rpc('eth_fillTransaction', [{ from: ACCOUNT0, to: '0x12' }]);
    expect(bad.error?.code).toBe(-32602);
    // Filling changes nothing: the nonce is still the account's.
    expect((await rpc('eth_getTransactionCount', [stranger, 'pending'])).result).toBe('0x0');
  });

  it("viem's local-account write is eth_fillTransaction then eth_sendRawTransaction: two requests", async () => {
    const methods: string[] = [];
    const transport = http(url, {
      onFetchRequest: async (req) => {
        const body = JSON.parse(await req.clone().text());
        for (const m of Array.isArray(body) ? body : [body]) methods.push(m.method);
      },
    });
    const account = privateKeyToAccount(KEY0);
    const chainId = Number((await rpc('eth_chainId', [])).result);
    const chain = { id: chainId, name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } };
    const wallet = createWalletClient({ account, chain, transport });
    const hash = await wallet.sendTransaction({ to: ACCOUNT1, value: 3n });
    expect(methods).toEqual(['eth_fillTransaction', 'eth_sendRawTransaction']);
    const receipt = await createPublicClient({ chain, transport: http(url) }).waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
  });

  it("a request past EIP-7825's gas cap is refused in geth's words (ValidateTransaction's ErrGasLimitTooHigh), not -32603", async () => {
    const gas = '0x1000001';
    for (const method of ['eth_sendTransaction', 'eth_signTransaction', 'eth_fillTransaction']) {
      const { error } = await rpc(method, [{ from: ACCOUNT0, to: ACCOUNT1, gas }]);
      expect(error, method).toEqual({ code: -32000, message: 'transaction gas limit too high (cap: 16777216, tx: 16777217)' });
    }
  });

  it("fills the oracle's tip of the head it fills at: blocks with higher tips move it (the tip is kept per head block)", async () => {
    const fill = async () => BigInt((await rpc('eth_fillTransaction', [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }])).result.tx.maxPriorityFeePerGas);
    const before = await fill();
    expect(before).toBe(BigInt((await rpc('eth_maxPriorityFeePerGas', [])).result));
    expect(await fill()).toBe(before);
    // Automined: each in a block of its own, most of the oracle's samples then pay 50 gwei.
    for (let i = 0; i < 25; i++) {
      const sent = await rpc('eth_sendTransaction', [
        { from: ACCOUNT1, to: ACCOUNT0, value: '0x1', maxPriorityFeePerGas: '0xba43b7400', maxFeePerGas: '0x2540be4000' },
      ]);
      expect(sent.error).toBeUndefined();
    }
    const after = await fill();
    expect(after).toBe(BigInt((await rpc('eth_maxPriorityFeePerGas', [])).result));
    expect(after).toBe(50_000_000_000n);
    expect(after).not.toBe(before);
  });
});
