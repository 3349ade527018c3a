/**
 * What one run of a transaction showed of its gas, for eth_estimateGas (exec/estimate.ts): the least gas its frame had
 * left after any step's charge, and whether anything in it could behave differently with less gas.
 *
 * A frame's path depends on its gas only where an opcode reads the gas left (GAS) or hands a share of it on (the CALL
 * and CREATE families, SELFDESTRUCT under EIP-7928), and at SSTORE's EIP-2200 sentry (a store fails with 2300 gas or
 * less left). A run of one frame that did none of these takes the very same steps, at the very same costs, with any
 * gas limit; given `d` gas less, each step has `d` less left, so it fails exactly when `d` is more than the least
 * gas left after a step (or, at a store, than what was left above the sentry). The fast loop (loop.ts) keeps these
 * figures while a watch is on; a frame it does not run (the stock interpreter) counts as one that may depend on gas.
 */

/** A watch over the frames one EVM runs. */
export interface GasWatch {
  /** Frames the fast loop ran while watched. */
  frames: number;
  /** Some step may behave differently with other gas (or a frame ran outside the fast loop). */
  gasDependent: boolean;
  /** The least of: gas left after each step's charge; gas left above the sentry at each SSTORE (minus one). */
  least: bigint;
  /** EIP-2200's SSTORE sentry of the EVM's hardfork, or undefined before Istanbul. */
  readonly sentry: bigint | undefined;
  /** 1 for each opcode that makes the run depend on its gas. */
  readonly reads: Uint8Array;
}

const watches = new WeakMap<object, GasWatch>();

/** Opcodes that read or pass on the gas left: GAS, CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, the EOF calls, STATICCALL, SELFDESTRUCT. */
export const READS_GAS: Uint8Array = (() => {
  const table = new Uint8Array(256);
  for (const op of [0x5a, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xf8, 0xf9, 0xfa, 0xfb, 0xff]) table[op] = 1;
  return table;
})();

/** READS_GAS and BALANCE, SELFBALANCE: for a priced run, whose sender pays for its gas limit before it starts. */
export const READS_GAS_OR_BALANCE: Uint8Array = (() => {
  const table = READS_GAS.slice();
  table[0x31] = table[0x47] = 1;
  return table;
})();

/**
 * Starts watching the frames `evm` runs (until unwatchGas); `reads`: the opcodes that make a run depend on its gas
 * (READS_GAS, or READS_GAS_OR_BALANCE when the sender's balance depends on the gas limit).
 */
export function watchGas(evm: object, sentry: bigint | undefined, reads: Uint8Array = READS_GAS): GasWatch {
  const watch: GasWatch = { frames: 0, gasDependent: false, least: BigInt(Number.MAX_SAFE_INTEGER) ** 2n, sentry, reads };
  watches.set(evm, watch);
  return watch;
}

export function unwatchGas(evm: object): void {
  watches.delete(evm);
}

/** The watch on `evm`, if one is on. */
export function gasWatchOf(evm: object): GasWatch | undefined {
  return watches.get(evm);
}
