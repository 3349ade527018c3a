/** A seeded osaka chain: receipts and logs, historical state, tags, the pending pool, BLOCKHASH, dev accounts. */
import { openPendingDraft } from '../../../../src/eth/engine/mining/pending.js';
import { nodeOf } from '../../../support/node.js';
import { readFileSync } from 'node:fs';
import { type Address, bytesToBigInt, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { decodeFunctionResult, encodeFunctionData, keccak256, toEventSelector, type Abi, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { loadSeedFile, parseSeed } from '../../../../src/seed/load.js';

const artifact = (name: string) => JSON.parse(readFileSync(`chains/contracts/${name}.json`, 'utf8')) as { abi: Abi };
const tokenAbi = artifact('Token').abi;
const reverterAbi = artifact('Reverter').abi;
const addr = (s: string) => createAddressFromString(s);
const B1 = '0x00000000000000000000000000000000000000b1';
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

let chain: EthChain;
let token: Address;
let reverter: Address;
let layout: Address;

/** Runs a read-only call on the state after `block`. */
async function call(block: MinedBlock, to: Address, data: Hex): Promise<Uint8Array> {
  const vm = await chain.vmAt(block);
  const result = await vm.evm.runCall({ to, data: hexToBytes(data), gasLimit: 1_000_000n, block: block.block, caller: addr(DEV0) });
  expect(result.execResult.exceptionError).toBeUndefined();
  return result.execResult.returnValue;
}

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('test/fixtures/eth/small.json'));
  const created = chain.blockByNumber(1n)!.receipts.map((r) => r.contractAddress!);
  [token, reverter, layout] = created as [Address, Address, Address];
});

describe('dev accounts', () => {
  it('are anvil/hardhat accounts of the mnemonic, funded at genesis', async () => {
    const accounts = chain.devAccounts();
    expect(accounts).toHaveLength(5);
    expect(accounts[0]!.address.toString()).toBe(DEV0);
    expect(accounts[1]!.address.toString()).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    expect(bytesToHex(accounts[0]!.privateKey)).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect((await chain.getAccount(accounts[4]!.address, chain.blockByNumber(0n)!))!.balance).toBe(10_000n * 10n ** 18n);
  });
});

