/**
 * The eth_call state (state/overlayState.ts) and call VMs (callVms.ts): the same answers, gas and logs as a VM
 * on a MerkleStateManager copy at every block, and writes that never reach the reads shared per root.
 */
import { readFileSync } from 'node:fs';
import type { EVMResult } from '@ethereumjs/evm';
import { Account, createAddressFromString, hexToBytes, setLengthLeft, type Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { encodeAbiParameters, encodeFunctionData, keccak256, parseAbi, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OverlayState } from '../../../../src/eth/engine/state/overlayState.js';
import { CallVms } from '../../../../src/eth/engine/exec/callVms.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { interpreterPatched } from '../../../../src/eth/engine/evm/index.js';
import { trieGet } from '../../../../src/eth/engine/state/trieRead.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { ACCOUNT0, ACCOUNT1, ACCOUNT2, GAS_LEFT_ADDRESS, REVERTER, STORAGE_LAYOUT, TOKEN, readSurfaceSeed } from '../../methods/seed.js';

const addr = (s: string) => createAddressFromString(s);
const abi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function increment() returns (uint256)',
  'function counter() view returns (uint256)',
  'function revertWithReason()',
  'function burnGas(uint256 rounds) returns (bytes32)',
  'function context() view returns (uint256, uint256, bytes32, uint256, uint256, address, address, address, uint256, uint256)',
  'function setBalance(address holder, uint256 value)',
  'function pushItem(uint256 value)',
]);
const data = (functionName: string, args: unknown[] = []) => hexToBytes(encodeFunctionData({ abi, functionName, args } as never) as Hex);
const tokenInitCode = hexToBytes(JSON.parse(readFileSync('chains/contracts/Token.json', 'utf8')).bytecode as Hex);

interface Call {
  caller: Address;
  to?: Address;
  data: Uint8Array;
  value?: bigint;
}

const CALLS: Call[] = [
  { caller: addr(ACCOUNT0), to: addr(TOKEN), data: data('balanceOf', [ACCOUNT1]) },
  { caller: addr(ACCOUNT0), to: addr(TOKEN), data: data('transfer', [ACCOUNT2, 5n]) },
  { caller: addr(ACCOUNT2), to: addr(TOKEN), data: data('transfer', [ACCOUNT1, 10n ** 30n]) },
  { caller: addr(ACCOUNT1), to: addr(REVERTER), data: data('increment') },
  { caller: addr(ACCOUNT1), to: addr(REVERTER), data: data('counter') },
  { caller: addr(ACCOUNT1), to: addr(REVERTER), data: data('revertWithReason') },
  { caller: addr(ACCOUNT1), to: addr(REVERTER), data: data('burnGas', [20n]) },
  { caller: addr(ACCOUNT1), to: addr(REVERTER), data: data('context') },
  { caller: addr(ACCOUNT0), to: addr(STORAGE_LAYOUT), data: data('setBalance', [ACCOUNT1, 0n]) },
  { caller: addr(ACCOUNT0), to: addr(STORAGE_LAYOUT), data: data('pushItem', [7n]) },
  { caller: addr(ACCOUNT0), to: addr(GAS_LEFT_ADDRESS), data: new Uint8Array() },
  { caller: addr(ACCOUNT0), to: addr('0x00000000000000000000000000000000000000b7'), data: new Uint8Array(), value: 12345n },
  { caller: addr(ACCOUNT0), data: tokenInitCode },
];

/** What a call did, comparable across VMs. */
function outcome(r: EVMResult) {
  const e = r.execResult;
  return {
    error: e.exceptionError?.error,
    out: Buffer.from(e.returnValue).toString('hex'),
    gas: e.executionGasUsed,
    logs: e.logs?.length ?? 0,
    created: r.createdAddress?.toString(),
  };
}

async function run(vm: VM, block: MinedBlock, c: Call) {
  await vm.stateManager.checkpoint();
  try {
    return outcome(
      await vm.evm.runCall({ block: block.block, caller: c.caller, origin: c.caller, to: c.to, data: c.data, value: c.value ?? 0n, gasLimit: 5_000_000n }),
    );
  } finally {
    await vm.stateManager.revert();
  }
}

