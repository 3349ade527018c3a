/**
 * State and block overrides of eth_call, eth_estimateGas and eth_createAccessList (geth's internal/ethapi/override):
 * each field seen by the EVM, geth's error messages, and the chain left unchanged. Raw JSON-RPC, viem and ethers.
 */
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call, result } from '../../../support/http.js';
import { ACCOUNT0, STORAGE_LAYOUT, readSurfaceSeed, UNLIMITED } from '../../methods/seed.js';

/** Returns SELFBALANCE as one word. */
const SELF_BALANCE = '0x4760005260206000f3';
/** Returns slots 0 and 1 as two words. */
const TWO_SLOTS = '0x60005460005260015460205260406000f3';
/** Returns NUMBER, TIMESTAMP, COINBASE, GASLIMIT, PREVRANDAO, BASEFEE, BLOBBASEFEE as 7 words. */
const HEADER_FIELDS = '0x43600052426020524160405245606052446080524860a0524a60c05260e06000f3';
const TARGET = '0x00000000000000000000000000000000000000c1';
const MOVED = '0x00000000000000000000000000000000000000c2';
const POOR = '0x00000000000000000000000000000000000000d1';

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const slot = (n: number) => '0x' + word(n);

let gw: Gateway;
let url: string;
const rpc = (method: string, params: unknown[]) => result(url, method, params);
const rpcError = async (method: string, params: unknown[]) => (await call(url, method, params)).error;

beforeAll(async () => {
  gw = await start({ port: 0, chains: [readSurfaceSeed()], keys: UNLIMITED });
  url = gw.url('dev');
});
afterAll(() => gw?.stop());

describe('state override on eth_call', () => {
  it('balance, nonce and code are what the call sees; the chain keeps its own', async () => {
    const before = await rpc('eth_getBlockByNumber', ['latest', false]);
    const out = await rpc('eth_call', [{ to: TARGET }, 'latest', { [TARGET]: { code: SELF_BALANCE, balance: '0x1234', nonce: '0x7' } }]);
    expect(out).toBe('0x' + word(0x1234));
    // Nothing stays: no code, no balance, same head and state root.
    expect(await rpc('eth_call', [{ to: TARGET }, 'latest'])).toBe('0x');
    expect(await rpc('eth_getBalance', [TARGET, 'latest'])).toBe('0x0');
    expect(await rpc('eth_getTransactionCount', [TARGET, 'latest'])).toBe('0x0');
    const after = await rpc('eth_getBlockByNumber', ['latest', false]);
    expect(after.hash).toBe(before.hash);
    expect(after.stateRoot).toBe(before.stateRoot);
  });

  it('state replaces the whole storage, stateDiff only the slots given', async () => {
    // An existing contract with storage: its own slots 0 and 1, read through TWO_SLOTS put in its place.
    const own0 = await rpc('eth_getStorageAt', [STORAGE_LAYOUT, '0x0', 'latest']);
    const own1 = await rpc('eth_getStorageAt', [STORAGE_LAYOUT, '0x1', 'latest']);
    const viaCode = await rpc('eth_call', [{ to: STORAGE_LAYOUT }, 'latest', { [STORAGE_LAYOUT]: { code: TWO_SLOTS } }]);
    expect(viaCode).toBe('0x' + own0.slice(2) + own1.slice(2));
    expect(BigInt(own0) + BigInt(own1)).not.toBe(0n);
    const diff = await rpc('eth_call', [{ to: STORAGE_LAYOUT }, 'latest', { [STORAGE_LAYOUT]: { code: TWO_SLOTS, stateDiff: { [slot(1)]: slot(0xabc) } } }]);
    expect(diff).toBe('0x' + own0.slice(2) + word(0xabc));
    const state = await rpc('eth_call', [{ to: STORAGE_LAYOUT }, 'latest', { [STORAGE_LAYOUT]: { code: TWO_SLOTS, state: { [slot(1)]: slot(0xabc) } } }]);
    expect(state).toBe('0x' + word(0) + word(0xabc));
    // The storage itself is untouched.
    expect(await rpc('eth_getStorageAt', [STORAGE_LAYOUT, '0x0', 'latest'])).toBe(own0);
  });

  it('movePrecompileToAddress moves the identity precompile; its old address runs the (empty) code', async () => {
    const data = '0x1234abcd';
    expect(await rpc('eth_call', [{ to: '0x0000000000000000000000000000000000000004', data }, 'latest'])).toBe(data);
    const moved = { '0x0000000000000000000000000000000000000004': { movePrecompileToAddress: MOVED } };
    expect(await rpc('eth_call', [{ to: MOVED, data }, 'latest', moved])).toBe(data);
    expect(await rpc('eth_call', [{ to: '0x0000000000000000000000000000000000000004', data }, 'latest', moved])).toBe('0x');
    // And back in place for the next call.
    expect(await rpc('eth_call', [{ to: MOVED, data }, 'latest'])).toBe('0x');
    expect(await rpc('eth_call', [{ to: '0x0000000000000000000000000000000000000004', data }, 'latest'])).toBe(data);
  });

  it("answers geth's errors (-32000) for impossible overrides", async () => {
    expect(await rpcError('eth_call', [{ to: TARGET }, 'latest', { [TARGET]: { state: {}, stateDiff: {} } }])).toEqual({
      code: -32000,
      message: "account 0x00000000000000000000000000000000000000C1 has both 'state' and 'stateDiff'",
    });
    expect(await rpcError('eth_call', [{ to: TARGET }, 'latest', { [TARGET]: { movePrecompileToAddress: MOVED } }])).toEqual({
      code: -32000,
      message: 'account 0x00000000000000000000000000000000000000C1 is not a precompile',
    });
    const both = { '0x0000000000000000000000000000000000000004': { movePrecompileToAddress: MOVED }, [MOVED]: { balance: '0x1' } };
    expect((await rpcError('eth_call', [{ to: TARGET }, 'latest', both])).message).toBe(
      'account 0x00000000000000000000000000000000000000c2 is already overridden',
    );
    expect(await rpcError('eth_call', [{ to: TARGET }, 'latest', {}, { beaconRoot: slot(1) }])).toEqual({
      code: -32000,
      message: 'block override "beaconRoot" is not supported for this RPC method',
    });
    expect((await rpcError('eth_call', [{ to: TARGET }, 'latest', { [TARGET]: { balance: '0x' } }])).code).toBe(-32602);
  });
});

