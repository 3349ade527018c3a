/**
 * Otterscan and parity traces against a started gateway (issue 27): the ots_ calls Otterscan makes, with its exact
 * param shapes (JSON numbers for block numbers, nonces and page sizes), and trace_transaction / trace_block /
 * trace_call, on a chain with a transfer, a contract creation, an internal transfer, a factory creation, a
 * self-destruct and a revert. The figures compared are anvil's answers on the same transactions (anvil 1.x, the same
 * bytecode and calldata): gas, gasUsed, traceAddress, subtraces and error words. Each of these methods answered
 * -32601 before.
 */
import { keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Gateway } from '../../../../../src/index.js';
import { UNLIMITED } from '../../../methods/seed.js';
import { call, result } from '../../../../support/http.js';
import { OTTER, OTTER_BYTECODE } from './otterFixture.js';
import { readFileSync } from 'node:fs';

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const A1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const pad = (a: string) => a.slice(2).padStart(64, '0');

let gw: Gateway;
let url: string;
let otter: string;
const tx: Record<'t1' | 'deploy' | 'pay' | 'make' | 'kill' | 'fail', string> = {} as never;

const send = (fields: Record<string, string>) => result(url, 'eth_sendTransaction', [{ from: A0, gas: '0x100000', ...fields }]);

beforeAll(async () => {
  gw = await start({
    port: 0,
    chains: [{ name: 'otter', kind: 'eth', chainId: 31337, hardfork: 'prague', genesis: { timestamp: '0x6553f100', gasLimit: '0x1c9c380' } }],
    keys: UNLIMITED,
  } as never);
  url = gw.url('otter');
  tx.t1 = await send({ to: A1, value: '0xde0b6b3a7640000', gas: '0x5208' });
  tx.deploy = await send({ data: OTTER_BYTECODE, gas: '0x200000' });
  otter = (await result(url, 'eth_getTransactionReceipt', [tx.deploy])).contractAddress;
  tx.pay = await send({ to: otter, data: OTTER.pay + pad(A1), value: '0x64' });
  tx.make = await send({ to: otter, data: OTTER.make, value: '0x5' });
  tx.kill = await send({ to: otter, data: OTTER.makeAndKill + pad(A1), value: '0x7' });
  tx.fail = await send({ to: otter, data: OTTER.fail });
});

afterAll(async () => {
  await gw?.stop();
});

const strip = (traces: any[]) => traces.map(({ blockHash, transactionHash, ...t }) => t);

