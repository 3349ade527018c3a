/**
 * Batched fetches before a transaction runs on a fork: the keys a transaction will read that are known before it
 * runs (its sender, its recipient and the recipient's code, the block's coinbase, every address and slot of its
 * access list) are fetched in one JSON-RPC batch request, instead of one round trip each as the EVM meets them.
 * Before a block runs, its system calls' accounts, codes and slots and the block's coinbase are fetched the same way
 * (and a block filled from the pool fetches every pending transaction's keys in one batch first).
 * The answers are the same proofs and codes the lazy reads would fetch (ForkState), so roots and answers are unchanged.
 */
import { Address, bigIntToBytes, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import { ForkStateError } from './forkState.js';
import { ForkStateManager, type PrefetchKey } from './forkStateManager.js';

/** What `tx` (sent by `sender`, in a block paid to `coinbase`) reads before any code of it runs. */
export function txKeys(tx: TypedTransaction, sender: Address, coinbase: Address | undefined): { keys: PrefetchKey[]; code: Address[] } {
  const keys: PrefetchKey[] = [{ address: sender, slots: [] }];
  const code: Address[] = [];
  if (tx.to !== undefined) {
    keys.push({ address: tx.to, slots: [] });
    if (tx.data.length > 0) code.push(tx.to);
  }
  if (coinbase !== undefined) keys.push({ address: coinbase, slots: [] });
  const list = (tx as { accessList?: readonly [Uint8Array, Uint8Array[]][] }).accessList;
  for (const [address, slots] of list ?? []) {
    keys.push({ address: new Address(Uint8Array.from(address)), slots: slots.filter((s) => s.length === 32) });
  }
  return { keys, code };
}

/** On a fork's state manager, fetches what `tx` is known to read in one batch; elsewhere nothing. */
export async function prefetchTx(state: StateManagerInterface, tx: TypedTransaction, sender: Address, coinbase: Address | undefined): Promise<void> {
  if (!(state instanceof ForkStateManager)) return;
  const { keys, code } = txKeys(tx, sender, coinbase);
  await state.prefetch(keys, code);
}

/** A transaction and its sender. */
export interface SentTx {
  readonly tx: TypedTransaction;
  readonly sender: Address;
}

/** On a fork's state manager, fetches what every one of `txs` is known to read in one batch; elsewhere nothing. */
export async function prefetchTxs(state: StateManagerInterface, txs: readonly SentTx[], coinbase: Address | undefined): Promise<void> {
  if (!(state instanceof ForkStateManager) || txs.length === 0) return;
  const keys: PrefetchKey[] = [];
  const code: Address[] = [];
  for (const { tx, sender } of txs) {
    const k = txKeys(tx, sender, coinbase);
    keys.push(...k.keys);
    code.push(...k.code);
  }
  await state.prefetch(keys, code);
}

/** EIP-4788, EIP-2935, EIP-7002 and EIP-7251's contracts: every block from Prague on runs them. */
export const SYSTEM_CONTRACTS = [
  '0x000f3df6d732807ef1319fb7b8bb8522d0beac02',
  '0x0000f90827f1c53a10cb7a02335b175320002935',
  '0x00000961ef480eb55e80d19ad83579a64c007002',
  '0x0000bbddc7ce488642fb579f8b00f3a590007251',
].map((a) => createAddressFromString(a));

export const slotOf = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);

/**
 * On a fork's state manager, fetches in one batch what opening block `number` at `timestamp` reads: the coinbase,
 * the system contracts and their codes, the EIP-4788 ring buffer's two slots of the timestamp and the EIP-2935
 * slot of the parent. Elsewhere nothing.
 */
export async function prefetchBlock(
  state: StateManagerInterface,
  common: Common,
  number: bigint,
  timestamp: bigint,
  coinbase: Address | undefined,
): Promise<void> {
  if (!(state instanceof ForkStateManager)) return;
  const [beacon, history] = SYSTEM_CONTRACTS as [Address, Address];
  const keys: PrefetchKey[] = SYSTEM_CONTRACTS.map((address) => ({ address, slots: [] }));
  if (coinbase !== undefined) keys.push({ address: coinbase, slots: [] });
  if (common.isActivatedEIP(4788)) {
    const ring = common.param('historicalRootsLength');
    keys.push({ address: beacon, slots: [slotOf(timestamp % ring), slotOf((timestamp % ring) + ring)] });
  }
  if (common.isActivatedEIP(2935) && number > 0n) keys.push({ address: history, slots: [slotOf((number - 1n) % common.param('historyServeWindow'))] });
  await state.prefetch(keys, SYSTEM_CONTRACTS);
}

/** On a fork's state manager, fetches what a call from `caller` to `to` reads first (and `to`'s code when it has data) in one batch. */
export async function prefetchCall(state: StateManagerInterface, caller: Address, to: Address | undefined, data: Uint8Array | undefined): Promise<void> {
  if (!(state instanceof ForkStateManager)) return;
  const keys: PrefetchKey[] = [{ address: caller, slots: [] }];
  if (to !== undefined) keys.push({ address: to, slots: [] });
  await state.prefetch(keys, to !== undefined && (data?.length ?? 0) > 0 ? [to] : []);
}

/** The most recording runs one call makes (each fetches at least one key; past it the call fails naming the limit). */
export const MAX_RECORDING_RUNS = 64;

/**
 * Runs `run` (a read-only run that undoes its writes: a call, a call as a transaction) on a fork's state manager
 * recording: every account, slot and code it meets unfetched is noted and read as absent instead of waited for; the
 * notes are then fetched in one batch request and the run made again, until a run notes nothing: that run read only
 * fetched state, so its answer (or error) is the real one. An unfetched slot reads as zero in one recording run and
 * as 2^128 in a second, and both runs' notes make the batch, so a check on a slot (a balance covering an amount, a
 * flag) does not end the run before the reads behind it. A call whose reads depend on each other's values (a slot's
 * value names the next account) takes one batch per step of that chain instead of one request per key; the EVM runs
 * cost far less than the upstream round trips they save. Elsewhere `run` once.
 */
export async function forkRuns<T>(state: StateManagerInterface, run: () => Promise<T>): Promise<T> {
  if (!(state instanceof ForkStateManager)) return run();
  for (let i = 0; i < MAX_RECORDING_RUNS; i++) {
    const { misses, result, error } = await state.record(run, 'zero');
    if (misses.keys.length === 0) {
      if (error !== undefined) throw error;
      return result as T;
    }
    // A second guess for the unfetched slots (2^128 instead of zero) takes the other side of a check on them (a
    // balance that must cover an amount), so both runs' reads go in the one batch.
    const other = await state.record(run, 'large');
    const { proofs, codes } = state.fork.fetched;
    await state.prefetch([...misses.keys, ...other.misses.keys], [...misses.code, ...other.misses.code]);
    if (state.fork.fetched.proofs === proofs && state.fork.fetched.codes === codes) {
      const what = misses.keys.map((k) => k.address.toString()).join(', ');
      throw new ForkStateError(`this call met state of ${what} the fork could not fetch (the upstream's answers did not bring it)`);
    }
  }
  throw new ForkStateError(`this call kept meeting state the fork has not fetched after ${MAX_RECORDING_RUNS} batch fetches (the fork's limit per call)`);
}
