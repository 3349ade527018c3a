/**
 * Records a transaction that was run outside @ethereumjs's BlockBuilder (eth_simulateV1 runs each call with geth's
 * own checks: no nonce or EOA check without validation) into the builder, as its own addTransaction would after
 * runTx: the transaction, its result and the gas counters. build() then computes the same roots, bloom and gas as
 * for a transaction added the stock way (test/eth/engine/evm/blockBuilder.test.ts).
 */
import { Block, type BlockHeader, createBlock, type HeaderData } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { RLP } from '@ethereumjs/rlp';
import { Address, bigIntToAddressBytes, createAddressFromString, equalsBytes, hexToBytes, toType, TypeOutput } from '@ethereumjs/util';
import { BlockBuilder, encodeReceipt, type BuildBlockOpts, type RunTxResult, type VM } from '@ethereumjs/vm';
import { SYSTEM_CONTRACTS } from '../build/systemContracts.js';
import { encodeRawNode, TrieWriter } from '../state/trieWriter.js';
import { gate } from './gate.js';

interface BuilderInternals {
  transactions: TypedTransaction[];
  transactionResults: RunTxResult[];
  gasUsed: bigint;
  blobGasUsed: bigint;
  blockRegularGasUsed: bigint;
  blockStateGasUsed: bigint;
  _minerValue: bigint;
  checkpointed: boolean;
  withdrawals: unknown[] | undefined;
  vm: {
    evm: { journal: { checkpoint(): Promise<void> } };
    common: { isActivatedEIP(n: number): boolean; param(n: string): bigint; customCrypto: { keccak256?: (b: Uint8Array) => Uint8Array } };
  };
}

/** Opens the builder's journal checkpoint as addTransaction does before its first transaction. */
export async function openBuilder(builder: BlockBuilder): Promise<void> {
  const b = builder as unknown as BuilderInternals;
  if (!b.checkpointed) {
    await b.vm.evm.journal.checkpoint();
    b.checkpointed = true;
  }
}

/** Appends a run transaction and its result to the builder (what addTransaction does after runTx). */
export function recordTransaction(builder: BlockBuilder, tx: TypedTransaction, result: RunTxResult): void {
  (builder as unknown as BuilderInternals).transactions.push(tx);
  recordResult(builder, result);
}

/**
 * Appends a run transaction's result to the builder and adds up its gas and miner value (addTransaction after runTx),
 * leaving the builder's list of transactions as it is (mining/draft.ts keeps the block's transactions itself).
 */
export function recordResult(builder: BlockBuilder, result: RunTxResult): void {
  const b = builder as unknown as BuilderInternals;
  b.transactionResults.push(result);
  if (b.vm.common.isActivatedEIP(8037) && result.txRegularGas !== undefined) {
    b.blockRegularGasUsed += result.txRegularGas;
    b.blockStateGasUsed += result.txStateGas ?? 0n;
    b.gasUsed = b.blockRegularGasUsed > b.blockStateGasUsed ? b.blockRegularGasUsed : b.blockStateGasUsed;
  } else {
    b.gasUsed += result.blockGasSpent;
  }
  if (result.blobGasUsed !== undefined) b.blobGasUsed += result.blobGasUsed;
  b._minerValue += result.minerValue;
}

/** The gas the builder's block has used so far. */
export const builderGasUsed = (builder: BlockBuilder): bigint => (builder as unknown as BuilderInternals).gasUsed;

/** What the builder's transactions paid the block's fee recipient so far (its miner value: tips). */
export const builderMinerValue = (builder: BlockBuilder): bigint => (builder as unknown as BuilderInternals)._minerValue;

/** The results of the transactions the builder has recorded, in order (its receipts' source). */
export const builderResults = (builder: BlockBuilder): readonly RunTxResult[] => (builder as unknown as BuilderInternals).transactionResults;

/** The builder's header fields as its constructor completed them (gas limit, base fee, blob gas...), for blocks made alike. */
export const builderHeaderData = (builder: BlockBuilder): HeaderData => (builder as unknown as { headerData: HeaderData }).headerData;

/** Throws as addTransaction does when the builder is no longer open (built or reverted). */
export function checkBuilderOpen(builder: BlockBuilder): void {
  (builder as unknown as { checkStatus(): void }).checkStatus();
}

/**
 * builder.addTransaction(tx) with the builder's list of earlier transactions set to `shown` for the call (addTransaction
 * makes a Block of them; EIP-7928 needs their count) and emptied after; gives the result and the builder's own copy of
 * `tx` (a blob transaction without its blobs, as blocks hold it).
 */
export async function addShowing(
  builder: BlockBuilder,
  shown: TypedTransaction[],
  tx: TypedTransaction,
): Promise<{ result: RunTxResult; added: TypedTransaction }> {
  const b = builder as unknown as BuilderInternals;
  b.transactions = shown;
  try {
    const result = await builder.addTransaction(tx);
    return { result, added: b.transactions[b.transactions.length - 1]! };
  } finally {
    b.transactions = [];
  }
}

