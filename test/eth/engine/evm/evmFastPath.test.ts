/**
 * The EVM fast path (src/eth/engine/evm) against stock @ethereumjs: the same calls and
 * transactions on an opted-in VM and on an untouched one over the same state give the same output,
 * gas, refunds, logs, created addresses, self-destructs, errors and post-state root, call by call,
 * at every hardfork from Istanbul to Amsterdam.
 */
import { readFileSync } from 'node:fs';
import { createBlock, type Block } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import type { EVMResult } from '@ethereumjs/evm';
import { createLegacyTx } from '@ethereumjs/tx';
import {
  Account,
  bigIntToBytes,
  bytesToBigInt,
  bytesToHex,
  concatBytes,
  createAddressFromString,
  hexToBytes,
  setLengthLeft,
  type Address,
} from '@ethereumjs/util';
import { createVM, runTx, type VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { interpreterPatched, speedUpInterpreter } from '../../../../src/eth/engine/evm/index.js';
import { internals } from '../../../../src/eth/engine/evm/modules.js';
import { wordBytes, wordOf } from '../../../../src/eth/engine/evm/opcodes.js';
import { prng } from '../../../support/prng.js';
import { asm } from './evmAsm.js';

const addr = (n: number) => createAddressFromString('0x' + n.toString(16).padStart(40, '0'));
const RICH = createAddressFromString('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
const POOR = createAddressFromString('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
const [PROXY, PROXY2, STORE, REVERTS, BADJUMP, BADJUMP2, MEM, LOOP, KILL, INFO, TRANSIENT] = [
  0x1001, 0x1002, 0x1003, 0x1004, 0x1005, 0x1006, 0x1007, 0x1008, 0x1009, 0x100a, 0x100b,
].map(addr);
const EMPTY = addr(0xbeef);

/** kind (0 CALL, 1 STATICCALL, 2 DELEGATECALL, 3 CREATE, 4 CREATE2, 5 CALLCODE), target, payload. Stores the result in slot 0, logs it, returns the return data. */
const PROXY_CODE = asm(`
  0x00 CALLDATALOAD 0xf8 SHR 0x01 CALLDATALOAD 0x60 SHR 0x15 CALLDATASIZE SUB DUP1 0x15 0x00 CALLDATACOPY
  DUP3 0x00 EQ @call JUMPI DUP3 0x01 EQ @static JUMPI DUP3 0x02 EQ @delegate JUMPI
  DUP3 0x03 EQ @create JUMPI DUP3 0x04 EQ @create2 JUMPI DUP3 0x05 EQ @callcode JUMPI INVALID
  call: 0x00 0x00 DUP3 0x00 CALLVALUE DUP7 GAS CALL @done JUMP
  callcode: 0x00 0x00 DUP3 0x00 CALLVALUE DUP7 GAS CALLCODE @done JUMP
  static: 0x00 0x00 DUP3 0x00 DUP6 GAS STATICCALL @done JUMP
  delegate: 0x00 0x00 DUP3 0x00 DUP6 GAS DELEGATECALL @done JUMP
  create: DUP1 0x00 CALLVALUE CREATE @done JUMP
  create2: 0x42 DUP2 0x00 CALLVALUE CREATE2 @done JUMP
  done: DUP1 0x00 SSTORE RETURNDATASIZE 0x00 0x00 RETURNDATACOPY DUP1 RETURNDATASIZE 0x00 LOG1 RETURNDATASIZE 0x00 RETURN`);
const CODES = new Map<Address, Uint8Array>([
  [PROXY, PROXY_CODE],
  [PROXY2, PROXY_CODE],
  /** slot(cd[0]) = cd[32], LOG1(topic cd[0]), returns the slot. */
  [STORE, asm('0x20 CALLDATALOAD 0x00 CALLDATALOAD SSTORE 0x00 CALLDATALOAD 0x00 0x00 LOG1 0x00 CALLDATALOAD SLOAD 0x00 MSTORE 0x20 0x00 RETURN')],
  [REVERTS, asm('0x01 0x05 SSTORE 0xdeadbeef 0x00 MSTORE 0x04 0x1c REVERT')],
  [BADJUMP, asm('0x03 JUMP STOP')],
  [BADJUMP2, asm('0x04 JUMP RAW605b00')],
  /** Touches memory at cd[0], returns MSIZE. */
  [MEM, asm('0x00 CALLDATALOAD MLOAD POP MSIZE 0x00 MSTORE 0x20 0x00 RETURN')],
  [LOOP, asm('loop: 0x01 0x01 ADD POP @loop JUMP')],
  [KILL, asm('CALLER SELFDESTRUCT')],
  [
    INFO,
    asm(
      '0x00 CALLDATALOAD EXTCODEHASH 0x00 MSTORE 0x00 CALLDATALOAD BALANCE 0x20 MSTORE 0x00 CALLDATALOAD EXTCODESIZE 0x40 MSTORE 0x01 NUMBER SUB BLOCKHASH 0x60 MSTORE 0x1234 0x02 EXP 0x80 MSTORE 0x40 0x00 KECCAK256 0xa0 MSTORE 0xc0 0x00 RETURN',
    ),
  ],
  [TRANSIENT, asm('0x07 0x01 TSTORE 0x01 TLOAD 0x00 MSTORE 0x20 0x00 RETURN')],
]);

const word = (n: bigint | number) => setLengthLeft(hexToBytes(`0x${BigInt(n).toString(16).padStart(2, '0')}` as Hex), 32);
const via = (kind: number, target: Address, payload: Uint8Array = new Uint8Array()) => concatBytes(Uint8Array.of(kind), target.bytes, payload);
const INIT_OK = asm('0x2a 0x00 SSTORE 0x01 0x1f RETURN');
const INIT_REVERT = asm('0xdead 0x00 MSTORE 0x02 0x1e REVERT');

const artifact = (name: string) => JSON.parse(readFileSync(`chains/contracts/${name}.json`, 'utf8')) as { abi: Abi; bytecode: Hex };
const SOLIDITY = ['Token', 'Reverter', 'Emitter', 'StorageLayout'].map(artifact);
const sol = (i: number, functionName: string, args: unknown[] = []) => hexToBytes(encodeFunctionData({ abi: SOLIDITY[i]!.abi, functionName, args } as never));
/** The addresses RICH's CREATEs at nonces 0..3 land on (the deployments run first). */
let deployed: Address[] = [];
const deployedAt = (i: number) => deployed[i] ?? EMPTY;

interface Step {
  from?: Address;
  to?: Address | (() => Address);
  data?: Uint8Array | (() => Uint8Array);
  value?: bigint;
  gas?: bigint;
}

const STEPS: Step[] = [
  ...SOLIDITY.map((a) => ({ data: hexToBytes(a.bytecode), gas: 10_000_000n })),
  { to: STORE, data: concatBytes(word(1), word(5)) },
  { to: STORE, data: Uint8Array.of(1, 2, 3) },
  { to: STORE, data: concatBytes(word(1), word(0)) },
  { to: STORE, data: concatBytes(word(2), word(9)) },
  { to: PROXY, value: 1000n, data: via(0, STORE, concatBytes(word(3), word(4))) },
  { to: PROXY, data: via(1, STORE, concatBytes(word(3), word(5))) },
  { to: PROXY, data: via(2, STORE, concatBytes(word(3), word(6))) },
  { to: PROXY, value: 5n, data: via(5, STORE, concatBytes(word(4), word(7))) },
  { to: PROXY, value: 7n, data: via(3, EMPTY, INIT_OK) },
  { to: PROXY, data: via(4, EMPTY, INIT_OK) },
  { to: PROXY, data: via(4, EMPTY, INIT_OK) },
  { to: PROXY, data: via(3, EMPTY, INIT_REVERT) },
  { to: PROXY, data: via(0, REVERTS) },
  { to: REVERTS },
  { to: PROXY, data: via(0, PROXY2, via(1, STORE, concatBytes(word(8), word(8)))) },
  { to: PROXY, data: via(1, PROXY2, via(0, STORE, concatBytes(word(8), word(8)))) },
  { to: PROXY, data: via(0, PROXY2, via(0, PROXY, via(2, STORE, concatBytes(word(9), word(1))))) },
  ...[1, 2, 3, 4, 5, 9].map((p) => ({ to: PROXY, data: via(0, addr(p), concatBytes(word(p), word(1), word(1), word(2))) })),
  { to: BADJUMP },
  { to: BADJUMP2 },
  { to: LOOP, gas: 50_000n },
  { to: PROXY, gas: 60_000n, data: via(0, LOOP) },
  { to: MEM, data: word(0x10000) },
  { to: MEM, data: word(1n << 40n) },
  { to: MEM, data: word((1n << 256n) - 1n) },
  { to: STORE, gas: 21_000n, data: concatBytes(word(1), word(5)) },
  { to: INFO, data: () => word(BigInt(deployedAt(0).toString())) },
  { to: INFO, data: word(BigInt(EMPTY.toString())) },
  { to: TRANSIENT },
  { to: PROXY, data: via(0, KILL) },
  { to: KILL, value: 3n },
  { to: EMPTY, value: 10n },
  { from: POOR, to: PROXY, value: 10n ** 30n, data: via(0, STORE) },
  { from: POOR, to: EMPTY, value: 1n },
  { to: () => deployedAt(0), data: sol(0, 'transfer', [POOR.toString(), 5n]) },
  { to: () => deployedAt(0), data: sol(0, 'balanceOf', [POOR.toString()]) },
  { to: () => deployedAt(0), data: sol(0, 'transfer', [POOR.toString(), 10n ** 40n]) },
  ...['revertWithReason', 'revertWithoutData', 'panicAssert', 'increment', 'context', 'succeed'].map((f) => ({ to: () => deployedAt(1), data: sol(1, f) })),
  { to: () => deployedAt(1), gas: 100_000n, data: sol(1, 'burnAllGas') },
  { to: () => deployedAt(1), data: sol(1, 'burnGas', [40n]) },
  { to: () => deployedAt(1), data: sol(1, 'revertWithCustomError', [7n]) },
  { to: () => deployedAt(1), data: sol(1, 'panicOverflow', [(1n << 256n) - 1n]) },
  { to: () => deployedAt(2), data: sol(2, 'emitThreeIndexed', [POOR.toString(), 3n, '0x1234']) },
  { to: () => deployedAt(2), data: sol(2, 'emitFourIndexed', [1n, 2n, 3n, 4n]) },
  { to: () => deployedAt(3), data: sol(3, 'pushItem', [11n]) },
  { to: () => deployedAt(3), data: sol(3, 'setGrid', [1n, 2n, 3n]) },
];

const HARDFORKS = [
  Hardfork.Istanbul,
  Hardfork.Berlin,
  Hardfork.London,
  Hardfork.Shanghai,
  Hardfork.Cancun,
  Hardfork.Prague,
  Hardfork.Osaka,
  Hardfork.Amsterdam,
];

async function makeVm(hardfork: string, fast: boolean): Promise<VM> {
  // A custom keccak, as devgate's chains have (KECCAK256's replacement takes it).
  const vm = await createVM({ common: new Common({ chain: Mainnet, hardfork, customCrypto: { keccak256: keccak_256 } }) });
  if (fast) speedUpInterpreter(vm.evm);
  await vm.stateManager.putAccount(RICH, new Account(0n, 10n ** 24n));
  await vm.stateManager.putAccount(POOR, new Account(0n, 5n));
  for (const [address, code] of CODES) {
    await vm.stateManager.putAccount(address, new Account(0n, 100n));
    await vm.stateManager.putCode(address, code);
  }
  return vm;
}

const blockAt = (common: Common) =>
  createBlock(
    {
      header: {
        number: 300n,
        timestamp: 1_700_000_000n,
        gasLimit: 30_000_000n,
        coinbase: addr(0xc0),
        baseFeePerGas: common.isActivatedEIP(1559) ? 7n : undefined,
      },
    },
    { common },
  );

const hex = (b: Uint8Array | undefined) => (b === undefined ? undefined : bytesToHex(b));
const logsOf = (logs: unknown) => ((logs ?? []) as [Uint8Array, Uint8Array[], Uint8Array][]).map(([a, t, d]) => [hex(a), t.map(hex), hex(d)]);

function outcome(r: EVMResult) {
  const e = r.execResult;
  return {
    error: e.exceptionError?.error,
    out: hex(e.returnValue),
    gasUsed: e.executionGasUsed,
    gasRefund: e.gasRefund,
    logs: logsOf(e.logs),
    created: r.createdAddress?.toString(),
    selfdestruct: [...(e.selfdestruct ?? new Map())],
    createdAddresses: [...(e.createdAddresses ?? new Set())],
  };
}

/** Runs every step on `vm` as evm.runCall (as eth_call does) or as a transaction (as blocks are built); one outcome and state root per step. */
async function runSteps(vm: VM, block: Block, mode: 'call' | 'tx'): Promise<unknown[]> {
  const seen: unknown[] = [];
  deployed = [];
  let nonce = 0n;
  for (const step of STEPS) {
    const from = step.from ?? RICH;
    const to = typeof step.to === 'function' ? step.to() : step.to;
    const data = typeof step.data === 'function' ? step.data() : (step.data ?? new Uint8Array());
    const gasLimit = step.gas ?? 1_000_000n;
    let result: unknown;
    try {
      if (mode === 'call') {
        const r = await vm.evm.runCall({ block, caller: from, origin: from, to, data, value: step.value ?? 0n, gasLimit, gasPrice: 10n });
        if (r.createdAddress && !r.execResult.exceptionError) deployed.push(r.createdAddress);
        result = outcome(r);
      } else {
        const tx = createLegacyTx(
          { nonce: from === RICH ? nonce++ : 0n, gasLimit, gasPrice: 10n, to, value: step.value ?? 0n, data },
          { common: vm.common, freeze: false },
        );
        tx.getSenderAddress = () => from;
        const r = await runTx(vm, { tx, block, skipNonce: true, skipBalance: from === POOR, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
        if (r.createdAddress && !r.execResult.exceptionError) deployed.push(r.createdAddress);
        result = { ...outcome(r), totalGasSpent: r.totalGasSpent, txRefund: r.gasRefund, receiptLogs: logsOf(r.receipt.logs) };
      }
    } catch (e) {
      result = { thrown: String(e) };
    }
    seen.push({ result, root: hex(await vm.stateManager.getStateRoot()) });
  }
  return seen;
}

describe('EVM fast path', () => {
  it('is in place', () => {
    expect(interpreterPatched).toBe(true);
  });

  for (const hardfork of HARDFORKS) {
    for (const mode of ['call', 'tx'] as const) {
      it(`gives stock @ethereumjs's results at ${hardfork} (${mode})`, async () => {
        const steps: Record<string, number> = { stock: 0, fast: 0 };
        const proto = internals!.Interpreter.prototype as unknown as { runStep(this: { _evm: unknown }, o: unknown): Promise<void> };
        const runStep = proto.runStep;
        const [stock, fast] = [await makeVm(hardfork, false), await makeVm(hardfork, true)];
        proto.runStep = function (o) {
          steps[this._evm === fast.evm ? 'fast' : 'stock']!++;
          return runStep.call(this, o);
        };
        try {
          const block = blockAt(stock.common);
          const expected = await runSteps(stock, block, mode);
          const actual = await runSteps(fast, block, mode);
          for (let i = 0; i < STEPS.length; i++) expect({ step: i, ...(actual[i] as object) }).toEqual({ step: i, ...(expected[i] as object) });
          // The shipped contracts use PUSH0.
          if (stock.common.gteHardfork(Hardfork.Shanghai)) expect(deployed).toHaveLength(4);
        } finally {
          proto.runStep = runStep;
        }
        expect(steps.stock).toBeGreaterThan(1000);
        expect(steps.fast).toBe(0);
      });
    }
  }

  it("turns words into MSTORE's bytes as @ethereumjs does", async () => {
    const rand = prng(11);
    const words = [0n, 1n, 0xffn, 0x100n, (1n << 64n) - 1n, 1n << 64n, (1n << 128n) + 5n, (1n << 192n) - 1n, 1n << 255n, (1n << 256n) - 1n];
    for (let i = 0; i < 2000; i++) {
      let w = 0n;
      for (let limb = 0; limb < 8; limb++) w = (w << 32n) | BigInt(Math.floor(rand() * 2 ** 32));
      words.push(w >> BigInt(Math.floor(rand() * 256)));
    }
    for (const w of words) expect(bytesToHex(wordBytes(w))).toBe(bytesToHex(setLengthLeft(bigIntToBytes(w), 32)));
    for (const w of [-1n, 1n << 256n]) expect(() => wordBytes(w)).toThrow();
    const fast = await makeVm(Hardfork.Prague, true);
    const stock = await makeVm(Hardfork.Prague, false);
    const mstore = (vm: VM) => (vm.evm as unknown as { _opcodeMap: { opHandler: unknown }[] })._opcodeMap[0x52]!.opHandler;
    expect(mstore(stock)).toBe(internals!.handlers.get(0x52));
    expect(mstore(fast)).not.toBe(internals!.handlers.get(0x52));
  });

  it('turns bytes into words (MLOAD, CALLDATALOAD, SLOAD, KECCAK256) as @ethereumjs does', async () => {
    const rand = prng(12);
    const inputs = [
      new Uint8Array(32),
      new Uint8Array(32).fill(255),
      new Uint8Array(0),
      Uint8Array.of(7),
      new Uint8Array(31).fill(1),
      new Uint8Array(33).fill(2),
    ];
    for (let i = 0; i < 2000; i++) {
      const b = new Uint8Array(32);
      const from = Math.floor(rand() * 33);
      for (let j = from; j < 32; j++) b[j] = Math.floor(rand() * 256);
      inputs.push(b);
    }
    for (const b of inputs) expect(wordOf(b)).toBe(bytesToBigInt(b));
    const fast = await makeVm(Hardfork.Prague, true);
    const stock = await makeVm(Hardfork.Prague, false);
    const handler = (vm: VM, op: number) => (vm.evm as unknown as { _opcodeMap: { opHandler: unknown }[] })._opcodeMap[op]!.opHandler;
    for (const op of [0x00, 0x20, 0x35, 0x51, 0x54, 0xf3]) {
      expect(handler(stock, op)).toBe(internals!.handlers.get(op));
      expect(handler(fast, op)).not.toBe(internals!.handlers.get(op));
    }
  });

  it('charges gas through synchronous handlers for MLOAD, MSTORE, KECCAK256, SLOAD and RETURN', async () => {
    const fast = await makeVm(Hardfork.Prague, true);
    const stock = await makeVm(Hardfork.Prague, false);
    const gasHandler = (vm: VM, op: number) => (vm.evm as unknown as { _opcodeMap: { gasHandler: unknown }[] })._opcodeMap[op]!.gasHandler;
    for (const op of [0x20, 0x51, 0x52, 0x54, 0xf3]) {
      expect(gasHandler(stock, op)).toBe(internals!.gasHandlers.get(op));
      expect(gasHandler(fast, op)).not.toBe(internals!.gasHandlers.get(op));
    }
  });

  it('hands frames with a step listener to the stock interpreter, with the same results', async () => {
    const [stock, fast] = [await makeVm(Hardfork.Prague, false), await makeVm(Hardfork.Prague, true)];
    const block = blockAt(stock.common);
    const seen = { stock: 0, fast: 0 };
    stock.evm.events!.on('step', () => seen.stock++);
    fast.evm.events!.on('step', () => seen.fast++);
    expect(await runSteps(fast, block, 'call')).toEqual(await runSteps(stock, block, 'call'));
    expect(seen.fast).toBe(seen.stock);
    expect(seen.fast).toBeGreaterThan(1000);
  });
});
