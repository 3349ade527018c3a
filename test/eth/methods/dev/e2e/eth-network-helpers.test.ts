/**
 * @nomicfoundation/hardhat-network-helpers' JSON-RPC calls, replayed as raw requests in the exact forms the helpers
 * send them (read from their source: `toRpcQuantity` numbers, 32-byte padded storage values, `evm_snapshot` without a
 * `params` member, `hardhat_mine` with and without its interval): takeSnapshot/restore, setBalance, setCode, setNonce,
 * setStorageAt, impersonateAccount, mine, mineUpTo, time.increase/increaseTo/latest, setNextBlockBaseFeePerGas,
 * setCoinbase, setBlockGasLimit, dropTransaction, reset, setPrevRandao.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { post } from '../../../../support/http.js';

const WHALE = '0x00000000000000000000000000000000000000a7';
const RICH = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const TARGET = '0x00000000000000000000000000000000000000b8';

let gw: Gateway;
let url: string;
let nextId = 1;
let seededHead: string;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'] });
  url = gw.url('sepolia');
  seededHead = await request('eth_blockNumber', []);
});
afterAll(() => gw.stop());

/** One request as the helpers' provider sends it; `params` left out when undefined, as `request({ method })` does. */
async function request(method: string, params?: unknown[]): Promise<any> {
  const body: Record<string, unknown> = { jsonrpc: '2.0', id: nextId++, method };
  if (params !== undefined) body.params = params;
  const reply = (await post(url, body)).json;
  if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
  return reply.result;
}
const quantity = (n: bigint | number) => `0x${n.toString(16)}`;
const padded = (n: bigint | number) => `0x${n.toString(16).padStart(64, '0')}`;
const latest = async () => request('eth_getBlockByNumber', ['latest', false]);