describe('block override on eth_call', () => {
  it('number, time, feeRecipient, gasLimit, prevRandao, baseFeePerGas and blobBaseFee are what the EVM reads', async () => {
    const overrides = {
      number: '0x1000',
      time: '0x2000',
      feeRecipient: MOVED,
      gasLimit: '0x3000000',
      prevRandao: slot(0x77),
      baseFeePerGas: '0x9',
      blobBaseFee: '0x5',
    };
    // Priced (maxFeePerGas): BASEFEE reads the override; unpriced it reads 0 (geth's NoBaseFee).
    const priced = await rpc('eth_call', [{ to: TARGET, maxFeePerGas: '0x10' }, 'latest', { [TARGET]: { code: HEADER_FIELDS } }, overrides]);
    expect(priced).toBe('0x' + [word(0x1000), word(0x2000), word(BigInt(MOVED)), word(0x3000000), word(0x77), word(9), word(5)].join(''));
    const unpriced = await rpc('eth_call', [{ to: TARGET }, 'latest', { [TARGET]: { code: HEADER_FIELDS } }, overrides]);
    expect(unpriced.slice(2 + 64 * 5, 2 + 64 * 6)).toBe(word(0));
  });
});

describe('block override past head', () => {
  it('BLOCKHASH of a block the chain does not have reads zero, as geth (no error)', async () => {
    // BLOCKHASH(NUMBER - 1) under a number far past head.
    const code = '0x600143034060005260206000f3';
    expect(await rpc('eth_call', [{ to: TARGET }, 'latest', { [TARGET]: { code } }, { number: '0x100000' }])).toBe('0x' + word(0));
  });

  it("BLOCKHASH reads from the real block down (geth's GetHashFn of the real header): numbers at or past it read zero even where the chain has them, with no n+1 rule (that one is TraceCall's)", async () => {
    const head = BigInt((await rpc('eth_getBlockByNumber', ['latest', false])).number);
    expect(head).toBeGreaterThan(3n);
    const at = `0x${(head - 2n).toString(16)}`;
    /** BLOCKHASH(n) as one word. */
    const hashOf = (n: bigint) => `0x7f${word(n)}405f5260205ff3`;
    const callAt = (n: bigint, number: string) => rpc('eth_call', [{ to: TARGET }, at, { [TARGET]: { code: hashOf(n) } }, { number }]);
    const real = async (n: bigint) => (await rpc('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash;
    const numberPlus = (k: bigint) => `0x${(head - 2n + k).toString(16)}`;
    // The chain has blocks head-2 and head-1, but from block head-2 (number moved to head+1) they read zero, as in geth.
    expect(await callAt(head - 1n, numberPlus(3n))).toBe('0x' + word(0));
    expect(await callAt(head - 2n, numberPlus(3n))).toBe('0x' + word(0));
    // Below the real block they are the chain's.
    expect(await callAt(head - 3n, numberPlus(3n))).toBe(await real(head - 3n));
    // The number moved to the block's own + 1: BLOCKHASH of the block itself still reads zero in eth_call.
    expect(await callAt(head - 2n, numberPlus(1n))).toBe('0x' + word(0));
    // Without a number override BLOCKHASH(block - 1) is the chain's.
    expect(await rpc('eth_call', [{ to: TARGET }, at, { [TARGET]: { code: hashOf(head - 3n) } }])).toBe(await real(head - 3n));
  });
});

describe('eth_estimateGas and eth_createAccessList', () => {
  it('eth_estimateGas sees a balance override (and its absence fails)', async () => {
    const tx = { from: POOR, to: TARGET, value: '0xde0b6b3a7640000' };
    expect((await rpcError('eth_estimateGas', [tx, 'latest'])).message).toMatch(/insufficient funds/);
    expect(await rpc('eth_estimateGas', [tx, 'latest', { [POOR]: { balance: '0x1bc16d674ec80000' } }])).toBe('0x5208');
  });

  it('eth_estimateGas runs overridden code under a block override', async () => {
    // Reverts unless NUMBER == 0x1000: NUMBER PUSH2 0x1000 EQ PUSH1 0x0d JUMPI PUSH1 0 PUSH1 0 REVERT JUMPDEST STOP
    const code = '0x4361100014600d5760006000fd5b00';
    const o = { [TARGET]: { code } };
    expect((await rpcError('eth_estimateGas', [{ to: TARGET }, 'latest', o])).code).toBe(3);
    expect(BigInt(await rpc('eth_estimateGas', [{ to: TARGET }, 'latest', o, { number: '0x1000' }]))).toBeGreaterThan(21_000n);
  });

  it('eth_createAccessList lists the slots of overridden code; a precompile move is refused there (as geth)', async () => {
    const res = await rpc('eth_createAccessList', [{ from: ACCOUNT0, to: TARGET }, 'latest', { [TARGET]: { code: TWO_SLOTS } }]);
    expect(res.accessList).toEqual([{ address: TARGET, storageKeys: [slot(0), slot(1)] }]);
    const err = await rpcError('eth_createAccessList', [
      { from: ACCOUNT0, to: TARGET },
      'latest',
      { '0x0000000000000000000000000000000000000004': { movePrecompileToAddress: MOVED } },
    ]);
    expect(err).toEqual({ code: -32000, message: 'account 0x0000000000000000000000000000000000000004 is not a precompile' });
  });
});

describe('unchanged real clients', () => {
  it('viem call({ stateOverride, blockOverrides })', async () => {
    const client = createPublicClient({ transport: http(url) }) as PublicClient;
    const { data } = await client.call({ to: TARGET, stateOverride: [{ address: TARGET, code: SELF_BALANCE, balance: 99n }] });
    expect(data).toBe('0x' + word(99));
    const fields = await client.call({ to: TARGET, stateOverride: [{ address: TARGET, code: HEADER_FIELDS }], blockOverrides: { number: 0x4242n } });
    expect(fields.data!.slice(2, 66)).toBe(word(0x4242));
  });

  it('ethers provider.send with a state override', async () => {
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true });
    try {
      expect(await provider.send('eth_call', [{ to: TARGET }, 'latest', { [TARGET]: { code: SELF_BALANCE, balance: '0x2a' } }])).toBe('0x' + word(42));
    } finally {
      provider.destroy();
    }
  });
});

