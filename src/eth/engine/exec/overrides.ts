/**
 * State and block overrides of eth_call, eth_estimateGas, eth_createAccessList and eth_simulateV1, as geth's
 * internal/ethapi/override applies them. State overrides are written into the (throwaway) state a call runs on,
 * after the caller's checkpoint(), so the caller's revert() undoes them: a call with overrides never changes chain
 * data. Precompile moves and removals change the EVM's active precompiles for the run (evm/precompiles.ts) and are
 * undone by the returned restore function.
 */
import type { Common } from '@ethereumjs/common';
import { Account, type Address, toChecksumAddress } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { ExecutionFailed, LimitExceeded } from '../../../errors.js';
import { pause } from '../evm/callClock.js';
import type { MinedBlock } from '../chain/types.js';
import { swapPrecompiles } from '../evm/precompiles.js';
import { plainHex } from '../../../hex.js';

/** The overriding fields of one account (geth's OverrideAccount). */
export interface AccountOverride {
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
  readonly balance?: bigint;
  /** Replaces the whole storage: these slots (32-byte keys and values), every other slot zero. */
  readonly state?: readonly (readonly [Uint8Array, Uint8Array])[];
  /** Changes only these slots. */
  readonly stateDiff?: readonly (readonly [Uint8Array, Uint8Array])[];
  /** Moves the precompile at this account's address to another address. */
  readonly movePrecompileToAddress?: Address;
}

/** Overridden accounts, in the order given (applied sorted by address, as geth applies them). */
export type StateOverride = readonly (readonly [Address, AccountOverride])[];

/** Header fields to override (geth's BlockOverrides). */
export interface BlockOverride {
  readonly number?: bigint;
  readonly difficulty?: bigint;
  readonly time?: bigint;
  readonly gasLimit?: bigint;
  readonly feeRecipient?: Address;
  readonly prevRandao?: Uint8Array;
  readonly baseFeePerGas?: bigint;
  readonly blobBaseFee?: bigint;
  /** eth_simulateV1 only (eth_call and eth_estimateGas refuse it, as geth does). */
  readonly beaconRoot?: Uint8Array;
  /** eth_simulateV1 only. */
  readonly withdrawals?: readonly { index: bigint; validatorIndex: bigint; address: Address; amount: bigint }[];
}

/**
 * The most bytes a request's state overrides may write (issue 25: 18,000 accounts took 1.65 s): code bytes, plus
 * OVERRIDE_SLOT_BYTES a storage slot and OVERRIDE_ACCOUNT_BYTES an account, as they take in the call's state. 32 MB:
 * the default body limit (5 MB of hex) cannot reach it; a larger --max-body-bytes can, and is refused with -32005.
 */
export const MAX_OVERRIDE_BYTES = 32 * 1024 * 1024;
const OVERRIDE_SLOT_BYTES = 96;
const OVERRIDE_ACCOUNT_BYTES = 128;

/** The bytes `overrides` write (see MAX_OVERRIDE_BYTES). */
export function overrideBytes(overrides: StateOverride): number {
  let bytes = 0;
  for (const [, o] of overrides) {
    bytes += OVERRIDE_ACCOUNT_BYTES + (o.code?.length ?? 0);
    bytes += ((o.state?.length ?? 0) + (o.stateDiff?.length ?? 0)) * OVERRIDE_SLOT_BYTES;
  }
  return bytes;
}

/**
 * Writes `overrides` into `vm`'s state (inside the caller's checkpoint) and moves or removes precompiles on `vm`'s
 * EVM. `precompiles: false` treats no address as a precompile (geth's eth_createAccessList passes none). Returns the
 * function that puts the EVM's precompiles back (the state is put back by the caller's revert()).
 */
export async function applyStateOverride(vm: VM, overrides: StateOverride | undefined, opts: { precompiles?: boolean } = {}): Promise<() => void> {
  if (overrides === undefined || overrides.length === 0) return () => {};
  const bytes = overrideBytes(overrides);
  if (bytes > MAX_OVERRIDE_BYTES)
    throw new LimitExceeded(`state override too large: ${bytes} bytes of accounts, code and storage, over the limit of ${MAX_OVERRIDE_BYTES}`);
  const usePrecompiles = opts.precompiles ?? true;
  const sorted = [...overrides].sort((a, b) => Buffer.compare(Buffer.from(a[0].bytes), Buffer.from(b[0].bytes)));
  const overridden = new Set(sorted.map(([a]) => plainHex(a.bytes)));
  const swap = swapPrecompiles(vm.evm);
  try {
    // Destinations of precompiles moved so far: they cannot be overridden themselves.
    const dirty = new Set<string>();
    for (const [address, account] of sorted) {
      const key = plainHex(address.bytes);
      const shown = checksummed(address);
      if (dirty.has(key)) throw new ExecutionFailed(`account ${shown} has already been overridden by a precompile`);
      const precompile = usePrecompiles ? swap.get(key) : undefined;
      if (account.movePrecompileToAddress !== undefined) {
        if (precompile === undefined) throw new ExecutionFailed(`account ${shown} is not a precompile`);
        const to = plainHex(account.movePrecompileToAddress.bytes);
        if (overridden.has(to)) throw new ExecutionFailed(`account ${checksummed(account.movePrecompileToAddress)} is already overridden`);
        swap.set(to, precompile);
        dirty.add(to);
      }
      if (precompile !== undefined) swap.delete(key);
      await applyAccount(vm, address, account);
      // Many accounts take long to write: a turn of the event loop after each 1 ms of it (the call's clock).
      const wait = pause(vm);
      if (wait !== undefined) await wait;
    }
    // geth writes the overrides before the transaction starts (and finalises them): a store sees the overridden value
    // as the slot's original (EIP-2200's gas and refunds), not the value under it, which writing them recorded.
    vm.stateManager.originalStorageCache.clear();
    return swap.restore;
  } catch (err) {
    swap.restore();
    throw err;
  }
}

