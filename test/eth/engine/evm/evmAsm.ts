/**
 * A tiny EVM assembler for tests: opcode names, hex literals (pushed with the shortest PUSHn),
 * `name:` for a JUMPDEST and `@name` for a PUSH2 of its position.
 */
const OPS: Record<string, number> = {
  STOP: 0x00,
  ADD: 0x01,
  MUL: 0x02,
  SUB: 0x03,
  DIV: 0x04,
  EXP: 0x0a,
  LT: 0x10,
  GT: 0x11,
  EQ: 0x14,
  ISZERO: 0x15,
  SHR: 0x1c,
  KECCAK256: 0x20,
  ADDRESS: 0x30,
  BALANCE: 0x31,
  CALLER: 0x33,
  CALLVALUE: 0x34,
  CALLDATALOAD: 0x35,
  CALLDATASIZE: 0x36,
  CALLDATACOPY: 0x37,
  CODESIZE: 0x38,
  EXTCODESIZE: 0x3b,
  RETURNDATASIZE: 0x3d,
  RETURNDATACOPY: 0x3e,
  EXTCODEHASH: 0x3f,
  BLOCKHASH: 0x40,
  NUMBER: 0x43,
  SELFBALANCE: 0x47,
  POP: 0x50,
  MLOAD: 0x51,
  MSTORE: 0x52,
  MSTORE8: 0x53,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMP: 0x56,
  JUMPI: 0x57,
  PC: 0x58,
  MSIZE: 0x59,
  GAS: 0x5a,
  JUMPDEST: 0x5b,
  TLOAD: 0x5c,
  TSTORE: 0x5d,
  MCOPY: 0x5e,
  PUSH0: 0x5f,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP3: 0x82,
  DUP4: 0x83,
  DUP5: 0x84,
  DUP6: 0x85,
  DUP7: 0x86,
  SWAP1: 0x90,
  SWAP2: 0x91,
  LOG0: 0xa0,
  LOG1: 0xa1,
  LOG2: 0xa2,
  CREATE: 0xf0,
  CALL: 0xf1,
  CALLCODE: 0xf2,
  RETURN: 0xf3,
  DELEGATECALL: 0xf4,
  CREATE2: 0xf5,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
  INVALID: 0xfe,
  SELFDESTRUCT: 0xff,
};

/** Assembles `source` (whitespace-separated tokens) into bytecode. */
export function asm(source: string): Uint8Array {
  const tokens = source.trim().split(/\s+/);
  const out: number[] = [];
  const labels = new Map<string, number>();
  const fixups: [number, string][] = [];
  for (const token of tokens) {
    if (token.endsWith(':')) {
      labels.set(token.slice(0, -1), out.length);
      out.push(OPS.JUMPDEST!);
    } else if (token.startsWith('@')) {
      out.push(0x61);
      fixups.push([out.length, token.slice(1)]);
      out.push(0, 0);
    } else if (token.startsWith('0x')) {
      const hex = token.slice(2).length % 2 === 0 ? token.slice(2) : '0' + token.slice(2);
      const bytes = Buffer.from(hex, 'hex');
      out.push(0x5f + bytes.length, ...bytes);
    } else if (token.startsWith('RAW')) {
      out.push(...Buffer.from(token.slice(3), 'hex'));
    } else {
      const op = OPS[token];
      if (op === undefined) throw new Error(`unknown opcode ${token}`);
      out.push(op);
    }
  }
  for (const [at, name] of fixups) {
    const pos = labels.get(name);
    if (pos === undefined) throw new Error(`unknown label ${name}`);
    out[at] = pos >> 8;
    out[at + 1] = pos & 0xff;
  }
  return Uint8Array.from(out);
}
