/**
 * The per-log work of sealing a transaction, done ahead and a slice at a time (#25). After a transaction's code has
 * run, @ethereumjs's runTx builds its logs bloom in one go (`txLogsBloom`: a keccak256 of every log's address and
 * each of its topics) and the block's receipt trie encodes every log (`encodeReceipt`): for one transaction of
 * 36,000 LOG0s that was one ~150 ms turn of the event loop with every network waiting. Here a mining VM's
 * `evm.runCall` (which runTx awaits before either) goes on, once the code has run, to hash each log's address and
 * topics and to RLP-encode the logs, yielding to the event loop by work done; runTx's bloom then reads the hashes
 * made (`Bloom.prototype.add`, vm/dist/esm/bloom/index.js, takes a hash made here for the very byte array it is
 * given, else hashes as before), and `encodeReceiptAhead` uses the encoded logs. Roots, blooms and receipts are
 * byte for byte the stock ones (test/eth/engine/evm/logsAhead.test.ts).
 *
 * Only on the tested @ethereumjs versions (gate.ts); otherwise everything runs stock.
 */
import { RLP } from '@ethereumjs/rlp';
import type { TransactionType } from '@ethereumjs/tx';
import { bigIntToBytes, concatBytes, hexToBytes, intToBytes } from '@ethereumjs/util';
import type { EVMResult, EVMRunCallOpts, Log } from '@ethereumjs/evm';
import { Bloom, encodeReceipt, type TxReceipt, type VM } from '@ethereumjs/vm';
import { gate } from './gate.js';
import { slicePause } from '../../../turnSlice.js';

/** Work (log items hashed or encoded, about 1 us each) between two yields to the event loop. */
const SLICE = 1000;

/**
 * keccak256 of a log's topic, by the very byte array runTx's bloom is given (a log is never changed); taken out when
 * used, so nothing is kept past the bloom.
 */
const topicHashes = new WeakMap<Uint8Array, Uint8Array>();
/**
 * keccak256 of a log's address, by its byte array: one per frame that logged (its Address's bytes, which every log of
 * the frame shares and the stored receipts keep), kept while that array lives.
 */
const addressHashes = new WeakMap<Uint8Array, Uint8Array>();

/**
 * The RLP of a logs list, by the list (runTx's receipt holds the list runCall gave), and how many logs it had then;
 * taken out when the receipt is encoded.
 */
const encoded = new WeakMap<readonly Log[], { readonly count: number; readonly rlp: Uint8Array }>();

interface BloomInternals {
  keccakFunction(bytes: Uint8Array): Uint8Array;
  bitvector: Uint8Array;
}

/** Bloom.prototype.add as stock (vm/dist/esm/bloom/index.js), taking the hash made ahead when there is one. */
function add(this: BloomInternals, e: Uint8Array): void {
  let h = topicHashes.get(e);
  if (h !== undefined) topicHashes.delete(e);
  else h = addressHashes.get(e) ?? this.keccakFunction(e);
  // As stock: the hash's whole buffer from its start (keccak functions answer a buffer of their own).
  const view = new DataView(h.buffer);
  for (let i = 0; i < 3; i++) {
    const loc = 2047 & view.getUint16(i * 2);
    this.bitvector[256 - (loc >> 3) - 1]! |= 1 << (loc % 8);
  }
}

if (gate.on) (Bloom.prototype as unknown as { add: typeof add }).add = add;

/** Hashes and encodes `logs` a slice at a time (nothing to do for a call without logs). */
async function prepare(logs: readonly Log[], keccak: (bytes: Uint8Array) => Uint8Array): Promise<void> {
  if (logs.length === 0) return;
  const parts: Uint8Array[] = new Array(logs.length);
  let work = 0;
  for (let i = 0; i < logs.length; i++) {
    const [address, topics] = logs[i]!;
    if (!addressHashes.has(address)) addressHashes.set(address, keccak(address));
    for (const t of topics) topicHashes.set(t, keccak(t));
    parts[i] = RLP.encode(logs[i]!);
    work += 2 + topics.length;
    if (work >= SLICE) {
      work = 0;
      // The event loop's shared slice (#25): on in this turn while it lasts, else behind the other chains.
      const pause = slicePause();
      if (pause !== undefined) await pause;
    }
  }
  const payload = concatBytes(...parts);
  encoded.set(logs, { count: logs.length, rlp: concatBytes(listHeader(payload.length), payload) });
}

const prepared = new WeakSet<VM>();

/**
 * Makes `vm` (a mining VM: its transactions are sealed into blocks) hash and encode each run's logs ahead, yielding
 * by work done. Idempotent; does nothing off the tested versions.
 */
export function prepareLogsAhead(vm: VM): void {
  if (!gate.on || prepared.has(vm)) return;
  prepared.add(vm);
  const evm = vm.evm as unknown as { runCall(opts: EVMRunCallOpts): Promise<EVMResult> };
  const stock = evm.runCall;
  const keccak = vm.common.customCrypto.keccak256;
  evm.runCall = async function runCall(opts: EVMRunCallOpts): Promise<EVMResult> {
    const result = await stock.call(this, opts);
    const logs = result.execResult.logs;
    if (logs !== undefined && keccak !== undefined) await prepare(logs, keccak);
    return result;
  };
}

/** @ethereumjs's encodeReceipt (vm/dist/esm/runBlock.js), with the logs' RLP made ahead when it is there. */
export function encodeReceiptAhead(receipt: TxReceipt, txType: TransactionType): Uint8Array {
  const logs = encoded.get(receipt.logs);
  encoded.delete(receipt.logs);
  if (logs === undefined || logs.count !== receipt.logs.length) return encodeReceipt(receipt, txType);
  const r = receipt as TxReceipt & { stateRoot?: Uint8Array; status?: number };
  const head = [r.stateRoot ?? (r.status === 0 ? Uint8Array.from([]) : hexToBytes('0x01')), bigIntToBytes(receipt.cumulativeBlockGasUsed), receipt.bitvector];
  const payload = concatBytes(...head.map((item) => RLP.encode(item)), logs.rlp);
  const rlp = concatBytes(listHeader(payload.length), payload);
  // EIP-2718: a typed receipt is the type byte, then the receipt's RLP.
  return txType === 0 ? rlp : concatBytes(intToBytes(txType), rlp);
}

/** The RLP header of a list whose items' encodings take `length` bytes. */
function listHeader(length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(0xc0 + length);
  const size: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) size.unshift(n % 256);
  return Uint8Array.of(0xf7 + size.length, ...size);
}
