/** Hand-written contracts of the tracing-gap tests (issue 17): block-field reader, self-destructors, failing calls. */
import { bytesToHex } from '@ethereumjs/util';
import { asm } from '../evm/evmAsm.js';

/** Returns 8 words: NUMBER, TIMESTAMP, GASLIMIT, COINBASE, PREVRANDAO, BASEFEE, BLOBBASEFEE, BLOCKHASH(calldata word 0). */
export const BLOCK_READER_CODE =
  `0x${['435f52', '42602052', '45604052', '41606052', '44608052', '4860a052', '4a60c052', '5f354060e052', '6101005ff3'].join('')}` as const;

/** SELFDESTRUCT to the address in calldata word 0. */
export const SD = '0x0000000000000000000000000000000000005d01';
/** Like SD, with its own balance: called from FWD. */
export const SD2 = '0x0000000000000000000000000000000000005d02';
/** Calls SD2 (CALL, 0xffff gas) with its own calldata word 0. */
export const FWD = '0x0000000000000000000000000000000000005d03';
/** With no balance: CALLs the address in calldata word 0 with 256 wei, 0x1000 gas and 4 zero bytes of input. */
export const SPENDER = '0x0000000000000000000000000000000000005d04';
/** With no balance: CREATEs with 256 wei and two bytes of init code. */
export const POOR_CREATOR = '0x0000000000000000000000000000000000005d05';
/** CREATE2 twice with the same salt and empty init code: the second collides. */
export const TWICE = '0x0000000000000000000000000000000000005d06';
/** Calls itself with all its gas but 64 until the call depth limit stops it. */
export const RECURSE = '0x0000000000000000000000000000000000005d07';
/** The beneficiary of the self-destructs (an empty account). */
export const HEIR = '0x000000000000000000000000000000000000beef';

const word = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;

/**
 * A chain (block 1) of transactions whose traces hold the frames @ethereumjs makes no message for: SELFDESTRUCT at
 * the top and in a nested frame, and in the init code of a creation; a CALL and a CREATE with more value than their
 * caller holds; from Constantinople a CREATE2 collision; at Homestead (no EIP-150: a call passes all the gas asked) a
 * recursion to the call depth limit.
 */
export function framesSeed(hardfork: string): Record<string, unknown> {
  const constantinople = !['homestead', 'tangerineWhistle', 'spuriousDragon', 'byzantium'].includes(hardfork);
  const code = (source: string) => bytesToHex(asm(source));
  const alloc: Record<string, { code: string; balance: string }> = {
    [SD]: { code: code('0x00 CALLDATALOAD SELFDESTRUCT'), balance: '0x1234' },
    [SD2]: { code: code('0x00 CALLDATALOAD SELFDESTRUCT'), balance: '0x99' },
    [FWD]: { code: code(`0x00 CALLDATALOAD 0x00 MSTORE 0x00 0x00 0x20 0x00 0x00 ${SD2} 0xffff CALL 0x00 SSTORE STOP`), balance: '0x0' },
    [SPENDER]: { code: code('0x00 0x00 0x04 0x00 0x0100 0x00 CALLDATALOAD 0x1000 CALL 0x00 SSTORE STOP'), balance: '0x0' },
    [POOR_CREATOR]: { code: code('0x01 0x00 0x0100 CREATE 0x00 SSTORE STOP'), balance: '0x0' },
    [RECURSE]: { code: code('0x00 0x00 0x00 0x00 0x00 ADDRESS 0x40 GAS SUB CALL STOP'), balance: '0x0' },
  };
  if (constantinople) alloc[TWICE] = { code: code('0x42 0x00 0x00 0x00 CREATE2 POP 0x42 0x00 0x00 0x00 CREATE2 0x00 SSTORE STOP'), balance: '0x0' };
  const transactions: Record<string, unknown>[] = [
    { to: FWD, data: word(HEIR), gas: 100000 },
    { to: SD, data: word(HEIR), gas: 100000 },
    { to: SPENDER, data: word(HEIR), gas: 100000 },
    { to: POOR_CREATOR, gas: 200000 },
    { data: '0x33ff', value: '0x10', gas: 100000 },
  ];
  if (constantinople) transactions.push({ to: TWICE, gas: 300000 });
  if (hardfork === 'homestead') transactions.push({ to: RECURSE, gas: 1000000 });
  return {
    name: 'frames',
    kind: 'eth',
    chainId: 1337,
    hardfork,
    genesis: { timestamp: '0x6553f100', gasLimit: '0x1c9c380' },
    alloc,
    blocks: [{ transactions }, { transactions: [] }],
  };
}
