/**
 * eth_sendRawTransaction refusals and eth_call errors worded exactly as go-ethereum words them (issue 28), on an osaka chain with chain
 * id 1337. Each case names the go-ethereum function whose text it holds devgate to (go-ethereum master of
 * 2026-08-20): no @ethereumjs text (or JavaScript source) reaches a client.
 */
import { concat, keccak256, toHex, toRlp, type Hex } from 'viem';
import { privateKeyToAccount, sign } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../src/index.js';
import { call } from '../../../support/http.js';
import { UNLIMITED } from '../seed.js';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const dev0 = privateKeyToAccount(KEY);
const TO = '0x00000000000000000000000000000000000000b1' as const;
const GWEI = 1_000_000_000n;

let gw: Gateway;
let url: string;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [{ name: 'dev', kind: 'eth', chainId: 1337, hardfork: 'osaka' }], keys: UNLIMITED });
  url = gw.url('dev');
});
afterAll(() => gw?.stop());

const q = (n: bigint | number): Hex => (BigInt(n) === 0n ? '0x' : toHex(BigInt(n)));

/** A typed transaction from its RLP fields (before the signature), signed by dev0; `sig` replaces the signature's values. */
async function signedTyped(type: number, fields: (Hex | Hex[] | Hex[][])[], sig?: { yParity?: Hex; r?: Hex; s?: Hex }): Promise<Hex> {
  const prefix = toHex(type, { size: 1 });
  const signature = await sign({ hash: keccak256(concat([prefix, toRlp(fields as never)])), privateKey: KEY });
  const yParity = sig?.yParity ?? q(signature.yParity!);
  return concat([prefix, toRlp([...fields, yParity, sig?.r ?? signature.r, sig?.s ?? signature.s] as never)]);
}

/** A dynamic fee transaction's fields (chain id, nonce, tip, fee cap, gas, to, value, data, access list). */
const dynamicFee = (over: { chainId?: bigint; tip?: bigint; feeCap?: bigint; to?: Hex; data?: Hex; gas?: bigint } = {}): Hex[] | (Hex | Hex[])[] => [
  q(over.chainId ?? 1337n),
  q(0),
  q(over.tip ?? GWEI),
  q(over.feeCap ?? 10n * GWEI),
  q(over.gas ?? 21_000n),
  over.to ?? TO,
  q(0),
  over.data ?? '0x',
  [],
];

async function refusal(raw: unknown): Promise<{ code: number; message: string }> {
  const r = await call(url, 'eth_sendRawTransaction', [raw]);
  expect(r.result, JSON.stringify(r)).toBeUndefined();
  return r.error;
}