describe("hardhat-network-helpers' requests", () => {
  it('takeSnapshot and restore: evm_snapshot without params, evm_revert true, and a fresh snapshot after', async () => {
    const id = await request('evm_snapshot');
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    const head = Number(await request('eth_blockNumber', []));
    await request('hardhat_mine', [quantity(3), quantity(1)]);
    expect(Number(await request('eth_blockNumber', []))).toBe(head + 3);
    expect(await request('evm_revert', [id])).toBe(true);
    expect(Number(await request('eth_blockNumber', []))).toBe(head);
    expect(await request('evm_revert', [id])).toBe(false); // a restored snapshot is gone; the helpers take a new one
    expect(await request('evm_snapshot')).toMatch(/^0x[0-9a-f]+$/);
  });

  it('setBalance, setCode, setNonce and setStorageAt are read back as set', async () => {
    await request('hardhat_setBalance', [TARGET, quantity(10n ** 21n)]);
    await request('hardhat_setCode', [TARGET, '0x6001600155']);
    await request('hardhat_setNonce', [TARGET, quantity(7)]);
    await request('hardhat_setStorageAt', [TARGET, quantity(2), padded(0xbeefn)]);
    expect(BigInt(await request('eth_getBalance', [TARGET, 'latest']))).toBe(10n ** 21n);
    expect(await request('eth_getCode', [TARGET, 'latest'])).toBe('0x6001600155');
    expect(await request('eth_getTransactionCount', [TARGET, 'latest'])).toBe('0x7');
    // getStorageAt sends the index padded to 32 bytes.
    expect(await request('eth_getStorageAt', [TARGET, padded(2), 'latest'])).toBe(padded(0xbeefn));
  });

  it('impersonateAccount: eth_sendTransaction from an address without a key is mined; stopImpersonating refuses it again', async () => {
    await request('hardhat_setBalance', [WHALE, quantity(10n ** 20n)]);
    await request('hardhat_impersonateAccount', [WHALE]);
    const hash = await request('eth_sendTransaction', [{ from: WHALE, to: RICH, value: quantity(12345) }]);
    const receipt = await request('eth_getTransactionReceipt', [hash]);
    expect(receipt).toMatchObject({ status: '0x1', from: WHALE });
    await request('hardhat_stopImpersonatingAccount', [WHALE]);
    await expect(request('eth_sendTransaction', [{ from: WHALE, to: RICH, value: '0x1' }])).rejects.toThrow(/eth_sendTransaction/);
  });

  it('mine with an interval, mineUpTo (hardhat_mine without interval), time.increase / increaseTo / latest', async () => {
    const before = await latest();
    await request('hardhat_mine', [quantity(5), quantity(60)]);
    const after = await latest();
    expect(Number(after.number) - Number(before.number)).toBe(5);
    expect(Number(after.timestamp) - Number(before.timestamp)).toBeGreaterThanOrEqual(4 * 60);
    const upTo = Number(after.number) + 4;
    await request('hardhat_mine', [quantity(upTo - Number(after.number))]);
    expect(Number(await request('eth_blockNumber', []))).toBe(upTo);
    // time.increase(3600): evm_increaseTime, then mine()
    const t0 = Number((await latest()).timestamp);
    await request('evm_increaseTime', [quantity(3600)]);
    await request('hardhat_mine', [quantity(1), quantity(1)]);
    expect(Number((await latest()).timestamp)).toBeGreaterThanOrEqual(t0 + 3600);
    // time.increaseTo(ts): evm_setNextBlockTimestamp, then mine()
    const target = Number((await latest()).timestamp) + 86_400;
    await request('evm_setNextBlockTimestamp', [quantity(target)]);
    await request('hardhat_mine', [quantity(1), quantity(1)]);
    expect(Number((await latest()).timestamp)).toBe(target);
  });

  it('setNextBlockBaseFeePerGas, setCoinbase and setBlockGasLimit shape the next block', async () => {
    await request('hardhat_setNextBlockBaseFeePerGas', [quantity(7_000_000_000n)]);
    await request('hardhat_setCoinbase', [TARGET]);
    await request('evm_setBlockGasLimit', [quantity(25_000_000)]);
    await request('hardhat_mine', [quantity(1), quantity(1)]);
    const block = await latest();
    expect(block).toMatchObject({ baseFeePerGas: quantity(7_000_000_000n), miner: TARGET, gasLimit: quantity(25_000_000) });
  });

  it('dropTransaction answers a boolean; reset with no params goes back to the seeded chain', async () => {
    await request('evm_setAutomine', [false]);
    const hash = await request('eth_sendTransaction', [{ from: RICH, to: TARGET, value: '0x1' }]);
    expect(await request('hardhat_dropTransaction', [hash])).toBe(true);
    expect(await request('hardhat_dropTransaction', [hash])).toBe(false);
    await request('evm_setAutomine', [true]);
    expect(Number(await request('eth_blockNumber', []))).toBeGreaterThan(Number(seededHead));
    await request('hardhat_reset', []);
    expect(await request('eth_getCode', [TARGET, 'latest'])).toBe('0x');
    expect(await request('eth_blockNumber', [])).toBe(seededHead);
  });

  it('setPrevRandao: the next block carries it as mixHash, PREVRANDAO reads it, later blocks carry it on; bad input names the problem', async () => {
    const value = padded(123456789);
    expect(await request('hardhat_setPrevRandao', [value])).toBeNull();
    // The pending block already shows it; a snapshot taken now keeps it until the block is mined.
    expect((await request('eth_getBlockByNumber', ['pending', false])).mixHash).toBe(value);
    const snap = await request('evm_snapshot');
    await request('hardhat_mine', [quantity(1)]);
    expect((await latest()).mixHash).toBe(value);
    // PREVRANDAO (0x44) at latest: code PREVRANDAO PUSH0 MSTORE PUSH1 32 PUSH0 RETURN.
    const read = await request('eth_call', [{ data: '0x445f5260205ff3' }, 'latest']);
    expect(read).toBe(value);
    await request('hardhat_mine', [quantity(1)]);
    expect((await latest()).mixHash).toBe(value);
    // Reverting to the snapshot brings the unmined value back with it.
    expect(await request('evm_revert', [snap])).toBe(true);
    await request('hardhat_mine', [quantity(1)]);
    expect((await latest()).mixHash).toBe(value);
    const short = (await post(url, { jsonrpc: '2.0', id: 1, method: 'hardhat_setPrevRandao', params: ['0x1234'] })).json;
    expect(short.error).toMatchObject({ code: -32602 });
    expect(short.error.message).toContain('32-byte');
  });
});