describe('blocks and receipts', () => {
  it('numbers, parents, timestamps, coinbase and the base fee evolve as a node computes them', () => {
    const [g, b1, b2, b3, b4] = [...chain.blocks()];
    expect(chain.head().number).toBe(4n);
    expect(b1!.block.header.parentHash).toEqual(g!.hash);
    expect(b1!.block.header.timestamp).toBe(0x6553f100n + 12n);
    expect(b3!.block.header.timestamp).toBe(0x6553f200n);
    expect(b4!.block.header.timestamp).toBe(0x6553f200n + 12n);
    expect(b3!.block.header.coinbase.toString()).toBe('0x00000000000000000000000000000000000000cb');
    expect(b4!.block.header.coinbase.toString()).toBe('0x00000000000000000000000000000000000000cb');
    expect(b2!.block.header.baseFeePerGas).toBe(b1!.block.header.calcNextBaseFee());
    expect(b1!.block.header.baseFeePerGas! < g!.block.header.baseFeePerGas!).toBe(true);
    expect(b4!.block.header.gasUsed).toBe(0n);
    expect(b4!.block.header.withdrawalsRoot).toBeDefined();
    expect(chain.blockByHash(b2!.hash)).toBe(b2);
    expect(chain.blockByNumber(5n)).toBeUndefined();
  });

  it('receipts: status, cumulative gas, effective gas price, contract addresses', () => {
    const b1 = chain.blockByNumber(1n)!;
    expect(b1.receipts.map((r) => r.contractAddress?.toString())).toEqual([
      '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
      '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0',
    ]);
    const b2 = chain.blockByNumber(2n)!;
    const baseFee = b2.block.header.baseFeePerGas!;
    expect(b2.receipts.map((r) => r.status)).toEqual([1, 1, 1, 1, 0, 1]);
    expect(b2.receipts.every((r) => r.root === undefined && r.contractAddress === undefined)).toBe(true);
    let cumulative = 0n;
    for (const r of b2.receipts) {
      cumulative += r.gasUsed;
      expect(r.cumulativeGasUsed).toBe(cumulative);
    }
    expect(cumulative).toBe(b2.block.header.gasUsed);
    expect(b2.receipts[2]!.gasUsed).toBe(21000n);
    expect(b2.receipts[0]!.effectiveGasPrice).toBe(baseFee + 10n ** 9n);
    // type 0 default gasPrice: base fee + 1 gwei; it is what the sender pays
    expect(b2.receipts[2]!.effectiveGasPrice).toBe(baseFee + 10n ** 9n);
    const b3 = chain.blockByNumber(3n)!;
    expect(b3.receipts[0]!.effectiveGasPrice).toBe(b3.block.header.baseFeePerGas! + 2_000_000_000n);
    expect(b2.senders.map((s) => s.toString())).toEqual([
      DEV0,
      DEV0,
      chain.devAccounts()[1]!.address.toString(),
      chain.devAccounts()[2]!.address.toString(),
      chain.devAccounts()[3]!.address.toString(),
      DEV0,
    ]);
    expect(b2.block.transactions.map((t) => t.type)).toEqual([2, 2, 0, 1, 2, 2]);
  });

  it('logs: Transfer events with block-wide log indexes and blooms', () => {
    const b2 = chain.blockByNumber(2n)!;
    const transfer = hexToBytes(toEventSelector('Transfer(address,address,uint256)'));
    const logs = b2.receipts.flatMap((r) => r.logs);
    expect(logs.map((l) => l.logIndex)).toEqual([0, 1]);
    expect(logs[0]!.address.equals(token)).toBe(true);
    expect(logs[0]!.topics).toEqual([transfer, setLengthLeft(addr(DEV0).bytes, 32), setLengthLeft(addr(B1).bytes, 32)]);
    expect(bytesToBigInt(logs[0]!.data)).toBe(1000n);
    expect(bytesToBigInt(logs[1]!.data)).toBe(2000n);
    const bloomHas = (bloom: Uint8Array, item: Uint8Array) => {
      const h = hexToBytes(keccak256(item));
      return [0, 2, 4].every((i) => {
        const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
        return (bloom[256 - 1 - (bit >> 3)]! & (1 << (bit % 8))) !== 0;
      });
    };
    expect(bloomHas(b2.receipts[0]!.logsBloom, token.bytes)).toBe(true);
    expect(bloomHas(b2.block.header.logsBloom, transfer)).toBe(true);
    expect(bloomHas(b2.receipts[2]!.logsBloom, token.bytes)).toBe(false);
    // Block 3 starts again at 0.
    expect(
      chain
        .blockByNumber(3n)!
        .receipts.flatMap((r) => r.logs)
        .map((l) => l.logIndex),
    ).toEqual([0, 1]);
  });

  it('transactions are found by hash, with block and index', () => {
    const b2 = chain.blockByNumber(2n)!;
    const found = chain.transaction(b2.block.transactions[3]!.hash());
    expect(found).toMatchObject({ kind: 'mined', index: 3 });
    expect(found?.kind === 'mined' && found.block).toBe(b2);
    expect(chain.transaction(new Uint8Array(32))).toBeUndefined();
  });

  it('tags: latest, earliest, safe and finalized (clamped at genesis)', async () => {
    expect(await nodeOf(chain).resolveBlock('latest')).toBe(chain.head());
    expect(await nodeOf(chain).resolveBlock('earliest')).toBe(chain.blockByNumber(0n));
    expect(chain.resolveMined('safe')).toBe(chain.blockByNumber(0n));
    expect(chain.resolveMined('finalized')).toBe(chain.blockByNumber(0n));
    expect(await nodeOf(chain).resolveBlock(2n)).toBe(chain.blockByNumber(2n));
    expect(await nodeOf(chain).resolveBlock(99n)).toBeUndefined();
  });
});

