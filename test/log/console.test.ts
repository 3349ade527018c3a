/**
 * console.log decoding: the signature table is generated from hardhat's console.sol (scripts/console-signatures.ts)
 * and names the same selectors and argument types as hardhat's own decoder table; the text follows foundry's
 * console_format (format specifiers in a leading string, the rest spaced; checksummed addresses, hex bytes).
 */
import { createRequire } from 'node:module';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { encodeFunctionData, parseAbiItem, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { consoleSignaturesFile } from '../../scripts/console-signatures.js';
import { readFileSync } from 'node:fs';
import { CONSOLE_SIGNATURES } from '../../src/log/consoleSignatures.js';
import { consoleLogText } from '../../src/log/console.js';
import { blockTime } from '../../src/log/nodeLog.js';

const require = createRequire(import.meta.url);

describe('console.log decoding', () => {
  it('has the table the script makes from console.sol now', () => {
    expect(readFileSync('src/log/consoleSignatures.ts', 'utf8')).toBe(consoleSignaturesFile());
  });

  it("names the selectors and types of hardhat's own table", () => {
    const { CONSOLE_LOG_SIGNATURES } = require('hardhat/internal/hardhat-network/stack-traces/logger.js') as {
      CONSOLE_LOG_SIGNATURES: Record<number, string[]>;
    };
    const ours = Object.fromEntries(
      CONSOLE_SIGNATURES.map((s) => {
        const h = keccak_256(new TextEncoder().encode(s));
        const types = s
          .slice(s.indexOf('(') + 1, -1)
          .split(',')
          .filter(Boolean);
        return [String(((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0), types.map((t) => t.replace(/^./, (c) => c.toUpperCase()))];
      }),
    );
    expect(Object.keys(ours)).toHaveLength(375);
    expect(ours).toEqual(Object.fromEntries(Object.entries(CONSOLE_LOG_SIGNATURES).map(([k, v]) => [k, v])));
  });

  const text = (signature: string, args: unknown[]) =>
    consoleLogText(Buffer.from(encodeFunctionData({ abi: [parseAbiItem(`function ${signature}`)], args } as never).slice(2), 'hex'));

  it('formats as foundry does', () => {
    expect(text('log(string,address)', ['deployed by %s', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'])).toBe(
      'deployed by 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    );
    expect(text('log(string,uint256)', ['set', 42n])).toBe('set 42');
    expect(text('log(int256)', [-5n])).toBe('-5');
    expect(text('log(string,uint256)', ['%x %d%%', 255n])).toBe('0xff %d%');
    expect(text('log(bytes32)', [`0x${'00'.repeat(31)}2a` as Hex])).toBe(`0x${'00'.repeat(31)}2a`);
    expect(text('log(bool,string)', [false, 'x'])).toBe('false x');
    expect(text('log()', [])).toBe('');
  });

  it('answers undefined for calldata that is not a console.log', () => {
    expect(consoleLogText(new Uint8Array([1, 2, 3, 4]))).toBeUndefined();
    expect(consoleLogText(Buffer.from('41304fac', 'hex'))).toBeUndefined();
  });

  it("prints block times as anvil (chrono's RFC 2822, day unpadded)", () => {
    expect(blockTime(1795872222n)).toBe('Sat, 28 Nov 2026 13:23:42 +0000');
    // chrono's own example: "Tue, 1 Jul 2003 10:52:37 +0200".
    expect(blockTime(1793491200n)).toBe('Sun, 1 Nov 2026 00:00:00 +0000');
  });
});
