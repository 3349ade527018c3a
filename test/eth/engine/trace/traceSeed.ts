/**
 * The chain of the tracing tests: the shipped Token, Reverter and Emitter, and a proxy (its code in genesis) that
 * calls a target by CALL, STATICCALL, DELEGATECALL, CALLCODE, CREATE or CREATE2 (calldata: kind byte, target
 * address, payload), stores the result in slot 0, logs it and returns the return data. Block 2 holds transactions
 * of every shape a trace shows: plain transfers, calls with logs, top-level and inner reverts with reasons, panics,
 * nested creates, a static call, a delegate call, and one that runs out of gas.
 */
import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { encodeFunctionData, parseAbi, type Hex } from 'viem';
import { asm } from '../evm/evmAsm.js';

export const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
export const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
export const REVERTER = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
export const EMITTER = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
export const PROXY = '0x0000000000000000000000000000000000001001';
export const COINBASE = '0x00000000000000000000000000000000000000cb';
/** Code `PUSH1 1 ADD`: a stack underflow at its second opcode. */
export const UNDERFLOW = '0x0000000000000000000000000000000000001002';

/** kind (0 CALL, 1 STATICCALL, 2 DELEGATECALL, 3 CREATE, 4 CREATE2, 5 CALLCODE), target, payload. */
export const PROXY_CODE = asm(`
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

const abi = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address holder) view returns (uint256)',
  'function revertWithReason()',
  'function panicDivisionByZero(uint256 divisor) returns (uint256)',
  'function increment() returns (uint256)',
  'function burnGas(uint256 rounds) returns (bytes32)',
  'function emitMany(uint256 n)',
]);
export const encode = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args } as never) as Hex;
const strip = (h: string) => h.slice(2);
/** Proxy calldata: kind, target, payload. */
export const viaProxy = (kind: number, target: string, payload: string = '0x') => `0x0${kind}${strip(target)}${strip(payload)}`;
/** Init code that stores 42 in slot 0 and deploys one byte (0x2a). */
export const INIT_OK = bytesToHex(asm('0x2a 0x00 SSTORE 0x01 0x1f RETURN'));

export function traceSeed(hardfork = 'osaka'): Record<string, unknown> {
  return {
    name: 'trace',
    kind: 'eth',
    chainId: 1337,
    hardfork,
    genesis: { timestamp: '0x6553f100', gasLimit: '0x1c9c380' },
    alloc: { [PROXY]: { code: bytesToHex(PROXY_CODE), balance: '0x0' }, [UNDERFLOW]: { code: '0x600101' } },
    blocks: [
      { transactions: [{ artifact: 'Token' }, { artifact: 'Reverter' }, { artifact: 'Emitter' }] },
      {
        coinbase: COINBASE,
        transactions: [
          { to: ACCOUNT1, value: '0x2a' },
          { to: TOKEN, data: encode('transfer', [ACCOUNT1, 1000n]) },
          { to: EMITTER, data: encode('emitMany', [3n]) },
          { to: REVERTER, data: encode('revertWithReason'), gas: 60000 },
          { to: REVERTER, data: encode('panicDivisionByZero', [0n]), gas: 60000 },
          { to: PROXY, data: viaProxy(0, REVERTER, encode('revertWithReason')), gas: 200000 },
          { to: PROXY, data: viaProxy(0, EMITTER, encode('emitMany', [2n])), gas: 300000 },
          { to: PROXY, data: viaProxy(1, TOKEN, encode('balanceOf', [ACCOUNT0])), gas: 200000 },
          { to: PROXY, data: viaProxy(2, REVERTER, encode('increment')), gas: 200000 },
          { to: PROXY, data: viaProxy(5, REVERTER, encode('increment')), gas: 200000 },
          { to: PROXY, data: viaProxy(3, '0x' + '00'.repeat(20), INIT_OK), gas: 300000 },
          { to: PROXY, data: viaProxy(4, '0x' + '00'.repeat(20), INIT_OK), value: '0x5', gas: 300000 },
          { to: PROXY, data: viaProxy(0, PROXY, viaProxy(0, TOKEN, encode('transfer', [ACCOUNT1, 5n]))), gas: 300000 },
          { to: PROXY, data: viaProxy(0, '0x0000000000000000000000000000000000000002', '0xdeadbeef'), gas: 100000 },
          { to: REVERTER, data: encode('burnGas', [500n]), gas: 25000 },
          { to: REVERTER, data: encode('increment'), type: 0 },
        ],
      },
      { transactions: [] },
    ],
  };
}

export const hex = (h: string) => hexToBytes(h as PrefixedHexString);
