/**
 * Frames of opted-in EVMs run on memories that ended frames gave back (src/eth/engine/evm/frame.ts): a frame must
 * read such a memory as a fresh one (all zero, MSIZE from 0), whatever the frame before wrote there, nested or not,
 * and what a frame returned must not change when its memory is used again.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { Account, bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { memoryPool } from '../../../../src/eth/engine/evm/frame.js';
import { speedUpInterpreter } from '../../../../src/eth/engine/evm/index.js';
import { asm } from './evmAsm.js';

const addr = (n: number) => createAddressFromString('0x' + n.toString(16).padStart(40, '0'));
const [DIRTY, READ, PARENT, BIG, READBIG] = [0x2001, 0x2002, 0x2003, 0x2004, 0x2005].map(addr);
const CALLER = addr(0xca11);
const ONES = '0x' + 'ff'.repeat(32);
const CODES = new Map([
  /** Fills the first and last word of the fresh 8 KB store with ones, returns the first. */
  [DIRTY, asm(`${ONES} 0x00 MSTORE ${ONES} 0x1fe0 MSTORE 0x20 0x00 RETURN`)],
  /** Returns MSIZE before it reads, the word at 0x1fe0 and the word at 0 (three words). */
  [READ, asm('MSIZE 0x1fe0 MLOAD 0x00 MLOAD 0x00 MSTORE 0x20 MSTORE 0x40 MSTORE 0x60 0x00 RETURN')],
  /** Dirties its own memory, then returns what READ answers when called from it. */
  [PARENT, asm(`${ONES} 0x00 MSTORE ${ONES} 0x1fe0 MSTORE 0x60 0x00 0x00 0x00 ${READ.toString()} GAS STATICCALL POP 0x60 0x00 RETURN`)],
  /** Grows memory past 8 KB and writes there. */
  [BIG, asm(`${ONES} 0x3000 MSTORE STOP`)],
  /** Returns MSIZE before it reads and the word at 0x3000. */
  [READBIG, asm('MSIZE 0x3000 MLOAD 0x00 MSTORE 0x20 MSTORE 0x40 0x00 RETURN')],
]);

async function makeVm(fast: boolean): Promise<VM> {
  const vm = await createVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Cancun, customCrypto: { keccak256: keccak_256 } }) });
  if (fast) speedUpInterpreter(vm.evm);
  for (const [address, code] of CODES) {
    await vm.stateManager.putAccount(address, new Account());
    await vm.stateManager.putCode(address, code);
  }
  return vm;
}

const call = async (vm: VM, to: typeof DIRTY) => {
  const r = await vm.evm.runCall({ caller: CALLER, origin: CALLER, to, gasLimit: 1_000_000n });
  return { out: r.execResult.returnValue, gas: r.execResult.executionGasUsed, error: r.execResult.exceptionError?.error };
};
const words = (...w: bigint[]) => '0x' + w.map((x) => x.toString(16).padStart(64, '0')).join('');

describe('memory reused across frames', () => {
  it('reads as fresh memory after a frame that wrote it, at the top and nested, as stock does', async () => {
    const [stock, fast] = [await makeVm(false), await makeVm(true)];
    const before = memoryPool.reused;
    const seen: Record<'stock' | 'fast', unknown[]> = { stock: [], fast: [] };
    for (const [name, vm] of [
      ['stock', stock],
      ['fast', fast],
    ] as const) {
      const dirty = await call(vm, DIRTY);
      const read = await call(vm, READ);
      await call(vm, DIRTY);
      const nested = await call(vm, PARENT);
      await call(vm, BIG);
      const big = await call(vm, READBIG);
      seen[name] = [dirty, read, nested, big].map((r) => ({ ...r, out: bytesToHex(r.out) }));
      // What DIRTY returned is its own bytes, not a view of a memory used again since.
      expect(bytesToHex(dirty.out)).toBe(ONES);
      expect(bytesToHex(read.out)).toBe(words(0n, 0n, 0n));
      expect(bytesToHex(nested.out)).toBe(words(0n, 0n, 0n));
      expect(bytesToHex(big.out)).toBe(words(0n, 0n));
    }
    expect(seen.fast).toEqual(seen.stock);
    // The fast VM's frames ran on given-back memories (the test would prove nothing otherwise).
    expect(memoryPool.reused - before).toBeGreaterThanOrEqual(5);
  });

  it('two VMs running at once each read fresh memory', async () => {
    const [a, b] = [await makeVm(true), await makeVm(true)];
    const run = async (vm: VM) => {
      const out: string[] = [];
      for (let i = 0; i < 20; i++) {
        await call(vm, DIRTY);
        out.push(bytesToHex((await call(vm, i % 2 === 0 ? READ : PARENT)).out));
      }
      return out;
    };
    const [ra, rb] = await Promise.all([run(a), run(b)]);
    for (const out of [...ra, ...rb]) expect(out).toBe(words(0n, 0n, 0n));
  });
});