describe('refusals with geth texts', () => {
  it("tip above fee cap: core.ErrTipAboveFeeCap (txpool.ValidateTransaction), not @ethereumjs's", async () => {
    const raw = await signedTyped(2, dynamicFee({ tip: 5n * GWEI, feeCap: 2n * GWEI }));
    expect(await refusal(raw)).toEqual({ code: -32000, message: 'max priority fee per gas higher than max fee per gas' });
  });

  it('a chain id the chain does not have: types.modernSigner.Sender / EIP155Signer.Sender (ErrInvalidChainId) under txpool.ErrInvalidSender', async () => {
    const typed = await dev0.signTransaction({
      chainId: 1,
      type: 'eip1559',
      to: TO,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: GWEI,
      maxPriorityFeePerGas: 1n,
      nonce: 0,
    });
    expect(await refusal(typed)).toEqual({ code: -32000, message: 'invalid sender: invalid chain id for signer: have 1 want 1337' });
    const legacy = await dev0.signTransaction({ chainId: 1, type: 'legacy', to: TO, value: 1n, gas: 21_000n, gasPrice: GWEI, nonce: 0 });
    expect(await refusal(legacy)).toEqual({ code: -32000, message: 'invalid sender: invalid chain id for signer: have 1 want 1337' });
  });

  it('init code over 49,152 bytes: vm.CheckMaxInitCodeSize (ErrMaxInitCodeSizeExceeded)', async () => {
    const raw = await signedTyped(2, dynamicFee({ to: '0x', data: toHex(new Uint8Array(49_153)), gas: 10_000_000n }));
    expect(await refusal(raw)).toEqual({ code: -32000, message: 'max initcode size exceeded: code size 49153 limit 49152' });
  });

  it('a set-code transaction without authorizations: txpool.ValidateTransaction', async () => {
    const raw = await signedTyped(4, [...(dynamicFee({ gas: 100_000n }) as Hex[]), [] as never]);
    expect(await refusal(raw)).toEqual({ code: -32000, message: 'set code tx must have at least one authorization tuple' });
  });

  it('signature values out of range: types.recoverPlain (ErrInvalidSig) under txpool.ErrInvalidSender', async () => {
    const zeroS = await signedTyped(2, dynamicFee(), { s: '0x' });
    expect(await refusal(zeroS)).toEqual({ code: -32000, message: 'invalid sender: invalid transaction v, r, s values' });
    const highS = await signedTyped(2, dynamicFee(), { s: toHex(0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140n) });
    expect(await refusal(highS)).toEqual({ code: -32000, message: 'invalid sender: invalid transaction v, r, s values' });
    const badV = await signedTyped(2, dynamicFee(), { yParity: '0x02' });
    expect(await refusal(badV)).toEqual({ code: -32000, message: 'invalid sender: invalid transaction v, r, s values' });
  });

  it("malformed bytes: Transaction.UnmarshalBinary / decodeTyped and the rlp package's struct decoder", async () => {
    const good = await signedTyped(2, dynamicFee());
    const cases: [string, string][] = [
      ['0x', 'typed transaction too short'],
      ['0x02', 'typed transaction too short'],
      ['0x05c0', 'transaction type not supported'],
      ['0x02c0', 'rlp: too few elements for types.DynamicFeeTx'],
      ['0x01c0', 'rlp: too few elements for types.AccessListTx'],
      ['0xc0', 'rlp: too few elements for types.LegacyTx'],
      ['0x0280', 'rlp: expected input list for types.DynamicFeeTx'],
      ['0xf8', 'rlp: value size exceeds available input length'],
      [`${good}00`, 'rlp: input contains more than one value'],
      ['0x02c3010203', 'rlp: too few elements for types.DynamicFeeTx'],
      ['0x02c20100', 'rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.DynamicFeeTx).Nonce'],
      ['0x02c3018105', 'rlp: non-canonical size information for uint64, decoding into (types.DynamicFeeTx).Nonce'],
      ['0x02c201c0', 'rlp: expected input string or byte for uint64, decoding into (types.DynamicFeeTx).Nonce'],
      ['0x02c4c0820100', 'rlp: expected input string or byte for *big.Int, decoding into (types.DynamicFeeTx).ChainID'],
    ];
    const tooMany = toRlp([...(dynamicFee() as Hex[]), '0x01', '0x01', '0x01', '0x01'] as never);
    cases.push([concat(['0x02', tooMany]), 'rlp: input list has too many elements for types.DynamicFeeTx']);
    for (const [raw, message] of cases) expect(await refusal(raw), raw.slice(0, 20)).toEqual({ code: -32000, message });
  });

  it("bad hex: hexutil.Bytes.UnmarshalJSON's json texts, -32602", async () => {
    const cases: [unknown, string][] = [
      ['0xzz', 'invalid hex string'],
      ['0x0', 'hex string of odd length'],
      ['02c0', 'hex string without 0x prefix'],
      [5, 'non-string'],
    ];
    for (const [raw, what] of cases) {
      expect(await refusal(raw)).toEqual({ code: -32602, message: `invalid argument 0: json: cannot unmarshal ${what} into Go value of type hexutil.Bytes` });
    }
  });

  it('a type the fork does not have yet: txpool.ValidateTransaction (core.ErrTxTypeNotSupported)', async () => {
    const berlin = await start({ port: 0, chains: [{ name: 'old', kind: 'eth', chainId: 1337, hardfork: 'berlin' }], keys: UNLIMITED });
    try {
      const raw = await signedTyped(2, dynamicFee());
      const r = await call(berlin.url('old'), 'eth_sendRawTransaction', [raw]);
      expect(r.error).toEqual({ code: -32000, message: 'transaction type not supported: type 2 rejected, pool not yet in London' });
      const setCode = await signedTyped(4, [...(dynamicFee({ gas: 100_000n }) as Hex[]), [] as never]);
      const r4 = await call(berlin.url('old'), 'eth_sendRawTransaction', [setCode]);
      expect(r4.error).toEqual({ code: -32000, message: 'transaction type not supported: type 4 rejected, pool not yet in Prague' });
    } finally {
      await berlin.stop();
    }
  });

  it('a well-formed transaction still goes through', async () => {
    const raw = await dev0.signTransaction({
      chainId: 1337,
      type: 'eip1559',
      to: TO,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 10n * GWEI,
      maxPriorityFeePerGas: GWEI,
      nonce: 0,
    });
    expect((await call(url, 'eth_sendRawTransaction', [raw])).result).toBe(keccak256(raw));
  });
});

