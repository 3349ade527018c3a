/**
 * Precompile failures in geth's words (evm/precompiles.ts wraps EVM.prototype.runPrecompile), on a stock @ethereumjs
 * EVM: MODEXP's EIP-7823 size cap answers bigModExp.Run's text only once its gas (geth's osakaModexpGas, checked first
 * by RunPrecompiledContract) is paid, and out of gas below it; BLAKE2F as blake2F.Run (core/vm/contracts.go).
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { concatBytes, createAddressFromString, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import '../../../../src/eth/engine/evm/precompiles.js';

const MODEXP = createAddressFromString('0x0000000000000000000000000000000000000005');
const BLAKE2F = createAddressFromString('0x0000000000000000000000000000000000000009');
const len = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);

describe('precompile texts', () => {
  it("MODEXP over 1,024 bytes: out of gas below its gas, geth's cap text at it; prague (no cap) as before", async () => {
    const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Osaka }) });
    // base 1,025 bytes, exponent 0x03 (1 byte), modulus 1 byte: 2 * ceil(1025 / 8)^2 * max(1, bitlen(3) - 1) = 33,282 gas.
    const data = concatBytes(len(1025n), len(1n), len(1n), new Uint8Array(1025).fill(7), Uint8Array.of(3, 5));
    const run = async (gasLimit: bigint) => (await evm.runCall({ to: MODEXP, data, gasLimit })).execResult;
    const below = await run(33_281n);
    expect(below.exceptionError?.error).toBe('out of gas');
    const at = await run(33_282n);
    expect(at.exceptionError?.error).toBe('one or more of base/exponent/modulus length exceeded 1024 bytes');
    expect(at.executionGasUsed).toBe(33_282n);
    // A long exponent: 16 * (eLen - 32) + bitlen(head) - 1 iterations (a 40-byte exponent of 0x01 bytes: 128 + 248).
    const longExp = concatBytes(len(1025n), len(40n), len(1n), new Uint8Array(1025), new Uint8Array(40).fill(1), Uint8Array.of(5));
    const gas = 33_282n * (16n * 8n + 248n);
    expect((await evm.runCall({ to: MODEXP, data: longExp, gasLimit: gas - 1n })).execResult.exceptionError?.error).toBe('out of gas');
    expect((await evm.runCall({ to: MODEXP, data: longExp, gasLimit: gas })).execResult.exceptionError?.error).toBe(
      'one or more of base/exponent/modulus length exceeded 1024 bytes',
    );
    const prague = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) });
    expect((await prague.runCall({ to: MODEXP, data, gasLimit: 10_000_000n })).execResult.exceptionError).toBeUndefined();
  });

  it('BLAKE2F: invalid input length, invalid final flag', async () => {
    const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Osaka }) });
    const short = await evm.runCall({ to: BLAKE2F, data: Uint8Array.of(0), gasLimit: 100_000n });
    expect(short.execResult.exceptionError?.error).toBe('invalid input length');
    const flag = concatBytes(new Uint8Array(212), Uint8Array.of(2));
    expect((await evm.runCall({ to: BLAKE2F, data: flag, gasLimit: 100_000n })).execResult.exceptionError?.error).toBe('invalid final flag');
  });
});
