/**
 * The active precompiles of an @ethereumjs EVM, swapped for one run: state overrides may move a precompile to
 * another address or remove it (geth's movePrecompileToAddress, and any override of a precompile's address).
 * @ethereumjs keeps them in the private `_precompiles` map (address as 40 hex digits, no 0x), which `getPrecompile`
 * and runTx's warm set read; the swap puts a private copy there and restore() puts the original back.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { EVM, EVMError, getActivePrecompiles, type EVMInterface } from '@ethereumjs/evm';

type PrecompileFn = unknown;

/**
 * The swapped map: lookups (getPrecompile) see the moves and removals; iteration (what runTx warms for EIP-2929)
 * still gives the hardfork's own precompiles, as geth warms vm.ActivePrecompiles(rules) whatever the overrides.
 */
class SwappedPrecompiles extends Map<string, PrecompileFn> {
  constructor(private readonly stock: Map<string, PrecompileFn>) {
    super(stock);
  }

  override entries(): MapIterator<[string, PrecompileFn]> {
    return this.stock.entries();
  }

  override keys(): MapIterator<string> {
    return this.stock.keys();
  }
}

export interface PrecompileSwap {
  get(address: string): PrecompileFn | undefined;
  set(address: string, fn: PrecompileFn): void;
  delete(address: string): void;
  /** Puts the EVM's own map back (idempotent). */
  restore(): void;
}

/** A copy-on-write swap of `evm`'s active precompiles (keys: 40 lowercase hex digits, no 0x). */
export function swapPrecompiles(evm: EVMInterface): PrecompileSwap {
  const host = evm as unknown as { _precompiles: Map<string, PrecompileFn> };
  const original = host._precompiles;
  let copy: Map<string, PrecompileFn> | undefined;
  const own = () => {
    if (copy === undefined) host._precompiles = copy = new SwappedPrecompiles(original);
    return copy;
  };
  return {
    get: (address) => (copy ?? original).get(address),
    set: (address, fn) => void own().set(address, fn),
    delete: (address) => void own().delete(address),
    restore: () => {
      if (copy !== undefined) host._precompiles = original;
    },
  };
}

/**
 * Precompile failures in geth's words (core/vm/contracts.go), for every EVM: @ethereumjs's BLAKE2F (0x09) answers
 * `value out of range` where geth's blake2F.Run answers `invalid input length` (not 213 bytes) or `invalid final flag`;
 * its MODEXP (0x05) answers `out of gas` for a base, exponent or modulus over EIP-7823's 1,024 bytes where geth's
 * bigModExp.Run, the gas paid, answers `one or more of base/exponent/modulus length exceeded 1024 bytes`. Gas and
 * output stay @ethereumjs's (all gas is spent either way, as geth spends it on a failed precompile). The stock
 * precompile functions are found by address in a fresh Osaka map (module functions: the same objects every EVM holds,
 * wherever an override moved them); `EVM.prototype.runPrecompile` (evm.js, pinned by the fence test) is wrapped once.
 */
const MODEXP_CAP = 1024n;

type PrecompileResult = { returnValue: Uint8Array; executionGasUsed: bigint; exceptionError?: { error: string } };
type RunPrecompile = (
  this: EVMInterface & { common: Common },
  code: unknown,
  data: Uint8Array,
  gasLimit: bigint,
) => PrecompileResult | Promise<PrecompileResult>;

const word = (data: Uint8Array, at: number, length: number): bigint => {
  let v = 0n;
  for (let i = 0; i < length; i++) v = (v << 8n) | BigInt(data[at + i] ?? 0);
  return v;
};

/** EIP-7883's MODEXP gas (Osaka on, where EIP-7823's cap applies), as geth's osakaModexpGas. */
function osakaModexpGas(data: Uint8Array): bigint {
  const [bLen, eLen, mLen] = [word(data, 0, 32), word(data, 32, 32), word(data, 64, 32)];
  const U64 = (1n << 64n) - 1n;
  if (bLen > U64 || eLen > U64 || mLen > U64) return U64;
  const maxLen = bLen > mLen ? bLen : mLen;
  const words = (maxLen + 7n) / 8n;
  const complexity = maxLen > 32n ? 2n * words * words : 16n;
  const headAt = 96n + bLen;
  const headLen = eLen > 32n ? 32n : eLen;
  const head = headAt >= BigInt(data.length) ? 0n : word(data, Number(headAt), Number(headLen));
  const headBits = head === 0n ? 0n : BigInt(head.toString(2).length) - 1n;
  let iterations = eLen <= 32n ? headBits : 16n * (eLen - 32n) + headBits;
  if (iterations < 1n) iterations = 1n;
  const gas = complexity * iterations;
  return gas < 500n ? 500n : gas > U64 ? U64 : gas;
}

function gethText(kind: '05' | '09', common: Common, data: Uint8Array, gasLimit: bigint, error: string): string | undefined {
  if (kind === '09' && error === 'value out of range') return data.length !== 213 ? 'invalid input length' : 'invalid final flag';
  if (kind === '05' && error === 'out of gas' && common.isActivatedEIP(7823)) {
    const padded = data.length < 96 ? new Uint8Array([...data, ...new Uint8Array(96 - data.length)]) : data;
    const lengths = [word(padded, 0, 32), word(padded, 32, 32), word(padded, 64, 32)];
    if (lengths.some((l) => l > MODEXP_CAP) && gasLimit >= osakaModexpGas(padded)) return 'one or more of base/exponent/modulus length exceeded 1024 bytes';
  }
  return undefined;
}

function wrapRunPrecompile(): void {
  const stockMap = getActivePrecompiles(new Common({ chain: Mainnet, hardfork: Hardfork.Osaka }));
  const kinds = new Map<unknown, '05' | '09'>([
    [stockMap.get('0000000000000000000000000000000000000005'), '05'],
    [stockMap.get('0000000000000000000000000000000000000009'), '09'],
  ]);
  const proto = EVM.prototype as unknown as { runPrecompile: RunPrecompile };
  const stock = proto.runPrecompile;
  proto.runPrecompile = function (code, data, gasLimit) {
    const result = stock.call(this, code, data, gasLimit);
    const kind = kinds.get(code);
    if (kind === undefined || result instanceof Promise) return result;
    const error = result.exceptionError?.error;
    const text = error === undefined ? undefined : gethText(kind, this.common, data, gasLimit, error);
    return text === undefined ? result : { ...result, exceptionError: new EVMError(text as never) };
  };
}

wrapRunPrecompile();
