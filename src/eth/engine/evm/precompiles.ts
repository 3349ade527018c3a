/**
 * The active precompiles of an @ethereumjs EVM, swapped for one run: state overrides may move a precompile to
 * another address or remove it (geth's movePrecompileToAddress, and any override of a precompile's address).
 * @ethereumjs keeps them in the private `_precompiles` map (address as 40 hex digits, no 0x), which `getPrecompile`
 * and runTx's warm set read; the swap puts a private copy there and restore() puts the original back.
 */
import type { EVMInterface } from '@ethereumjs/evm';

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