async function applyAccount(vm: VM, address: Address, o: AccountOverride): Promise<void> {
  const state = vm.stateManager;
  const ensure = async () => {
    if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account());
  };
  if (o.nonce !== undefined) {
    await ensure();
    await state.modifyAccountFields(address, { nonce: o.nonce });
  }
  if (o.code !== undefined) {
    await ensure();
    await state.putCode(address, o.code);
  }
  if (o.balance !== undefined) {
    await ensure();
    await state.modifyAccountFields(address, { balance: o.balance });
  }
  if (o.state !== undefined && o.stateDiff !== undefined) throw new ExecutionFailed(`account ${checksummed(address)} has both 'state' and 'stateDiff'`);
  if (o.state !== undefined) {
    await ensure();
    await state.clearStorage(address);
    for (const [slot, value] of o.state) await state.putStorage(address, slot, value);
  }
  if (o.stateDiff !== undefined) {
    await ensure();
    for (const [slot, value] of o.stateDiff) await state.putStorage(address, slot, value);
  }
}

/** geth prints addresses with their EIP-55 checksum. */
const checksummed = (address: Address): string => toChecksumAddress(address.toString());

/** The block-override errors of methods that take neither beaconRoot nor withdrawals (eth_call, eth_estimateGas). */
export function checkCallBlockOverride(o: BlockOverride | undefined): void {
  if (o?.beaconRoot !== undefined) throw new ExecutionFailed('block override "beaconRoot" is not supported for this RPC method');
  if (o?.withdrawals !== undefined) throw new ExecutionFailed('block override "withdrawals" is not supported for this RPC method');
}

type Header = MinedBlock['header'];

/**
 * `header` as the EVM sees it with the block override applied (number, time, gas limit, coinbase, prevRandao,
 * difficulty, base fee, blob base fee). Only the header is read by a call: a view over it is enough.
 */
export function overrideHeader(header: Header, o: BlockOverride | undefined, common?: Common): Header {
  if (o === undefined) return header;
  const props: PropertyDescriptorMap = {};
  const set = (name: string, value: unknown) => (props[name] = { value, enumerable: true });
  if (o.number !== undefined) set('number', o.number);
  if (o.difficulty !== undefined) set('difficulty', o.difficulty);
  if (o.time !== undefined) set('timestamp', o.time);
  if (o.gasLimit !== undefined) set('gasLimit', o.gasLimit);
  if (o.feeRecipient !== undefined) set('coinbase', o.feeRecipient);
  if (o.prevRandao !== undefined) {
    set('mixHash', o.prevRandao);
    set('prevRandao', o.prevRandao);
  }
  if (o.baseFeePerGas !== undefined) set('baseFeePerGas', o.baseFeePerGas);
  if (o.blobBaseFee !== undefined) {
    const fee = o.blobBaseFee;
    set('getBlobGasPrice', () => fee);
  }
  if (common !== undefined) set('common', common);
  return Object.keys(props).length === 0 ? header : (Object.create(header, props) as Header);
}

/** The overrides of one call: state (applied on the call's throwaway state) and block (the header it sees). */
export interface CallOverrides {
  readonly state?: StateOverride;
  readonly block?: BlockOverride;
}

/** `block` as a call with a block override sees it: the same block with the overridden header. */
export function overrideBlock(block: MinedBlock, o: BlockOverride | undefined): MinedBlock {
  if (o === undefined) return block;
  const header = overrideHeader(block.header, o);
  return header === block.header
    ? block
    : (Object.create(block, { header: { value: header, enumerable: true }, block: { value: { header }, enumerable: true } }) as MinedBlock);
}

/**
 * Runs `fn` on `vm` with `state` overrides written inside a checkpoint that is reverted afterwards (and the
 * precompiles put back): for the methods that run a call several times on the same overridden state.
 */
export async function withStateOverride<T>(vm: VM, state: StateOverride | undefined, fn: () => Promise<T>, opts: { precompiles?: boolean } = {}): Promise<T> {
  if (state === undefined || state.length === 0) return fn();
  await vm.stateManager.checkpoint();
  let restore = () => {};
  try {
    restore = await applyStateOverride(vm, state, opts);
    return await fn();
  } finally {
    restore();
    await vm.stateManager.revert();
  }
}