/**
 * builder.build() for transactions made under another Common than the block's (eth_simulateV1's calls may carry
 * more gas than EIP-7825 allows a transaction, as geth's simulator skips that check): build() re-creates every
 * transaction under the block's Common, which refuses them. The roots are computed from the transactions as they
 * are, build() runs on an empty list with those roots, and the block is put together with the transactions.
 */
export async function buildWithTransactions(builder: BlockBuilder): Promise<Block> {
  const b = builder as unknown as BuilderInternals & { transactionsTrie(): Promise<Uint8Array>; receiptTrie(): Promise<Uint8Array> };
  const txs = b.transactions;
  // The roots as @ethereumjs computes them (RLP of the index -> serialized tx / encoded receipt), with the
  // batch writer: no MerklePatriciaTrie to make per block.
  const hash = b.vm.common.customCrypto.keccak256;
  const txRoot = TrieWriter.root(
    txs.map((tx, i) => [RLP.encode(i), tx.serialize()]),
    hash,
  );
  const receiptRoot = TrieWriter.root(
    b.transactionResults.map((r, i) => [RLP.encode(i), encodeReceipt(r.receipt, txs[i]!.type)]),
    hash,
  );
  b.transactions = [];
  b.transactionsTrie = async () => txRoot;
  b.receiptTrie = async () => receiptRoot;
  // No withdrawals: build() would make a MerklePatriciaTrie for their root. Without a list, an EIP-4895 header
  // takes the empty trie's root and the block an empty list (@ethereumjs's defaults): the same block.
  if (b.withdrawals?.length === 0) b.withdrawals = undefined;
  const { block } = await builder.build();
  return new Block(block.header, txs, [], block.withdrawals);
}

/** The caller of system calls (EIP-4788, EIP-2935): geth's params.SystemAddress. */
const SYSTEM_ADDRESS = createAddressFromString('0xfffffffffffffffffffffffffffffffffffffffe');
/** geth's system-call gas (ProcessBeaconBlockRoot, ProcessParentBlockHash). */
const SYSTEM_CALL_GAS = 30_000_000n;

/** A system contract's address and the code its EIP gives it (build/systemContracts.ts), made once: every block asks. */
const systemContract = (name: string) => {
  const c = SYSTEM_CONTRACTS.find((s) => s.name.startsWith(name))!;
  return { address: createAddressFromString(c.address), code: hexToBytes(c.code as `0x${string}`) };
};
const BEACON_ROOTS = systemContract('EIP-4788');
const HISTORY_STORAGE = systemContract('EIP-2935');

interface SystemCall {
  readonly address: Address;
  /** The ring-buffer slots the EIP writes, and the values before `data` (EIP-4788: the timestamp; `data` goes last). */
  readonly slots: Uint8Array[];
  readonly values: Uint8Array[];
  readonly data: Uint8Array;
  /** The address initState writes at: EIP-4788's constant, EIP-2935's `historyStorageAddress` parameter. */
  readonly stockAddress: Address;
  readonly code: Uint8Array;
}

/** A header field as a bigint (BlockBuilder's headerData holds the caller's types: bigint, number, hex or bytes). */
const bigIntOf = (v: unknown): bigint => (typeof v === 'bigint' ? v : (toType(v as bigint | undefined, TypeOutput.BigInt) ?? 0n));

/** `setLengthLeft(bigIntToBytes(n), 32)` of a slot number (n < 2^256), in one allocation (those go through hex and arrays of numbers). */
function slotKey(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 31; n > 0n; i--, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
}

/** `bigIntToBytes(n)`: big-endian with no leading zeros, one zero byte for 0. */
function minimalBytes(n: bigint): Uint8Array {
  let length = 1;
  for (let m = n >> 8n; m > 0n; m >>= 8n) length++;
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
}

/**
 * Whether the block's EIP-4788/2935 slots may be written here rather than by BlockBuilder.initState (the fence's tested
 * versions, and neither EIP-7928's access list nor EIP-7864's witness, which initState also records).
 */
const directInitState = (vm: VM): boolean => gate.on && !vm.common.isActivatedEIP(7928) && !vm.common.isActivatedEIP(7864);

/**
 * BlockBuilder.initState (`vm/dist/esm/buildBlock.js`, with runBlock.js's accumulateParentBeaconBlockRoot and
 * accumulateParentBlockHash) for `planned`'s slots: the builder's journal checkpoint, then per EIP, when its contract
 * has code, the same puts in the same order and the journal's cleanup. The stock one makes each slot key through hex
 * and arrays of numbers (`setLengthLeft(bigIntToBytes(...))`): ~15 KB per block, a twelfth of an empty block's.
 */
