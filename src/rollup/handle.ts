/**
 * What `start()`'s handle gives of a rollup network (`gw.rollup(name)`): its simulated lifecycle, under control, never
 * the engine classes. The rollup kind hands it out (src/rollup/kind.ts).
 */
import type { RollupChain } from './engine/chain.js';
import { RollupControls } from './engine/controls.js';
import { type DumpAnswer, dumpAnswer, readDumpAnswer } from './dumpAnswer.js';
import { loadRollupParts } from './engine/load.js';
import type { BlockId as RollupBlockId, Felt, InvokeTransaction, OutcomeInput } from './engine/types.js';

/** A rollup network of a running gateway: its simulated lifecycle, under control. */
export interface RollupNetwork {
  readonly name: string;
  /** The newest sealed block's number. */
  blockNumber(): bigint;
  /** Seals the pending block now (optionally at a timestamp); gives its number and hash. */
  createBlock(timestamp?: bigint): { number: bigint; hash: Felt };
  /** Marks blocks up to `block` ACCEPTED_ON_L1; gives their numbers. */
  acceptOnL1(block: RollupBlockId): bigint[];
  /** Marks `block` and every later block REJECTED; gives their numbers. */
  rejectBlock(block: RollupBlockId): bigint[];
  /** Sets the chain's time (seconds); with `generateBlock`, seals a block at it. */
  setTime(timestamp: bigint, generateBlock?: boolean): void;
  /** Moves the chain's time forward and seals a block. */
  increaseTime(seconds: bigint): void;
  /** Adds an INVOKE transaction to the pending block, with its simulated outcome; gives its hash. */
  addInvokeTransaction(tx: InvokeTransaction, outcome?: OutcomeInput): Felt;
  /** Mints fee tokens (FRI: STRK, the default; WEI: ETH) to a contract by a transaction in the pending block (devnet_mint). */
  mint(address: Felt, amount: bigint, unit?: 'WEI' | 'FRI'): { newBalance: bigint; txHash: Felt };
  /** A fee-token balance (FRI by default) at a block (default latest). */
  getBalance(address: Felt, unit?: 'WEI' | 'FRI', block?: RollupBlockId): bigint;
  /** The seed's accounts with their keys (the private key when the seed gives it). */
  predeployedAccounts(): { address: Felt; publicKey: Felt; privateKey?: Felt }[];
  /** L1 gas prices of the blocks after the pending one; with `generateBlock`, seals the pending block now. */
  setGasPrice(prices: { wei?: bigint; fri?: bigint }, generateBlock?: boolean): void;
  /** Aborts (rejects) a block and every later one, as devnet_abortBlocks; gives their numbers, newest first. */
  abortBlocks(block: RollupBlockId): bigint[];
  /** Takes a snapshot (devnet_snapshot); gives its id. */
  snapshot(): bigint;
  /** Reverts to a snapshot and deletes it and every later one (devnet_revert); false for an unknown id. */
  revert(id: bigint): boolean;
  /** Goes back to the chain as served at start and forgets every snapshot (devnet_restart). */
  restart(): void;
  /** The chain as devnet_dump answers it (docs/rollup.md, "Dump and load"). @example const d = gw.rollup('starknet-mainnet').dump() */
  dump(): DumpAnswer;
  /** Puts a dump of this network back (devnet_load); throws, changing nothing, for anything else. @example gw.rollup('starknet-mainnet').load(d) */
  load(dump: unknown): void;
}

/** The handle of a rollup network over its engine. */
export function rollupNetwork(name: string, chain: RollupChain): RollupNetwork {
  return {
    name,
    blockNumber: () => chain.head().number,
    createBlock(timestamp) {
      const b = chain.createBlock(timestamp);
      return { number: b.number, hash: b.hash };
    },
    acceptOnL1: (block) => chain.acceptOnL1(block).map((b) => b.number),
    rejectBlock: (block) => chain.rejectBlock(block).map((b) => b.number),
    setTime(timestamp, generateBlock) {
      chain.setTime(timestamp, generateBlock);
    },
    increaseTime(seconds) {
      chain.increaseTime(seconds);
    },
    addInvokeTransaction: (tx, outcome) => chain.addInvokeTransaction(tx, outcome),
    dump: () => dumpAnswer(chain, name),
    load(dump) {
      loadRollupParts(chain, readDumpAnswer(dump, chain, name).parts);
    },
    ...rollupControls(RollupControls.of(chain)),
  };
}

/** The control operations of the rollup handle (src/rollup/engine/controls.ts). */
function rollupControls(
  c: RollupControls,
): Pick<RollupNetwork, 'mint' | 'getBalance' | 'predeployedAccounts' | 'setGasPrice' | 'abortBlocks' | 'snapshot' | 'revert' | 'restart'> {
  return {
    mint: (address, amount, unit = 'FRI') => c.mint(address, amount, unit),
    getBalance: (address, unit = 'FRI', block) => c.balance(address, unit, block),
    predeployedAccounts: () =>
      c.accounts.map(({ address, publicKey, privateKey }) => ({ address, publicKey, ...(privateKey === undefined ? {} : { privateKey }) })),
    setGasPrice(prices, generateBlock) {
      c.setGasPrice(prices, generateBlock);
    },
    abortBlocks: (block) => c.abortBlocks(block).map((b) => b.number),
    snapshot: () => c.snapshots.take(),
    revert: (id) => c.snapshots.revert(id) !== false,
    restart() {
      c.snapshots.restart();
    },
  };
}