describe('eth_call texts', () => {
  const callError = async (req: Record<string, unknown>) => (await call(url, 'eth_call', [req, 'latest'])).error;

  it("BLAKE2F with a wrong input: blake2F.Run's errBlake2FInvalidInputLength / errBlake2FInvalidFinalFlag (core/vm/contracts.go)", async () => {
    expect(await callError({ to: '0x0000000000000000000000000000000000000009', data: '0x00' })).toEqual({ code: -32000, message: 'invalid input length' });
    const badFlag = concat([toHex(new Uint8Array(212)), '0x02']);
    expect(await callError({ to: '0x0000000000000000000000000000000000000009', data: badFlag })).toEqual({ code: -32000, message: 'invalid final flag' });
  });

  it("MODEXP with a 1,025-byte base (osaka, EIP-7823): bigModExp.Run's size cap text, not out of gas", async () => {
    const data = concat([toHex(1025n, { size: 32 }), toHex(1n, { size: 32 }), toHex(1n, { size: 32 }), toHex(new Uint8Array(1025).fill(7)), '0x03', '0x05']);
    expect(await callError({ to: '0x0000000000000000000000000000000000000005', data })).toEqual({
      code: -32000,
      message: 'one or more of base/exponent/modulus length exceeded 1024 bytes',
    });
  });

  it("insufficient funds names the address checksummed: StateTransition.buyGas's From.Hex()", async () => {
    const poor = '0x000000000000000000000000000000000000beef';
    expect(await callError({ from: poor, to: TO, value: '0x1' })).toEqual({
      code: -32000,
      message: 'insufficient funds for gas * price + value: address 0x000000000000000000000000000000000000bEEF have 0 want 1',
    });
  });
});

describe("the RPC fee cap: geth's --rpc.txfeecap (internal/ethapi/api.go checkTxFee), 1 ether by default", () => {
  // 40,000 gas at 50,000 gwei: a 2-ether fee.
  const costly = { chainId: 1337, type: 'eip1559', to: TO, value: 1n, gas: 40_000n, maxFeePerGas: 50_000n * GWEI, maxPriorityFeePerGas: GWEI } as const;
  const refusal2 = { code: -32000, message: 'tx fee (2.00 ether) exceeds the configured cap (1.00 ether)' };

  it('refuses a 2-ether fee on eth_sendRawTransaction (before the pool: even with gas over the EIP-7825 cap), eth_sendTransaction and eth_signTransaction; leaves nothing behind', async () => {
    const nonce = Number((await call(url, 'eth_getTransactionCount', [dev0.address, 'pending'])).result);
    const before = (await call(url, 'txpool_status')).result;
    const head = (await call(url, 'eth_blockNumber')).result;
    expect(await refusal(await dev0.signTransaction({ ...costly, nonce }))).toEqual(refusal2);
    const overGas = await dev0.signTransaction({ ...costly, nonce, gas: 20_000_000n, maxFeePerGas: 100n * GWEI });
    expect(await refusal(overGas)).toEqual({ code: -32000, message: 'tx fee (2.00 ether) exceeds the configured cap (1.00 ether)' });
    const req = { from: dev0.address, to: TO, value: '0x1', gas: toHex(40_000n), maxFeePerGas: toHex(50_000n * GWEI), maxPriorityFeePerGas: toHex(GWEI) };
    expect((await call(url, 'eth_sendTransaction', [req])).error).toEqual(refusal2);
    expect((await call(url, 'eth_signTransaction', [req])).error).toEqual(refusal2);
    expect((await call(url, 'eth_blockNumber')).result).toBe(head);
    expect((await call(url, 'txpool_status')).result).toEqual(before);
    // Exactly 1 ether is not over the cap.
    const oneEther = await dev0.signTransaction({ ...costly, nonce, gas: 25_000n, maxFeePerGas: 40_000n * GWEI });
    expect(await call(url, 'eth_sendRawTransaction', [oneEther])).toMatchObject({ result: keccak256(oneEther) });
  });

  it('start({ txFeeCap }) sets it (0.5 ether), and 0 turns it off', async () => {
    const half = await start({ port: 0, chains: [{ name: 'dev', kind: 'eth', chainId: 1337, hardfork: 'osaka' }], keys: UNLIMITED, txFeeCap: 0.5 });
    const off = await start({ port: 0, chains: [{ name: 'dev', kind: 'eth', chainId: 1337, hardfork: 'osaka' }], keys: UNLIMITED, txFeeCap: 0 });
    try {
      const raw = await dev0.signTransaction({ ...costly, nonce: 0 });
      expect((await call(half.url('dev'), 'eth_sendRawTransaction', [raw])).error).toEqual({
        code: -32000,
        message: 'tx fee (2.00 ether) exceeds the configured cap (0.50 ether)',
      });
      expect((await call(off.url('dev'), 'eth_sendRawTransaction', [raw])).result).toBe(keccak256(raw));
    } finally {
      await Promise.all([half.stop(), off.stop()]);
    }
  });
});