let chain: EthChain;
beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(readSurfaceSeed(), 'read-surface seed'));
});

describe('call VMs', () => {
  it('patch the interpreter (jump analysis per code, lean frame results)', () => {
    expect(interpreterPatched).toBe(true);
  });

  it('give the answers, gas, logs and created addresses of a VM on a state copy, at every block', async () => {
    for (const block of chain.blocks()) {
      const reference = await chain.vmAt(block);
      for (const c of CALLS) {
        reference.evm.journal.cleanJournal();
        const want = await run(reference, block, c);
        // Twice: the second run meets the shared reads and jump analysis the first one left.
        for (let i = 0; i < 2; i++) {
          await chain.withCallVmAt(block, async (vm) => {
            vm.evm.journal.cleanJournal();
            expect(await run(vm, block, c), `block ${block.number} call ${CALLS.indexOf(c)}`).toEqual(want);
          });
        }
      }
    }
  });
});

describe('OverlayState', () => {
  async function states(): Promise<[OverlayState, OverlayState]> {
    const block = chain.head();
    const pair: OverlayState[] = [];
    // Two leases at once get two VMs on the same shared reads.
    await chain.withCallVmAt(block, (a) => chain.withCallVmAt(block, async (b) => void pair.push(a.stateManager as never, b.stateManager as never)));
    return pair as [OverlayState, OverlayState];
  }

  it('comes back empty from a reverted call, so the pool lends its VM again', async () => {
    const block = chain.head();
    const token = addr(TOKEN);
    let first: VM | undefined;
    await chain.withCallVmAt(block, async (vm) => {
      first = vm;
      const s = vm.stateManager as unknown as OverlayState;
      await s.checkpoint();
      await s.putStorage(token, new Uint8Array(32).fill(2), Uint8Array.of(1));
      await s.putCode(token, Uint8Array.of(0x00));
      await s.clearStorage(addr(ACCOUNT1));
      await s.deleteAccount(addr(ACCOUNT2));
      await s.revert();
    });
    await chain.withCallVmAt(block, async (vm) => void expect(vm).toBe(first));
  });

  it('keeps writes to itself: another state on the same root never sees them, and revert undoes them', async () => {
    const [a, b] = await states();
    const token = addr(TOKEN);
    const slot = new Uint8Array(32).fill(1);
    const before = { account: await b.getAccount(token), code: await b.getCode(token), value: await b.getStorage(token, slot) };
    await a.checkpoint();
    await a.putStorage(token, slot, Uint8Array.of(0, 0, 7));
    await a.modifyAccountFields(token, { balance: 99n, nonce: 5n });
    await a.putCode(token, Uint8Array.of(0x00));
    expect(await a.getStorage(token, slot)).toEqual(Uint8Array.of(7));
    expect((await a.getAccount(token))!.balance).toBe(99n);
    expect(await a.getCode(token)).toEqual(Uint8Array.of(0x00));
    expect({ account: await b.getAccount(token), code: await b.getCode(token), value: await b.getStorage(token, slot) }).toEqual(before);
    expect(await a.originalStorageCache.get(token, slot)).toEqual(before.value);
    await a.revert();
    expect({ account: await a.getAccount(token), code: await a.getCode(token), value: await a.getStorage(token, slot) }).toEqual(before);
    expect(a.depth).toBe(0);
    expect(a.written()).toBe(false);
  });

  it('nests: an inner commit stays until the outer revert; deleting an account hides its storage', async () => {
    const [a] = await states();
    const layout = addr(STORAGE_LAYOUT);
    const slot0 = new Uint8Array(32);
    const stored = await a.getStorage(layout, slot0);
    await a.checkpoint();
    await a.checkpoint();
    await a.putStorage(layout, slot0, Uint8Array.of(1));
    await a.commit();
    expect(await a.getStorage(layout, slot0)).toEqual(Uint8Array.of(1));
    await a.checkpoint();
    await a.deleteAccount(layout);
    expect(await a.getAccount(layout)).toBeUndefined();
    expect(await a.getStorage(layout, slot0)).toEqual(new Uint8Array());
    await a.revert();
    expect(await a.getStorage(layout, slot0)).toEqual(Uint8Array.of(1));
    await a.revert();
    expect(await a.getStorage(layout, slot0)).toEqual(stored);
  });

  it('hands out copies: changing a returned account changes nothing', async () => {
    const [a] = await states();
    const account = (await a.getAccount(addr(ACCOUNT0)))!;
    const balance = account.balance;
    account.balance = 1n;
    expect((await a.getAccount(addr(ACCOUNT0)))!.balance).toBe(balance);
    await a.checkpoint();
    const put = new Account(1n, 2n);
    await a.putAccount(addr(ACCOUNT2), put);
    put.balance = 3n;
    expect((await a.getAccount(addr(ACCOUNT2)))!.balance).toBe(2n);
    await a.revert();
  });
});

