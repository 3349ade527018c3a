/** A bare @ethereumjs EVM to run the committed artifacts in: deploy, call, read storage. */
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM, type EVMMockBlockchainInterface, type Log } from '@ethereumjs/evm';
import { Address, bytesToHex, hexToBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import type { Artifact } from '../../scripts/compile-contracts.js';

const CONTRACTS_DIR = fileURLToPath(new URL('../../chains/contracts/', import.meta.url));

export function loadArtifact(name: string): Artifact & { abi: Abi; bytecode: Hex; deployedBytecode: Hex } {
  return JSON.parse(readFileSync(join(CONTRACTS_DIR, `${name}.json`), 'utf8'));
}

export const alice = new Address(hexToBytes('0x00000000000000000000000000000000000a11ce'));
export const bob = new Address(hexToBytes('0x0000000000000000000000000000000000000b0b'));

/** The block the calls run in; BLOCKHASH(n) of the harness is keccak-free: 32 bytes of (n + 1). */
export const block = {
  header: {
    number: 1234n,
    coinbase: new Address(hexToBytes('0x00000000000000000000000000000000c0ffee00')),
    timestamp: 1_700_000_000n,
    difficulty: 0n,
    prevRandao: new Uint8Array(32),
    gasLimit: 30_000_000n,
    baseFeePerGas: 7n,
    getBlobGasPrice: () => undefined,
  },
};

export function fakeBlockHash(n: number): Uint8Array {
  return setLengthLeft(hexToBytes(`0x${(n + 1).toString(16).padStart(2, '0')}` as PrefixedHexString), 32);
}

const blockchain: EVMMockBlockchainInterface = {
  getBlock: async (n: number) => ({ hash: () => fakeBlockHash(n) }),
  putBlock: async () => {},
  shallowCopy: () => blockchain,
};

export interface CallOutcome {
  ok: boolean;
  returnData: Hex;
  gasUsed: bigint;
  logs: Log[];
  error?: string;
}

export class Harness {
  private constructor(readonly evm: EVM) {}

  static async create(hardfork: Hardfork = Hardfork.Paris, chainId = 1): Promise<Harness> {
    const common = createCustomCommon({ chainId }, Mainnet, { hardfork });
    return new Harness(await createEVM({ common, blockchain }));
  }

  /** Deploys an artifact's creation code from `from` and returns the new contract's address. */
  async deploy(name: string, from: Address = alice): Promise<Address> {
    const r = await this.evm.runCall({ caller: from, origin: from, data: hexToBytes(loadArtifact(name).bytecode), gasLimit: 10_000_000n, block });
    if (r.execResult.exceptionError || !r.createdAddress) throw new Error(`deploying ${name} failed: ${r.execResult.exceptionError?.error}`);
    return r.createdAddress;
  }

  async call(
    to: Address,
    data: Hex,
    opts: { from?: Address; gasLimit?: bigint; value?: bigint; gasPrice?: bigint; number?: bigint } = {},
  ): Promise<CallOutcome> {
    const from = opts.from ?? alice;
    const r = await this.evm.runCall({
      caller: from,
      origin: from,
      to,
      data: hexToBytes(data),
      value: opts.value ?? 0n,
      gasLimit: opts.gasLimit ?? 10_000_000n,
      gasPrice: opts.gasPrice ?? 0n,
      block: opts.number === undefined ? block : { header: { ...block.header, number: opts.number } },
    });
    const e = r.execResult;
    return {
      ok: e.exceptionError === undefined,
      returnData: bytesToHex(e.returnValue) as Hex,
      gasUsed: e.executionGasUsed,
      logs: e.logs ?? [],
      error: e.exceptionError?.error,
    };
  }

  /** Calls a function by name with the contract's ABI. */
  async invoke(artifact: string, to: Address, functionName: string, args: unknown[] = [], opts: Parameters<Harness['call']>[2] = {}): Promise<CallOutcome> {
    const data = encodeFunctionData({ abi: loadArtifact(artifact).abi, functionName, args } as never);
    return this.call(to, data, opts);
  }

  /** The 32-byte word at a storage position, as a bigint. */
  async storageAt(address: Address, position: Hex | bigint): Promise<bigint> {
    const key =
      typeof position === 'bigint' ? setLengthLeft(hexToBytes(`0x${position.toString(16).padStart(2, '0')}` as PrefixedHexString), 32) : hexToBytes(position);
    const value = await this.evm.stateManager.getStorage(address, key);
    return value.length === 0 ? 0n : BigInt(bytesToHex(value));
  }
}

/** The opcodes of code, skipping PUSH data and the trailing CBOR metadata. */
export function opcodes(code: Hex): number[] {
  const bytes = hexToBytes(code);
  const metadataLength = (bytes[bytes.length - 2]! << 8) + bytes[bytes.length - 1]!;
  const end = bytes.length - 2 - metadataLength;
  const ops: number[] = [];
  for (let i = 0; i < end; i++) {
    const op = bytes[i]!;
    ops.push(op);
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
  }
  return ops;
}
