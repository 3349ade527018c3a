/**
 * The pool as geth's: its refusals (geth's messages, -32000, nothing left behind), queued-to-pending promotion,
 * replacement by +10% on both fee caps, block order by tip, txpool_* shapes; a blob and a set-code transaction
 * sent and mined on an osaka chain.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { bytesToHex } from '@ethereumjs/util';
import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';

const K5 = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba' as const;
const K6 = '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e' as const;
const TO = '0x00000000000000000000000000000000000000b1' as const;
const chain = { ...sepolia, rpcUrls: { default: { http: [''] } } };
const GWEI = 1_000_000_000n;
const BLOB_TX = 'test/fixtures/eth/blobTx.rlp.gz';

let gw: Gateway;
let url: string;
const a5 = privateKeyToAccount(K5);
const a6 = privateKeyToAccount(K6);

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'], mining: { automine: false } });
  url = gw.url('sepolia');
  await call(url, 'evm_mine'); // the seed's pending transactions
});
afterAll(() => gw.stop());

const nonceOf = async (address: string) => BigInt((await call(url, 'eth_getTransactionCount', [address, 'latest'])).result);
const sign = (account = a5, fields: Record<string, unknown> = {}) =>
  account.signTransaction({
    chainId: 11155111,
    type: 'eip1559',
    to: TO,
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: 100n * GWEI,
    maxPriorityFeePerGas: 2n * GWEI,
    ...fields,
  } as never);
const status = async () => (await call(url, 'txpool_status')).result;

describe('refusals, with geth messages, leaving nothing behind', () => {
  it('each answers -32000 and changes no block and no pool', async () => {
    const nonce = await nonceOf(a5.address);
    const head = (await call(url, 'eth_blockNumber')).result;
    const before = await status();
    const poor = privateKeyToAccount('0x0000000000000000000000000000000000000000000000000000000000000b0b');
    // Signed without a chain id: v is 27 or 28, no EIP-155 replay protection.
    const unprotected = await a6.signTransaction({ type: 'legacy', nonce: 0, gasPrice: 10n * GWEI, gas: 21000n, to: TO, value: 1n });
    const cases: [string, Hex | string, RegExp][] = [
      ['nonce too low', await sign(a5, { nonce: Number(nonce) - 1 }), new RegExp(`^nonce too low: next nonce ${nonce}, tx nonce ${nonce - 1n}$`)],
      ['funds', await sign(poor, { nonce: 0 }), /^insufficient funds for gas \* price \+ value: balance 0, tx cost \d+, overshot \d+$/],
      ['intrinsic', await sign(a5, { nonce: Number(nonce), gas: 20_000n }), /^intrinsic gas too low: gas 20000, minimum needed 21000$/],
      // Fee 0.5 ether: under geth's 1-ether RPC fee cap, which geth checks first.
      [
        'gas cap',
        await sign(a5, { nonce: Number(nonce), gas: 100_000_000n, maxFeePerGas: 5n * GWEI }),
        /^transaction gas limit too high \(cap: 16777216, tx: 100000000\)$/,
      ],
      [
        'base fee',
        await sign(a5, { nonce: Number(nonce), maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
        /^max fee per gas less than block base fee: address 0x[0-9a-f]{40}, maxFeePerGas: 1, baseFee: \d+$/,
      ],
      ['unprotected', unprotected, /^only replay-protected \(EIP-155\) transactions allowed over RPC$/],
      [
        'chain id',
        await a5.signTransaction({ chainId: 1, type: 'eip1559', to: TO, value: 1n, gas: 21_000n, maxFeePerGas: GWEI, maxPriorityFeePerGas: 1n, nonce: 0 }),
        /^invalid sender: invalid chain id for signer: have 1 want 11155111$/,
      ],
      ['type', '0x05c0', /^transaction type not supported$/],
      ['rlp', '0xf8', /^rlp: value size exceeds available input length$/],
      [
        'signature',
        '0x02' + (await sign(a5, { nonce: Number(nonce) })).slice(4, -64) + '00'.repeat(32),
        /^rlp: non-canonical integer \(leading zero bytes\) for \*big\.Int, decoding into \(types\.DynamicFeeTx\)\.S$/,
      ],
    ];
    for (const [what, raw, message] of cases) {
      const r = await call(url, 'eth_sendRawTransaction', [raw]);
      expect(r.error, what).toMatchObject({ code: -32000 });
      expect(r.error.message, what).toMatch(message);
    }
    // Over the block gas limit (below the per-transaction cap).
    expect((await call(url, 'evm_setBlockGasLimit', ['0x7530'])).result).toBe(true);
    expect((await call(url, 'eth_sendRawTransaction', [await sign(a5, { nonce: Number(nonce), gas: 40_000n })])).error.message).toBe('exceeds block gas limit');
    await call(url, 'evm_setBlockGasLimit', [(await call(url, 'eth_getBlockByNumber', ['latest', false])).result.gasLimit]);
    expect((await call(url, 'eth_blockNumber')).result).toBe(head);
    expect(await status()).toEqual(before);
  });
});

describe('pending and queued', () => {
  it('a nonce gap queues; filling it promotes; a replacement needs +10% on both caps; blocks order by tip', async () => {
    const n5 = Number(await nonceOf(a5.address));
    const n6 = Number(await nonceOf(a6.address));
    const later = await sign(a5, { nonce: n5 + 1 });
    expect((await call(url, 'eth_sendRawTransaction', [later])).result).toMatch(/^0x/);
    expect(await status()).toEqual({ pending: '0x0', queued: '0x1' });
    const first = await sign(a5, { nonce: n5 });
    const firstHash = (await call(url, 'eth_sendRawTransaction', [first])).result;
    expect(await status()).toEqual({ pending: '0x2', queued: '0x0' });
    expect((await call(url, 'eth_sendRawTransaction', [first])).error.message).toBe('already known');

    // Replacing the first: +5% is refused, +10% on both caps replaces it.
    const low = await sign(a5, { nonce: n5, maxFeePerGas: 105n * GWEI, maxPriorityFeePerGas: (21n * GWEI) / 10n });
    expect((await call(url, 'eth_sendRawTransaction', [low])).error.message).toBe('replacement transaction underpriced');
    const bumped = await sign(a5, { nonce: n5, maxFeePerGas: 110n * GWEI, maxPriorityFeePerGas: (22n * GWEI) / 10n, value: 2n });
    const bumpedHash = (await call(url, 'eth_sendRawTransaction', [bumped])).result;
    expect((await call(url, 'eth_getTransactionByHash', [firstHash])).result).toBeNull();
    expect(await status()).toEqual({ pending: '0x2', queued: '0x0' });

    // Another sender with a higher tip goes first in the block.
    const rich = await sign(a6, { nonce: n6, maxPriorityFeePerGas: 5n * GWEI });
    const richHash = (await call(url, 'eth_sendRawTransaction', [rich])).result;
    const content = (await call(url, 'txpool_content')).result;
    expect(Object.keys(content.pending)).toEqual(expect.arrayContaining([a5.address, a6.address]));
    expect(content.pending[a5.address][String(n5)]).toMatchObject({ hash: bumpedHash, blockHash: null, nonce: `0x${n5.toString(16)}` });
    const inspect = (await call(url, 'txpool_inspect')).result;
    expect(inspect.pending[a6.address][String(n6)]).toBe(`0x00000000000000000000000000000000000000B1: 1 wei + 21000 gas × ${100n * GWEI} wei`);
    expect((await call(url, 'txpool_contentFrom', [a5.address])).result.pending[String(n5 + 1)]).toMatchObject({ nonce: `0x${(n5 + 1).toString(16)}` });

    await call(url, 'evm_mine');
    const block = (await call(url, 'eth_getBlockByNumber', ['latest', false])).result;
    expect(block.transactions[0]).toBe(richHash);
    expect(block.transactions).toHaveLength(3);
    expect(await status()).toEqual({ pending: '0x0', queued: '0x0' });
  });
});

describe('blob and set-code transactions on osaka', () => {
  it('a blob transaction in its network form and a set-code transaction are sent and mined; --allow-unprotected-txs takes a pre-EIP-155 one', async () => {
    const own = await start({ port: 0, chains: ['chains/sepolia.json'], allowUnprotectedTxs: true });
    try {
      const u = own.url('sepolia');
      // Signed once by test/fixtures/eth/makeBlobTx.ts: its cell proofs take ~11 s of CPU to compute in pure JS.
      const blob = gunzipSync(readFileSync(BLOB_TX));
      const sent = await call(u, 'eth_sendRawTransaction', [bytesToHex(blob)]);
      expect(sent.error, 'a nonce error: the seed changed, run test/fixtures/eth/makeBlobTx.ts again').toBeUndefined();
      const receipt = (await call(u, 'eth_getTransactionReceipt', [sent.result])).result;
      expect(receipt).toMatchObject({ status: '0x1', type: '0x3', blobGasUsed: '0x20000' });

      const wallet = createWalletClient({ account: a6, chain, transport: http(u) });
      const client = createPublicClient({ chain, transport: http(u) });
      const authorization = await wallet.signAuthorization({ contractAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3', executor: 'self' });
      // eth_estimateGas counts the authorization (25,000 per authority, as geth): viem's estimate is enough.
      const estimate = await client.estimateGas({ account: a6, authorizationList: [authorization], to: TO, data: '0x' });
      expect(estimate).toBeGreaterThan(40_000n);
      const hash = await wallet.sendTransaction({ authorizationList: [authorization], to: TO, data: '0x' });
      expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
      expect((await client.getTransaction({ hash })).type).toBe('eip7702');
      expect(await client.getCode({ address: a6.address })).toBe('0xef01005fbdb2315678afecb367f032d93f642f64180aa3');
      const k7 = privateKeyToAccount('0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356');
      const k7nonce = Number((await call(u, 'eth_getTransactionCount', [k7.address, 'pending'])).result);
      const unprotected = await k7.signTransaction({ type: 'legacy', nonce: k7nonce, gasPrice: 10n * GWEI, gas: 21000n, to: TO, value: 1n });
      const accepted = await call(u, 'eth_sendRawTransaction', [unprotected]);
      expect(accepted.error).toBeUndefined();
      expect((await call(u, 'eth_getTransactionReceipt', [accepted.result])).result.status).toBe('0x1');
    } finally {
      await own.stop();
    }
  });
});