describe("a queued transaction unlocked by a set-code authorization: geth's miner takes only pending ones (miner/worker.go fillTransactions)", () => {
  it('the block takes the set-code transaction; the authority own transaction (nonce 1) waits for the next block', async () => {
    const own = await start({
      port: 0,
      chains: [{ name: 'dev', kind: 'eth', chainId: 1337, hardfork: 'osaka' }],
      keys: UNLIMITED,
      mining: { automine: false },
    });
    try {
      const u = own.url('dev');
      const auth3 = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
      const authorization = await auth3.signAuthorization({ contractAddress: '0x00000000000000000000000000000000000000c0', chainId: 1337, nonce: 0 });
      const fees = { chainId: 1337, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI } as const;
      const setCode = await dev0.signTransaction({ ...fees, type: 'eip7702', authorizationList: [authorization], to: TO, gas: 100_000n, nonce: 0 });
      const own1 = await auth3.signTransaction({ ...fees, type: 'eip1559', to: TO, value: 1n, gas: 21_000n, nonce: 1 });
      expect(await call(u, 'eth_sendRawTransaction', [setCode])).toMatchObject({ result: keccak256(setCode) });
      expect(await call(u, 'eth_sendRawTransaction', [own1])).toMatchObject({ result: keccak256(own1) });
      expect((await call(u, 'txpool_status')).result).toEqual({ pending: '0x1', queued: '0x1' });
      await call(u, 'evm_mine');
      const first = (await call(u, 'eth_getBlockByNumber', ['latest', false])).result;
      expect(first.transactions).toEqual([keccak256(setCode)]);
      expect((await call(u, 'eth_getTransactionCount', [auth3.address, 'latest'])).result).toBe('0x1');
      expect((await call(u, 'txpool_status')).result).toEqual({ pending: '0x1', queued: '0x0' });
      await call(u, 'evm_mine');
      expect((await call(u, 'eth_getBlockByNumber', ['latest', false])).result.transactions).toEqual([keccak256(own1)]);
    } finally {
      await own.stop();
    }
  });
});

describe('system contracts with other code: geth runs it (core/state_processor.go ProcessBeaconBlockRoot, ProcessParentBlockHash)', () => {
  it('STOP at the EIP-4788 address stores no beacon root; code at the EIP-2935 address runs with the parent hash as its input', async () => {
    const BEACON = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
    const HISTORY = '0x0000f90827f1c53a10cb7a02335b175320002935';
    // PUSH1 0 CALLDATALOAD PUSH1 7 SSTORE STOP: the input word into slot 7.
    const alloc = { [BEACON]: { code: '0x00' }, [HISTORY]: { code: '0x60003560075500' } };
    const own = await start({ port: 0, chains: [{ name: 'dev', kind: 'eth', chainId: 1337, hardfork: 'osaka', alloc }], keys: UNLIMITED });
    try {
      const u = own.url('dev');
      await call(u, 'evm_mine');
      const genesis = (await call(u, 'eth_getBlockByNumber', ['0x0', false])).result;
      const block = (await call(u, 'eth_getBlockByNumber', ['0x1', false])).result;
      const slot = (n: bigint) => toHex(n, { size: 32 });
      const at = async (address: string, n: bigint) => (await call(u, 'eth_getStorageAt', [address, slot(n), '0x1'])).result;
      const index = BigInt(block.timestamp) % 8191n;
      expect(await at(BEACON, index)).toBe(slot(0n));
      expect(await at(BEACON, index + 8191n)).toBe(slot(0n));
      expect(await at(HISTORY, 0n)).toBe(slot(0n));
      expect(await at(HISTORY, 7n)).toBe(genesis.hash);
    } finally {
      await own.stop();
    }
  });
});
