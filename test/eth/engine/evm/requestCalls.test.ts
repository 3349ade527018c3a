/**
 * The EIP-7002/7251 request system calls answered without running (evm/requestCalls.ts) against stock @ethereumjs:
 * a Prague block built on a VM with the stand-in equals the block a stock VM builds (hash, state root, requests,
 * the system account and the queue contracts' storage, the journal's touched accounts), whether the queues are
 * empty (answered: the contracts do not run) or not (an excess, a count, queue pointers, a queued request, the
 * inhibitor, other code at the address: those run stock).
 */
import { createBlock } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, bigIntToBytes, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { buildBlock, createVM, type VM } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import { SYSTEM_CONTRACTS } from '../../../../src/eth/engine/build/systemContracts.js';
import { shortcutRequestCalls } from '../../../../src/eth/engine/evm/requestCalls.js';

const SYSTEM = createAddressFromString('0xfffffffffffffffffffffffffffffffffffffffe');
const QUEUES = SYSTEM_CONTRACTS.filter((c) => c.name.startsWith('EIP-7002') || c.name.startsWith('EIP-7251')).map((c) => createAddressFromString(c.address));
const word = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);

interface Setup {
  /** Storage of both queue contracts (slot -> value). */
  slots?: Record<number, bigint>;
  /** Code put at the first queue contract instead of the EIP's. */
  code?: Uint8Array;
  systemBalance?: bigint;
}

async function vmWith(setup: Setup, shortcut: boolean): Promise<VM> {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
  const vm = await createVM({ common, stateManager: new MerkleStateManager({ common }) });
  for (const c of SYSTEM_CONTRACTS) {
    const address = createAddressFromString(c.address);
    await vm.stateManager.putAccount(address, new Account(1n, 0n));
    await vm.stateManager.putCode(address, hexToBytes(c.code as `0x${string}`));
  }
  if (setup.code !== undefined) await vm.stateManager.putCode(QUEUES[0]!, setup.code);
  for (const q of QUEUES) for (const [slot, value] of Object.entries(setup.slots ?? {})) await vm.stateManager.putStorage(q, word(BigInt(slot)), word(value));
  if (setup.systemBalance !== undefined) await vm.stateManager.putAccount(SYSTEM, new Account(0n, setup.systemBalance));
  await (vm.stateManager as MerkleStateManager).flush();
  if (shortcut) expect(shortcutRequestCalls(vm)).toBe(true);
  return vm;
}

async function build(vm: VM) {
  const parent = createBlock({ header: { number: 9n, gasLimit: 30_000_000n, baseFeePerGas: 7n, timestamp: 90n } }, { common: vm.common });
  let frames = 0;
  vm.evm.events!.on('beforeMessage', () => void frames++);
  const builder = await buildBlock(vm, {
    parentBlock: parent,
    headerData: { timestamp: 102n, parentBeaconBlockRoot: new Uint8Array(32) },
    withdrawals: [],
    blockOpts: { putBlockIntoBlockchain: false },
  });
  await builder.initState();
  const { block, requests } = await builder.build();
  const state = vm.stateManager;
  const storage: string[] = [];
  for (const q of QUEUES) for (let s = 0n; s < 8n; s++) storage.push(bytesToHex(await state.getStorage(q, word(s))));
  const touched = [...(vm.evm.journal as unknown as { touched: Set<string> }).touched].sort();
  return {
    frames,
    out: {
      hash: bytesToHex(block.hash()),
      stateRoot: bytesToHex(block.header.stateRoot),
      requests: requests!.map((r) => bytesToHex(r.bytes)),
      system: (await state.getAccount(SYSTEM))?.serialize(),
      storage,
      touched,
    },
  };
}

const QUEUED: Record<number, bigint> = { 1: 1n, 3: 1n, 4: 0xaabbn, 5: 0xccddn, 6: 0xeeffn };

describe('EIP-7002/7251 request system calls without running the contracts', () => {
  // [name, state, how many of the two contracts are answered without running]
  const cases: [string, Setup, number][] = [
    ['empty queues', {}, 2],
    ['empty queues, a funded system account', { systemBalance: 5n }, 2],
    ['an excess left', { slots: { 0: 3n } }, 0],
    ['the excess inhibitor', { slots: { 0: 2n ** 256n - 1n } }, 0],
    ['a count', { slots: { 1: 2n } }, 0],
    ['queue pointers at an empty queue', { slots: { 2: 4n, 3: 4n } }, 0],
    ['a queued request', { slots: QUEUED }, 0],
    ['other code', { code: Uint8Array.of(0x60, 0x01, 0x5f, 0x55, 0x00) }, 1],
  ];
  for (const [name, setup, answered] of cases) {
    it(`${name}: the stock block, ${answered} contract(s) not run`, async () => {
      const stock = await build(await vmWith(setup, false));
      const fast = await build(await vmWith(setup, true));
      expect(fast.out).toEqual(stock.out);
      // Stock runs the EIP-7002 and 7251 contracts (EIP-4788 and 2935 write their slots without the EVM).
      expect(stock.frames).toBe(2);
      expect(fast.frames).toBe(2 - answered);
    });
  }
});