describe('historical state', () => {
  it('balances, nonces, code and storage at every block', async () => {
    const [g, b1, b2, b3] = [...chain.blocks()];
    const b3addr = addr('0x00000000000000000000000000000000000000b3');
    expect(await chain.getAccount(b3addr, b1!)).toBeUndefined();
    expect((await chain.getAccount(b3addr, b2!))!.balance).toBe(0x300n);
    expect((await chain.getAccount(addr(DEV0), g!))!.nonce).toBe(0n);
    expect((await chain.getAccount(addr(DEV0), b1!))!.nonce).toBe(3n);
    expect((await chain.getAccount(addr(DEV0), b3!))!.nonce).toBe(7n);
    expect(await chain.getCode(token, g!)).toHaveLength(0);
    expect((await chain.getCode(token, b1!)).length).toBeGreaterThan(100);
    // alloc: code, nonce and storage as given
    const aa = addr('0x00000000000000000000000000000000000000aa');
    expect(bytesToHex(await chain.getCode(aa, g!))).toBe('0x602a60005260206000f3');
    expect((await chain.getAccount(aa, g!))!.nonce).toBe(1n);
    expect(bytesToHex(await chain.getStorage(aa, setLengthLeft(hexToBytes('0x01'), 32), g!))).toBe('0x02');
    // StorageLayout.balances[B1] at slot keccak(pad(B1) ++ pad(3)): 0 before block 2, 5 after
    const slot = hexToBytes(keccak256(new Uint8Array([...setLengthLeft(addr(B1).bytes, 32), ...setLengthLeft(new Uint8Array([3]), 32)])));
    expect(await chain.getStorage(layout, slot, b1!)).toHaveLength(0);
    expect(bytesToBigInt(await chain.getStorage(layout, slot, b2!))).toBe(5n);
  });

  it('calls run on the state of the block asked for', async () => {
    const balanceOf = encodeFunctionData({ abi: tokenAbi, functionName: 'balanceOf', args: [B1] });
    const at = async (n: bigint) =>
      decodeFunctionResult({ abi: tokenAbi, functionName: 'balanceOf', data: bytesToHex(await call(chain.blockByNumber(n)!, token, balanceOf)) });
    expect(await at(1n)).toBe(0n);
    expect(await at(2n)).toBe(1000n);
    expect(await at(3n)).toBe(1001n);
  });

  it('stateAt gives a private copy: writes inside checkpoint/revert leave the chain as it was', async () => {
    const b2 = chain.blockByNumber(2n)!;
    const state = await chain.stateAt(b2);
    await state.checkpoint();
    await state.putAccount(addr(B1), undefined);
    await state.revert();
    expect((await chain.getAccount(addr('0x00000000000000000000000000000000000000b3'), b2))!.balance).toBe(0x300n);
    expect(await state.getStateRoot()).toEqual(b2.block.header.stateRoot);
  });

  it('BLOCKHASH answers from this chain', async () => {
    const head = chain.head();
    const data = encodeFunctionData({ abi: reverterAbi, functionName: 'context' });
    const out = decodeFunctionResult({ abi: reverterAbi, functionName: 'context', data: bytesToHex(await call(head, reverter, data)) }) as readonly unknown[];
    expect(out[0]).toBe(head.number);
    expect(out[2]).toBe(bytesToHex(chain.blockByNumber(head.number - 1n)!.hash));
    expect(out[4]).toBe(31337n);
  });
});

describe('pending pool', () => {
  it('holds the seeded pending transactions; the pending block executes them on head', async () => {
    const pool = chain.pendingTransactions();
    expect(pool).toHaveLength(3);
    expect(pool.map((p) => p.tx.nonce)).toEqual([1n, 2n, 7n]);
    expect(pool[0]!.sender.toString()).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    const pending = await nodeOf(chain).pendingBlock();
    expect(await nodeOf(chain).pendingBlock()).toBe(pending);
    expect(pending.number).toBe(chain.head().number + 1n);
    expect(pending.block.header.parentHash).toEqual(chain.head().hash);
    expect(pending.block.header.baseFeePerGas).toBe(chain.head().block.header.calcNextBaseFee());
    expect(pending.block.transactions.map((t) => bytesToHex(t.hash()))).toEqual(pool.map((p) => bytesToHex(p.tx.hash())));
    expect(pending.receipts.map((r) => r.status)).toEqual([1, 1, 1]);
    expect(pending.receipts[2]!.logs).toHaveLength(1);
    const lookup = chain.transaction(pool[1]!.tx.hash());
    expect(lookup).toEqual({ kind: 'pending', pending: pool[1] });
    expect(await nodeOf(chain).resolveBlock('pending')).toBe(pending);
    // Building the pending block changed nothing on the chain.
    expect(chain.head().number).toBe(4n);
    expect(await chain.getAccount(addr('0x00000000000000000000000000000000000000b4'), chain.head())).toBeUndefined();
  });
});