describe('parity traces', () => {
  it('trace_transaction: a call with an internal transfer, as anvil counts its gas', async () => {
    const traces = await result(url, 'trace_transaction', [tx.pay]);
    const receipt = await result(url, 'eth_getTransactionReceipt', [tx.pay]);
    expect(traces).toHaveLength(2);
    expect(traces[0]).toMatchObject({
      action: { from: A0, callType: 'call', gas: '0xfac48', to: otter, value: '0x64' },
      blockHash: receipt.blockHash,
      blockNumber: Number(receipt.blockNumber),
      result: { gasUsed: '0x8096', output: '0x' },
      subtraces: 1,
      traceAddress: [],
      transactionHash: tx.pay,
      transactionPosition: 0,
      type: 'call',
    });
    expect(traces[1]).toMatchObject({
      action: { from: otter, callType: 'call', gas: '0xf48d6', input: '0x', to: A1, value: '0x64' },
      traceAddress: [0],
      subtraces: 0,
    });
    // A plain transfer: no gas beyond the intrinsic.
    expect(strip(await result(url, 'trace_transaction', [tx.t1]))).toEqual([
      {
        action: { from: A0, callType: 'call', gas: '0x0', input: '0x', to: A1, value: '0xde0b6b3a7640000' },
        blockNumber: 1,
        result: { gasUsed: '0x0', output: '0x' },
        subtraces: 0,
        traceAddress: [],
        transactionPosition: 0,
        type: 'call',
      },
    ]);
  });

  it('trace_transaction: creations, a self-destruct and a revert', async () => {
    const make = await result(url, 'trace_transaction', [tx.make]);
    expect(make[0]).toMatchObject({ action: { gas: '0xfadb8' }, result: { gasUsed: '0x106dd' }, subtraces: 1 });
    expect(make[1]).toMatchObject({
      action: { from: otter, gas: '0xef2c6', value: '0x5', creationMethod: 'create' },
      result: { gasUsed: '0x882f' },
      type: 'create',
    });
    expect(make[1].result.code).toBe(await result(url, 'eth_getCode', [make[1].result.address, 'latest']));
    const kill = await result(url, 'trace_transaction', [tx.kill]);
    expect(kill.map((t: any) => [t.type, t.traceAddress, t.subtraces])).toEqual([
      ['call', [], 2],
      ['create', [0], 0],
      ['call', [1], 1],
      ['suicide', [1, 0], 0],
    ]);
    const child = kill[1].result.address;
    expect(kill[3]).toMatchObject({ action: { address: child, balance: '0x7', refundAddress: A1 }, result: null });
    const fail = await result(url, 'trace_transaction', [tx.fail]);
    expect(fail).toHaveLength(1);
    expect(fail[0]).toMatchObject({ error: 'Reverted', result: { gasUsed: '0x12e' }, action: { gas: '0xfadb8' } });
    expect(fail[0].result.output.startsWith('0x08c379a0')).toBe(true);
    const deploy = await result(url, 'trace_transaction', [tx.deploy]);
    expect(deploy[0]).toMatchObject({
      action: { from: A0, gas: '0x1ef168', init: OTTER_BYTECODE, value: '0x0', creationMethod: 'create' },
      result: { address: otter },
      type: 'create',
    });
  });

  it('trace_block lists every transaction of a block; unknown things answer null', async () => {
    const receipt = await result(url, 'eth_getTransactionReceipt', [tx.kill]);
    const block = await result(url, 'trace_block', [receipt.blockNumber]);
    expect(block).toEqual(await result(url, 'trace_transaction', [tx.kill]));
    expect(await result(url, 'trace_block', ['0x0'])).toEqual([]);
    expect(await result(url, 'trace_block', ['0x999'])).toBeNull();
    expect(await result(url, 'trace_transaction', ['0x' + '11'.repeat(32)])).toBeNull();
  });

  it('trace_call runs a call as eth_call and answers { output, stateDiff, trace, vmTrace }', async () => {
    const out = await result(url, 'trace_call', [{ from: A0, to: otter, data: OTTER.pay + pad(A1), value: '0x64' }, ['trace'], 'latest']);
    expect(out).toMatchObject({ output: '0x', stateDiff: null, vmTrace: null });
    expect(out.trace.map((t: any) => [t.type, t.traceAddress, t.action.to])).toEqual([
      ['call', [], otter],
      ['call', [0], A1],
    ]);
    expect(out.trace[0].transactionHash).toBeUndefined();
    const n = await result(url, 'trace_call', [{ to: otter, data: OTTER.n }, ['trace']]);
    expect(BigInt(n.output)).toBe(1n);
    const refused = await call(url, 'trace_call', [{ to: otter, data: OTTER.n }, ['trace', 'vmTrace'], 'latest']);
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toContain('vmTrace');
  });
});