describe('trieGet', () => {
  it('reads every account and storage value as the MerklePatriciaTrie does, at every block', async () => {
    const nodes = chain.parts().nodes;
    const keccak = (b: Uint8Array) => hexToBytes(keccak256(b));
    const addresses = [
      ACCOUNT0,
      ACCOUNT1,
      ACCOUNT2,
      TOKEN,
      REVERTER,
      STORAGE_LAYOUT,
      GAS_LEFT_ADDRESS,
      '0x00000000000000000000000000000000000000b7',
      '0x' + '12'.repeat(20),
    ].map(addr);
    const slots = [0n, 1n, 2n, 3n, 4n, 5n].map((n) => setLengthLeft(hexToBytes(`0x${n.toString(16).padStart(2, '0')}`), 32));
    for (const who of [ACCOUNT0, ACCOUNT1, ACCOUNT2] as const)
      for (const n of [0n, 1n, 3n]) slots.push(hexToBytes(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [who, n]))));
    let found = 0;
    for (const block of chain.blocks()) {
      const state = await chain.readStateAt(block);
      const root = block.block.header.stateRoot;
      for (const a of addresses) {
        const want = await state['_trie'].get(a.bytes);
        expect(trieGet(nodes, root, keccak(a.bytes))).toEqual(want);
        const account = await state.getAccount(a);
        if (account === undefined) continue;
        const storageTrie = state['_getStorageTrie'](a, account);
        for (const slot of slots) {
          const value = await storageTrie.get(slot);
          if (value !== null) found++;
          expect(trieGet(nodes, account.storageRoot, keccak(slot))).toEqual(value);
        }
      }
    }
    expect(found).toBeGreaterThan(10);
  });
});

describe('CallVms reads shared per root', () => {
  it('answer the same with roots evicted under a small budget, and keep the budget', async () => {
    const source = {
      nodes: chain.parts().nodes,
      prefixCodeHashes: true,
      keccak: (b: Uint8Array) => hexToBytes(keccak256(b)),
      view: chain.view,
      commonAt: (b: MinedBlock) => chain.commonAt(b.number, b.header.timestamp),
    };
    const roomy = new CallVms(source);
    const tight = new CallVms(source, { maxRoots: 3, maxEntries: 6 });
    const addresses = [ACCOUNT0, ACCOUNT1, ACCOUNT2, TOKEN, REVERTER, '0x' + '12'.repeat(20)].map(addr);
    const slots = [0n, 1n, 2n, 3n].map((n) => setLengthLeft(hexToBytes(`0x0${n}`), 32));
    const blocks = [...chain.blocks()];
    // Twice over, in an order that revisits evicted roots.
    for (const block of [...blocks, ...blocks.slice().reverse(), ...blocks]) {
      const want = roomy.readsAt(block);
      const got = tight.readsAt(block);
      expect(tight.cached().roots).toBeLessThanOrEqual(3);
      // Over budget only with the root in use left (a root alone is bounded by its own cap).
      if (tight.cached().roots > 1) expect(tight.cached().entries).toBeLessThanOrEqual(6);
      for (const a of addresses) {
        const key = Buffer.from(a.bytes).toString('hex');
        const account = got.account(a);
        expect(account, `${block.number} ${a}`).toEqual(want.account(a));
        if (account === null) continue;
        for (const slot of slots) expect(got.slot(account, slot, key)).toEqual(want.slot(want.account(a)!, slot, key));
      }
    }
    expect(roomy.cached().roots).toBe(blocks.length);
  });
});