describe('mining the pool', () => {
  it('addPending rebuilds the pending block; mineBlock turns the pool into the next block', async () => {
    const own = await chainFromSeed(loadSeedFile('test/fixtures/eth/small.json'));
    const before = own.head();
    const draft = await openPendingDraft(own);
    const { createFeeMarket1559Tx } = await import('@ethereumjs/tx');
    const dev3 = own.devAccounts()[3]!;
    const nonce = (await own.getAccount(dev3.address, before))!.nonce;
    const baseFee = draft.context.header.baseFeePerGas!;
    const tx = createFeeMarket1559Tx(
      {
        chainId: 31337n,
        nonce,
        gasLimit: 21000n,
        maxFeePerGas: baseFee * 2n,
        maxPriorityFeePerGas: 1n,
        to: '0x00000000000000000000000000000000000000b6',
        value: 99n,
      },
      { common: own.common },
    ).sign(dev3.privateKey);
    const firstPending = await nodeOf(own).pendingBlock();
    await own.addPending(tx);
    const pending = await nodeOf(own).pendingBlock();
    expect(pending).not.toBe(firstPending);
    expect(pending.block.transactions).toHaveLength(4);
    expect(own.transaction(tx.hash())?.kind).toBe('pending');

    const mined = await nodeOf(own).mineBlock();
    expect(mined.number).toBe(before.number + 1n);
    expect(own.head()).toBe(mined);
    expect(mined.block.transactions.map((t) => bytesToHex(t.hash()))).toEqual(pending.block.transactions.map((t) => bytesToHex(t.hash())));
    expect(mined.hash).toEqual(pending.hash); // same parent, same timestamp default, same transactions
    expect(own.pendingTransactions()).toHaveLength(0);
    expect(own.transaction(tx.hash())).toMatchObject({ kind: 'mined', index: 3 });
    expect((await own.getAccount(addr('0x00000000000000000000000000000000000000b6'), mined))!.balance).toBe(99n);
    expect((await nodeOf(own).pendingBlock()).block.transactions).toHaveLength(0);
  });
});

describe('raw transactions', () => {
  it('are decoded, their sender recovered, and mined with the hash the signer computed', async () => {
    const { privateKeyToAccount } = await import('viem/accounts');
    const { keccak256: hash } = await import('viem');
    const outsider = privateKeyToAccount('0x0123456789012345678901234567890123456789012345678901234567890123');
    const raw1559 = await outsider.signTransaction({
      chainId: 31337,
      type: 'eip1559',
      nonce: 0,
      to: B1,
      value: 5n,
      gas: 21000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    });
    const rawLegacy = await outsider.signTransaction({ chainId: 31337, type: 'legacy', nonce: 1, to: B1, value: 6n, gas: 21000n, gasPrice: 10n ** 10n });
    const chainWithRaw = await chainFromSeed(
      parseSeed(
        {
          name: 'raw',
          kind: 'eth',
          chainId: 31337,
          alloc: { [outsider.address]: { balance: '1000000000000000000' } },
          blocks: [{ transactions: [{ raw: raw1559 }, { raw: rawLegacy }] }],
          pending: [],
        },
        'raw',
      ),
    );
    const block = chainWithRaw.blockByNumber(1n)!;
    expect(block.block.transactions.map((t) => bytesToHex(t.hash()))).toEqual([hash(raw1559), hash(rawLegacy)]);
    expect(block.senders.map((s) => s.toString())).toEqual([outsider.address.toLowerCase(), outsider.address.toLowerCase()]);
    expect(block.receipts.map((r) => r.status)).toEqual([1, 1]);
    expect((await chainWithRaw.getAccount(addr(B1), block))!.balance).toBe(11n);
  });
});