describe('Otterscan (API level 8), as Otterscan calls it', () => {
  it('ots_getApiLevel, ots_hasCode', async () => {
    expect(await result(url, 'ots_getApiLevel', [])).toBe(8);
    expect(await result(url, 'ots_hasCode', [otter, 'latest'])).toBe(true);
    expect(await result(url, 'ots_hasCode', [A1, 'latest'])).toBe(false);
    expect(await result(url, 'ots_hasCode', [otter, '0x1'])).toBe(false);
  });

  it('ots_getBlockDetails and ByHash: the block without its transactions, its count, issuance and fees', async () => {
    const receipt = await result(url, 'eth_getTransactionReceipt', [tx.t1]);
    const details = await result(url, 'ots_getBlockDetails', [1]);
    expect(details.block.hash).toBe(receipt.blockHash);
    expect(details.block.transactions).toBeUndefined();
    expect(details.block.transactionCount).toBe(1);
    expect(details.issuance).toEqual({ blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' });
    expect(BigInt(details.totalFees)).toBe(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
    expect(await result(url, 'ots_getBlockDetailsByHash', [receipt.blockHash])).toEqual(details);
    expect(await result(url, 'ots_getBlockDetails', [999])).toBeNull();
  });

  it('ots_getBlockTransactions: a page of full transactions with receipts and their timestamp', async () => {
    const page = await result(url, 'ots_getBlockTransactions', [3, 0, 25]);
    expect(page.fullblock.transactionCount).toBe(1);
    expect(page.fullblock.transactions.map((t: any) => t.hash)).toEqual([tx.pay]);
    expect(page.receipts[0]).toMatchObject({ transactionHash: tx.pay, status: '0x1', timestamp: page.fullblock.timestamp });
    expect((await result(url, 'ots_getBlockTransactions', [3, 1, 25])).fullblock.transactions).toEqual([]);
    for (const size of [0, 101]) expect((await call(url, 'ots_getBlockTransactions', [3, 0, size])).error.code).toBe(-32602);
  });

  it('ots_traceTransaction, ots_getInternalOperations, ots_getTransactionError', async () => {
    const kill = await result(url, 'ots_traceTransaction', [tx.kill]);
    expect(kill.map((f: any) => [f.type, f.depth])).toEqual([
      ['CALL', 0],
      ['CREATE', 1],
      ['CALL', 1],
      ['SELFDESTRUCT', 2],
    ]);
    const child = kill[1].to;
    expect(kill[3]).toMatchObject({ from: child, to: A1, value: '0x7' });
    expect(await result(url, 'ots_getInternalOperations', [tx.kill])).toEqual([
      { type: 2, from: otter, to: child, value: '0x7' },
      { type: 1, from: child, to: A1, value: '0x7' },
    ]);
    expect(await result(url, 'ots_getInternalOperations', [tx.pay])).toEqual([{ type: 0, from: otter, to: A1, value: '0x64' }]);
    expect(await result(url, 'ots_getInternalOperations', [tx.t1])).toEqual([]);
    expect(await result(url, 'ots_getTransactionError', [tx.pay])).toBe('0x');
    const error = await result(url, 'ots_getTransactionError', [tx.fail]);
    expect(error.startsWith('0x08c379a0')).toBe(true);
    expect(Buffer.from(error.slice(2), 'hex').toString('utf8')).toContain('otter says no');
    expect((await call(url, 'ots_traceTransaction', ['0x' + '11'.repeat(32)])).error).toMatchObject({ code: -32000, message: 'transaction not found' });
  });

  it('ots_searchTransactionsBefore/After: pages of 25 newest first, internal touches included', async () => {
    const before = await result(url, 'ots_searchTransactionsBefore', [A1, 0, 25]);
    // A1 is sent to (t1), paid inside pay, and the self-destruct's beneficiary in kill.
    expect(before.txs.map((t: any) => t.hash)).toEqual([tx.kill, tx.pay, tx.t1]);
    expect(before.receipts.map((r: any) => r.transactionHash)).toEqual([tx.kill, tx.pay, tx.t1]);
    expect(before).toMatchObject({ firstPage: true, lastPage: true });
    expect(await result(url, 'ots_searchTransactionsAfter', [A1, 0, 25])).toEqual(before);
    // Pages of two of A0's six: newest, then older ones by the last page's block.
    const p1 = await result(url, 'ots_searchTransactionsBefore', [A0, 0, 2]);
    expect(p1.txs.map((t: any) => t.hash)).toEqual([tx.fail, tx.kill]);
    expect(p1).toMatchObject({ firstPage: true, lastPage: false });
    const p2 = await result(url, 'ots_searchTransactionsBefore', [A0, Number(p1.txs[1].blockNumber), 2]);
    expect(p2.txs.map((t: any) => t.hash)).toEqual([tx.make, tx.pay]);
    const oldest = await result(url, 'ots_searchTransactionsAfter', [A0, 0, 2]);
    expect(oldest.txs.map((t: any) => t.hash)).toEqual([tx.deploy, tx.t1]);
    expect(oldest).toMatchObject({ firstPage: false, lastPage: true });
    // The created child is found by its creation.
    const child = (await result(url, 'ots_traceTransaction', [tx.make]))[1].to;
    expect((await result(url, 'ots_searchTransactionsBefore', [child, 0, 25])).txs.map((t: any) => t.hash)).toEqual([tx.make]);
  });

  it('ots_getTransactionBySenderAndNonce, ots_getContractCreator', async () => {
    expect(await result(url, 'ots_getTransactionBySenderAndNonce', [A0, 0])).toBe(tx.t1);
    expect(await result(url, 'ots_getTransactionBySenderAndNonce', [A0, 2])).toBe(tx.pay);
    expect(await result(url, 'ots_getTransactionBySenderAndNonce', [A0, 99])).toBeNull();
    expect(await result(url, 'ots_getContractCreator', [otter])).toEqual({ hash: tx.deploy, creator: A0 });
    const child = (await result(url, 'ots_traceTransaction', [tx.make]))[1].to;
    expect(await result(url, 'ots_getContractCreator', [child])).toEqual({ hash: tx.make, creator: otter });
    expect(await result(url, 'ots_getContractCreator', [A1])).toBeNull();
  });
});

describe('the methods anvil users reach for', () => {
  it('eth_requestAccounts is eth_accounts; eth_getAccount gives the trie fields', async () => {
    expect(await result(url, 'eth_requestAccounts', [])).toEqual(await result(url, 'eth_accounts', []));
    const code = await result(url, 'eth_getCode', [otter, 'latest']);
    const account = await result(url, 'eth_getAccount', [otter, 'latest']);
    expect(account.codeHash).toBe(keccak256(code));
    // A contract starts at nonce 1 (EIP-161) and made two children.
    expect(account.nonce).toBe('0x3');
    expect(account.storageRoot).not.toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    // An account that does not exist: the empty account's fields, as geth and anvil.
    expect(await result(url, 'eth_getAccount', ['0x00000000000000000000000000000000000000c9', 'latest'])).toEqual({
      codeHash: '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
      storageRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      balance: '0x0',
      nonce: '0x0',
    });
  });

  it('anvil_addBalance adds (null, as anvil); past 2^256-1 it is refused and changes nothing', async () => {
    const who = '0x00000000000000000000000000000000000000c1';
    expect(await result(url, 'anvil_addBalance', [who, '0x10'])).toBeNull();
    expect(await result(url, 'anvil_addBalance', [who, '0x10'])).toBeNull();
    expect(await result(url, 'eth_getBalance', [who, 'latest'])).toBe('0x20');
    const over = await call(url, 'anvil_addBalance', [who, '0x' + 'f'.repeat(64)]);
    expect(over.error.code).toBe(-32602);
    expect(await result(url, 'eth_getBalance', [who, 'latest'])).toBe('0x20');
  });

  it('anvil_dealERC20 and anvil_setERC20Allowance find the slot by tracing the read, as anvil (null; a non-token is refused)', async () => {
    const artifact = JSON.parse(readFileSync('chains/contracts/Token.json', 'utf8'));
    const bytecode: string = artifact.bytecode?.object ?? artifact.bytecode;
    const deployed = await send({ data: bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`, gas: '0x300000' });
    const token = (await result(url, 'eth_getTransactionReceipt', [deployed])).contractAddress;
    const balanceOf = async (who: string) => BigInt(await result(url, 'eth_call', [{ to: token, data: `0x70a08231${pad(who)}` }, 'latest']));
    const supply = await result(url, 'eth_call', [{ to: token, data: '0x18160ddd' }, 'latest']);
    expect(await result(url, 'anvil_dealERC20', [A1, token, '0x1234567'])).toBeNull();
    expect(await balanceOf(A1)).toBe(0x1234567n);
    // The deployer's balance and the supply are untouched (anvil does not touch the supply either).
    expect(await balanceOf(A0)).toBe(10n ** 24n);
    expect(await result(url, 'eth_call', [{ to: token, data: '0x18160ddd' }, 'latest'])).toBe(supply);
    // Setting a balance to what it already is still finds the right slot (the probe differs from it).
    expect(await result(url, 'anvil_dealERC20', [A1, token, '0x1234567'])).toBeNull();
    expect(await balanceOf(A1)).toBe(0x1234567n);
    expect(await result(url, 'anvil_setERC20Allowance', [A0, A1, token, '0x99'])).toBeNull();
    expect(BigInt(await result(url, 'eth_call', [{ to: token, data: `0xdd62ed3e${pad(A0)}${pad(A1)}` }, 'latest']))).toBe(0x99n);
    const refused = await call(url, 'anvil_dealERC20', [A1, A0, '0x1']);
    expect(refused.error.message).toContain('not an ERC-20');
    const notToken = await call(url, 'anvil_dealERC20', [A1, otter, '0x1']);
    expect(notToken.error.code).toBe(-32000);
  });

  it('evm_setTime stamps the next block and answers the seconds moved; evm_mine_detailed answers full blocks with outputs', async () => {
    const head = await result(url, 'eth_getBlockByNumber', ['latest', false]);
    const target = Number(head.timestamp) + 3600;
    expect(await result(url, 'evm_setTime', [target])).toBe(3600);
    await result(url, 'evm_setAutomine', [false]);
    const pending = await send({ to: otter, data: OTTER.fail });
    const mined = await result(url, 'evm_mine_detailed', []);
    await result(url, 'evm_setAutomine', [true]);
    expect(mined).toHaveLength(1);
    expect(Number(mined[0].timestamp)).toBe(target);
    expect(mined[0].transactions[0]).toMatchObject({ hash: pending, revertReason: 'otter says no' });
    expect(mined[0].transactions[0].output.startsWith('0x08c379a0')).toBe(true);
    const two = await result(url, 'anvil_mine_detailed', [{ blocks: 2 }]);
    expect(two.map((b: any) => b.transactions)).toEqual([[], []]);
    expect((await call(url, 'evm_setTime', [target])).error.code).toBe(-32602);
    expect((await call(url, 'evm_mine_detailed', [{ blocks: 1001 }])).error.message).toContain('at most 1000 blocks');
  });
});