describe('eth_call with an authorizationList (type-4 call)', () => {
  it('runs the authority with the delegated code, as geth applies the authorizations; the chain keeps none', async () => {
    const { privateKeyToAccount, generatePrivateKey } = await import('viem/accounts');
    const authority = privateKeyToAccount(generatePrivateKey());
    const chainId = Number(await rpc('eth_chainId', []));
    const auth = await authority.signAuthorization({ address: TARGET, chainId, nonce: 0 });
    const q = (n: bigint | number) => '0x' + BigInt(n).toString(16);
    const authorizationList = [
      { chainId: q(auth.chainId), address: auth.address, nonce: q(auth.nonce), yParity: q(auth.yParity ?? 0), r: q(BigInt(auth.r)), s: q(BigInt(auth.s)) },
    ];
    // TARGET's code returns ADDRESS: run through the delegation, that is the authority's address.
    const code = { [TARGET]: { code: '0x3060005260206000f3' } };
    const out = await rpc('eth_call', [{ from: ACCOUNT0, to: authority.address, authorizationList }, 'latest', code]);
    expect(out).toBe('0x' + authority.address.slice(2).toLowerCase().padStart(64, '0'));
    // Without the list the authority is a plain account; and nothing was delegated on the chain.
    expect(await rpc('eth_call', [{ from: ACCOUNT0, to: authority.address }, 'latest', code])).toBe('0x');
    expect(await rpc('eth_getCode', [authority.address, 'latest'])).toBe('0x');
    expect(await rpcError('eth_call', [{ from: ACCOUNT0, to: authority.address, authorizationList: [] }, 'latest'])).toEqual({
      code: -32000,
      message: 'EIP-7702 transaction with empty auth list',
    });
  });
});