async function writeSystemSlots(builder: BlockBuilder, planned: readonly SystemCall[]): Promise<void> {
  const b = builder as unknown as BuilderInternals & { vm: VM };
  const vm = b.vm;
  for (const call of planned) {
    if (!b.checkpointed) {
      await vm.evm.journal.checkpoint();
      b.checkpointed = true;
    }
    if ((await vm.stateManager.getCode(call.stockAddress)).length === 0) continue;
    const values = [...call.values, call.data];
    for (const [i, slot] of call.slots.entries()) await vm.stateManager.putStorage(call.stockAddress, slot, values[i]!);
    await vm.evm.journal.cleanup();
  }
}

/** EIP-2935's contract address as the Common's `historyStorageAddress` names it (made again only when that changes). */
let history: { param: bigint; address: Address } | undefined;
function historyAddress(common: VM['common']): Address {
  const param = common.param('historyStorageAddress');
  if (history?.param !== param) history = { param, address: new Address(bigIntToAddressBytes(param)) };
  return history.address;
}

/**
 * The block's start as geth's (core/state_processor.go ProcessBeaconBlockRoot, ProcessParentBlockHash): the code at the
 * EIP-4788 and EIP-2935 addresses runs, called from the system address with 30,000,000 gas. @ethereumjs's initState
 * writes the ring-buffer slots directly, which is what the EIPs' own code does; where the account holds other code
 * (a genesis may put any there) that code runs instead: the slots initState wrote are put back and the code is called
 * (with `0x00`, STOP, nothing is stored). Without code both skip it, as geth's call of an empty account changes nothing.
 */
export async function initStateAsGeth(builder: BlockBuilder): Promise<void> {
  const b = builder as unknown as { vm: VM; headerData: HeaderData };
  const { vm, headerData: h } = b;
  const common = vm.common;
  const planned: SystemCall[] = [];
  if (common.isActivatedEIP(4788)) {
    const length = BigInt(common.param('historicalRootsLength'));
    const timestamp = bigIntOf(h.timestamp);
    const index = timestamp % length;
    planned.push({
      ...BEACON_ROOTS,
      slots: [slotKey(index), slotKey(index + length)],
      values: [minimalBytes(timestamp)],
      stockAddress: BEACON_ROOTS.address,
      data: toType(h.parentBeaconBlockRoot, TypeOutput.Uint8Array) ?? new Uint8Array(32),
    });
  }
  if (common.isActivatedEIP(2935)) {
    const slot = (bigIntOf(h.number) - 1n) % common.param('historyServeWindow');
    planned.push({
      ...HISTORY_STORAGE,
      slots: [slotKey(slot)],
      values: [],
      stockAddress: historyAddress(common),
      data: toType(h.parentHash, TypeOutput.Uint8Array) ?? new Uint8Array(32),
    });
  }
  const custom: (SystemCall & { old: Uint8Array[] })[] = [];
  for (const call of planned) {
    const code = await vm.stateManager.getCode(call.address);
    if (code.length === 0 || equalsBytes(code, call.code)) continue;
    custom.push({ ...call, old: await Promise.all(call.slots.map((s) => vm.stateManager.getStorage(call.address, s))) });
  }
  if (directInitState(vm)) await writeSystemSlots(builder, planned);
  else await builder.initState();
  if (custom.length === 0) return;
  const block = createBlock({ header: h }, { common, skipConsensusFormatValidation: true });
  for (const call of custom) {
    for (const [i, slot] of call.slots.entries()) await vm.stateManager.putStorage(call.address, slot, call.old[i]!);
    await vm.evm.runCall({ caller: SYSTEM_ADDRESS, origin: SYSTEM_ADDRESS, to: call.address, data: call.data, gasLimit: SYSTEM_CALL_GAS, block });
    await vm.evm.journal.cleanup();
  }
}

/** @ethereumjs's buildBlock with the block's system calls as geth makes them (initStateAsGeth). */
export async function openBlockBuilder(vm: VM, opts: BuildBlockOpts): Promise<BlockBuilder> {
  const builder = new BlockBuilder(vm, opts);
  await initStateAsGeth(builder);
  return builder;
}

/**
 * `header.hash()` of a sealed (frozen) header, kept in its cache as hash() keeps it (`block/dist/esm/header/header.js`),
 * with the header's RLP written in one buffer (encodeRawNode: the same bytes). RLP.encode concatenates each item's
 * prefix and bytes into new arrays (`Uint8Array.from` of each): ~9 KB per block of an empty block's ~195.
 */
export function sealedHeaderHash(header: BlockHeader): Uint8Array {
  const h = header as unknown as { cache: { hash: Uint8Array | undefined }; keccakFunction: (bytes: Uint8Array) => Uint8Array };
  if (!gate.on || !Object.isFrozen(header) || h.cache.hash !== undefined) return header.hash();
  h.cache.hash = h.keccakFunction(encodeRawNode(header.raw()));
  return h.cache.hash;
}
