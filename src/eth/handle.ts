/**
 * What `start()`'s handle gives of an eth network (`gw.eth(name)`): a narrow, typed view (bigints and 0x hex strings,
 * viem's names where viem has one), never the engine classes, so devgate's internals can change without breaking a
 * test suite. The eth kind hands it out (src/eth/kind.ts); the rollup's is src/rollup/handle.ts.
 */
import { type Address, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { EthEngine } from './context.js';
import { setBalance, setCode, setNonce, setStorageAt } from './engine/control/stateEdits.js';
import type { EthNode } from './node/node.js';
import type { BlockId as EngineBlockId, MinedBlock } from './engine/chain/types.js';

export type Hex = `0x${string}`;
/** A block number, or a tag: `latest` (default), `earliest`, `pending`, `safe`, `finalized`. */
export type BlockTag = bigint | 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';

/** A mined block's identity and header fields most tests look at. */
export interface BlockSummary {
  readonly number: bigint;
  readonly hash: Hex;
  readonly parentHash: Hex;
  readonly stateRoot: Hex;
  readonly timestamp: bigint;
  readonly gasUsed: bigint;
  readonly gasLimit: bigint;
  readonly baseFeePerGas: bigint | undefined;
  /** Hashes of the block's transactions, in order. */
  readonly transactions: readonly Hex[];
}

/** An eth network of a running gateway. */
export interface EthNetwork {
  readonly name: string;
  readonly chainId: bigint;
  /** The head block's number. @example gw.eth('mainnet').blockNumber() // 300n */
  blockNumber(): bigint;
  /** A block by number or tag; undefined beyond head. @example await gw.eth('mainnet').getBlock(5n) */
  getBlock(block?: BlockTag): Promise<BlockSummary | undefined>;
  /** Wei held by an address at a block (default latest). @example await gw.eth('mainnet').getBalance('0xf39f...') */
  getBalance(address: Hex, block?: BlockTag): Promise<bigint>;
  /** The nonce of an address at a block (default latest). */
  getTransactionCount(address: Hex, block?: BlockTag): Promise<bigint>;
  /** The code at an address (`0x` for none). */
  getCode(address: Hex, block?: BlockTag): Promise<Hex>;
  /** A storage slot as a 32-byte word. */
  getStorageAt(address: Hex, slot: Hex | bigint, block?: BlockTag): Promise<Hex>;
  /** The seed's dev accounts (the CLI prints them): address and private key. */
  devAccounts(): readonly { readonly address: Hex; readonly privateKey: Hex }[];
  /** Mines `blocks` blocks (default 1), `interval` seconds apart; gives their numbers. @example await gw.eth('mainnet').mine({ blocks: 3 }) */
  mine(opts?: { blocks?: number; interval?: number }): Promise<bigint[]>;
  /** Turns automine on or off. @example gw.eth('mainnet').setAutomine(false) */
  setAutomine(enabled: boolean): void;
  /** Whether automine is on. */
  getAutomine(): boolean;
  /** The mining mode: automine, and the interval of interval mining (undefined when off). */
  miningMode(): { readonly automine: boolean; readonly intervalMs: number | undefined };
  /** Mines a block every `ms` milliseconds of devgate's clock; 0 turns it off. @example gw.eth('mainnet').setIntervalMining(1000) */
  setIntervalMining(ms: number): void;
  /** Moves the next block's time forward; gives the total added so far. @example gw.eth('mainnet').increaseTime(60) */
  increaseTime(seconds: number): bigint;
  /** The next block's timestamp (after head's). @example gw.eth('mainnet').setNextBlockTimestamp(1_800_000_000n) */
  setNextBlockTimestamp(timestamp: bigint): void;
  /** Every following block `seconds` after its parent; `undefined` removes the interval. */
  setBlockTimestampInterval(seconds: number | undefined): void;
  /** The next block's base fee, once. */
  setNextBlockBaseFeePerGas(fee: bigint): void;
  /** The gas limit of every following block. */
  setBlockGasLimit(limit: bigint): void;
  /** Empties the pool. */
  dropAllTransactions(): Promise<void>;
  /** Saves blocks, state, pool, mining mode and time; gives the id for revert. @example const id = await gw.eth('mainnet').snapshot() */
  snapshot(): Promise<bigint>;
  /** Goes back to a snapshot and deletes it and every later one; false for an unknown id. @example await gw.eth('mainnet').revert(id) */
  revert(id: bigint): Promise<boolean>;
  /** Goes back to the chain as served at start. */
  reset(): Promise<void>;
  /** Sets an address's balance (wei) in head's state; the next block commits it. @example await gw.eth('mainnet').setBalance('0x...', 10n ** 18n) */
  setBalance(address: Hex, wei: bigint): Promise<void>;
  /** Sets the code at an address. */
  setCode(address: Hex, code: Hex): Promise<void>;
  /** Sets an address's nonce. */
  setNonce(address: Hex, nonce: bigint): Promise<void>;
  /** Sets one storage slot to a 32-byte value. */
  setStorageAt(address: Hex, slot: Hex | bigint, value: Hex): Promise<void>;
}

const hex = (b: Uint8Array) => bytesToHex(b) as Hex;

function engineBlock(node: EthNode, tag: BlockTag = 'latest'): Promise<MinedBlock | undefined> {
  return node.resolveBlock(tag as EngineBlockId);
}

async function at(node: EthNode, tag: BlockTag | undefined): Promise<MinedBlock> {
  const block = await engineBlock(node, tag);
  if (block === undefined) throw new RangeError(`block ${String(tag)} is beyond head ${node.head().number}`);
  return block;
}

const addressOf = (a: Hex): Address => createAddressFromString(a);
const slotBytes = (slot: Hex | bigint) => setLengthLeft(hexToBytes(typeof slot === 'bigint' ? (`0x${slot.toString(16).padStart(64, '0')}` as Hex) : slot), 32);

/** The handle of an eth network over its engine. */
export function ethNetwork(name: string, node: EthEngine): EthNetwork {
  const { chain, miner } = node;
  return {
    name,
    chainId: chain.chainId,
    blockNumber: () => chain.head().number,
    async getBlock(tag) {
      const b = await engineBlock(node, tag);
      if (b === undefined) return undefined;
      const h = b.header;
      return {
        number: b.number,
        hash: hex(b.hash),
        parentHash: hex(h.parentHash),
        stateRoot: hex(h.stateRoot),
        timestamp: h.timestamp,
        gasUsed: h.gasUsed,
        gasLimit: h.gasLimit,
        baseFeePerGas: h.baseFeePerGas,
        transactions: b.txHashes.map(hex),
      };
    },
    getBalance: async (address, tag) => (await chain.getAccount(addressOf(address), await at(node, tag)))?.balance ?? 0n,
    getTransactionCount: async (address, tag) => (await chain.getAccount(addressOf(address), await at(node, tag)))?.nonce ?? 0n,
    getCode: async (address, tag) => hex(await chain.getCode(addressOf(address), await at(node, tag))),
    async getStorageAt(address, slot, tag) {
      return hex(setLengthLeft(await chain.getStorage(addressOf(address), slotBytes(slot), await at(node, tag)), 32));
    },
    devAccounts: () => chain.devAccounts().map((a) => ({ address: a.address.toString() as Hex, privateKey: hex(a.privateKey) })),
    mine: async (opts = {}) =>
      (await node.mine(BigInt(opts.blocks ?? 1), opts.interval === undefined ? undefined : BigInt(opts.interval))).map((r) => r.block.number),
    setAutomine: (enabled) => miner.setAutomine(enabled),
    getAutomine: () => miner.mode().automine,
    miningMode: () => miner.mode(),
    setIntervalMining: (ms) => miner.setIntervalMining(ms),
    increaseTime: (seconds) => miner.increaseTime(BigInt(seconds)),
    setNextBlockTimestamp: (timestamp) => miner.setNextBlockTimestamp(timestamp),
    setBlockTimestampInterval(seconds) {
      miner.setTimestampInterval(seconds === undefined ? undefined : BigInt(seconds));
    },
    setNextBlockBaseFeePerGas: (fee) => miner.setNextBlockBaseFeePerGas(fee),
    setBlockGasLimit: (limit) => miner.setBlockGasLimit(limit),
    snapshot: () => node.snapshot(),
    revert: (id) => node.revert(id),
    reset: () => node.reset(),
    setBalance: (address, wei) => node.editState(setBalance(addressOf(address), wei)),
    setCode: (address, code) => node.editState(setCode(addressOf(address), hexToBytes(code))),
    setNonce: (address, nonce) => node.editState(setNonce(addressOf(address), nonce)),
    setStorageAt: (address, slot, value) => node.editState(setStorageAt(addressOf(address), slotBytes(slot), hexToBytes(value))),
    dropAllTransactions: () => node.dropAllTransactions(),
  };
}
