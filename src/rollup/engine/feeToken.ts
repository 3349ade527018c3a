/**
 * The fee tokens (ETH and STRK), modelled natively: devgate runs no Cairo, so the OpenZeppelin Cairo
 * ERC20 component the real tokens use is reproduced here. Balances, allowances and the total supply are
 * storage of the token contract at OZ's storage addresses (u256: low at the address, high at +1):
 *
 *   ERC20_balances[owner]             pedersen(sn_keccak("ERC20_balances"), owner)
 *   ERC20_allowances[(owner, spender)] pedersen(pedersen(sn_keccak("ERC20_allowances"), owner), spender)
 *   ERC20_total_supply                sn_keccak("ERC20_total_supply")
 *
 * so starknet_getStorageAt reads them and the state commitment covers them. Entry points: transfer,
 * transfer_from / transferFrom, approve, increase_allowance / increaseAllowance, decrease_allowance /
 * decreaseAllowance, and starknet-devnet's permissioned_mint (only its chargeable account mints); the
 * views answer nothing and write nothing. Events are OZ's: Transfer {#[key] from, #[key] to, value} and
 * Approval {#[key] owner, #[key] spender, value}. A failed assertion is an ERC20Failure carrying OZ's message.
 */
import { keccak, pedersen } from '@scure/starknet';
import type { ContractState, Felt, RollupEvent, RollupState, StorageWrite } from './types.js';

const snKeccak = (name: string): Felt => keccak(new TextEncoder().encode(name));
/** Storage addresses are below 2^251 - 256 (Cairo's storage_base_address_from_felt252). */
const STORAGE_BOUND = (1n << 251n) - 256n;
const hash2 = (a: Felt, b: Felt): Felt => BigInt(pedersen(a, b));

export const BALANCES = snKeccak('ERC20_balances');
export const ALLOWANCES = snKeccak('ERC20_allowances');
export const TOTAL_SUPPLY = snKeccak('ERC20_total_supply');
const U128 = (1n << 128n) - 1n;
const U256_MAX = (1n << 256n) - 1n;

/** starknet-devnet's chargeable account: the only caller permissioned_mint accepts (devnet_mint signs with it). */
export const DEVNET_MINTER = 0x1caf2df5ed5dde1ae3faef4acd72522ac3cb16e23f6dc4c7f9faed67124c511n;

export const TRANSFER_EVENT = snKeccak('Transfer');
export const APPROVAL_EVENT = snKeccak('Approval');

/**
 * Pedersen is slow in JS (a few ms a hash) and every transaction reads and writes the fee payer's and the
 * sequencer's balances: storage addresses are remembered, by owner (and spender), up to 100,000 of each.
 */
const memo = <K>(cache: Map<K, Felt>, key: K, compute: () => Felt): Felt => {
  let v = cache.get(key);
  if (v === undefined) {
    if (cache.size >= 100_000) cache.clear();
    cache.set(key, (v = compute()));
  }
  return v;
};
const balanceKeys = new Map<Felt, Felt>();
const allowanceKeys = new Map<string, Felt>();

/** The storage address of `owner`'s balance (low felt; high is at +1). */
export const balanceKey = (owner: Felt): Felt => memo(balanceKeys, owner, () => hash2(BALANCES, owner) % STORAGE_BOUND);
/** The storage address of what `spender` may spend of `owner`'s balance (low felt; high is at +1). */
export const allowanceKey = (owner: Felt, spender: Felt): Felt =>
  memo(allowanceKeys, `${owner.toString(16)}:${spender.toString(16)}`, () => hash2(hash2(ALLOWANCES, owner), spender) % STORAGE_BOUND);

export const u256 = (n: bigint): [Felt, Felt] => [n & U128, n >> 128n];

const EMPTY = new Map<Felt, Felt>();
const storageOf = (state: RollupState, token: Felt): ReadonlyMap<Felt, Felt> => state.get(token)?.storage ?? EMPTY;

/** A u256 read from storage (absent slots are 0). */
export function readU256(storage: ReadonlyMap<Felt, Felt>, key: Felt): bigint {
  return (storage.get(key) ?? 0n) + ((storage.get(key + 1n) ?? 0n) << 128n);
}

/** `owner`'s balance of `token` in a state (0 where the token holds nothing). */
export const balanceIn = (state: RollupState, token: Felt, owner: Felt): bigint => readU256(storageOf(state, token), balanceKey(owner));
export const allowanceIn = (state: RollupState, token: Felt, owner: Felt, spender: Felt): bigint =>
  readU256(storageOf(state, token), allowanceKey(owner, spender));
export const totalSupplyIn = (state: RollupState, token: Felt): bigint => readU256(storageOf(state, token), TOTAL_SUPPLY);

/** The writes that set a u256 at `key` of `token`. */
export function u256Writes(token: Felt, key: Felt, value: bigint): StorageWrite[] {
  const [low, high] = u256(value);
  return [
    { contractAddress: token, key, value: low },
    { contractAddress: token, key: key + 1n, value: high },
  ];
}

/**
 * Applies storage writes to a mutable state copy. A write to an address with no entry (a fee token a seed
 * does not deploy, still holding balances) makes one with `deployed: false`.
 */
export function writeStorage(state: Map<Felt, ContractState>, writes: readonly StorageWrite[]): void {
  const byContract = new Map<Felt, StorageWrite[]>();
  for (const w of writes) byContract.set(w.contractAddress, [...(byContract.get(w.contractAddress) ?? []), w]);
  for (const [address, ws] of byContract) {
    const c = state.get(address) ?? { classHash: 0n, nonce: 0n, storage: new Map(), deployed: false as const };
    const storage = new Map(c.storage);
    for (const w of ws) storage.set(w.key, w.value);
    state.set(address, { ...c, storage });
  }
}

/** Credits balances of `token` (and its total supply) in a mutable state, as a seed or a restart funds holders. */
export function creditBalances(state: Map<Felt, ContractState>, token: Felt, credits: readonly (readonly [Felt, bigint])[]): void {
  const run = new TokenRun(state, token);
  for (const [owner, amount] of credits) if (amount > 0n) run.update(0n, owner, amount);
  writeStorage(state, run.writes);
}

/** Moves `amount` of `token` from one holder to another in a mutable state (fees; no event). Throws ERC20Failure. */
export function moveBalance(state: Map<Felt, ContractState>, token: Felt, from: Felt, to: Felt, amount: bigint): void {
  const run = new TokenRun(state, token);
  run.update(from, to, amount);
  writeStorage(state, run.writes);
}

/** An OZ ERC20 assertion that failed: the call reverts with this message. */
export class ERC20Failure extends Error {}

const sel = (...names: string[]) => new Set(names.map(snKeccak));
const TRANSFER = sel('transfer');
const TRANSFER_FROM = sel('transfer_from', 'transferFrom');
const APPROVE = sel('approve');
const INCREASE = sel('increase_allowance', 'increaseAllowance');
const DECREASE = sel('decrease_allowance', 'decreaseAllowance');
const MINT = sel('permissioned_mint');
/** Views: invoking them changes nothing. */
export const VIEWS = sel('balance_of', 'balanceOf', 'allowance', 'total_supply', 'totalSupply', 'name', 'symbol', 'decimals');

/** Whether a selector is an entry point the model knows (the others revert: entry point not found). */
export const isTokenEntryPoint = (selector: Felt): boolean => [TRANSFER, TRANSFER_FROM, APPROVE, INCREASE, DECREASE, MINT, VIEWS].some((s) => s.has(selector));

/** One transaction's token calls: reads see earlier writes of the same run; `writes` and `events` collect what it did. */
export class TokenRun {
  readonly writes: StorageWrite[] = [];
  readonly events: RollupEvent[] = [];
  private readonly pending = new Map<Felt, Felt>();

  constructor(
    private readonly state: RollupState,
    readonly token: Felt,
  ) {}

  private read(key: Felt): bigint {
    const base = storageOf(this.state, this.token);
    const slot = (k: Felt) => this.pending.get(k) ?? base.get(k) ?? 0n;
    return slot(key) + (slot(key + 1n) << 128n);
  }

  private write(key: Felt, value: bigint): void {
    for (const w of u256Writes(this.token, key, value)) {
      this.pending.set(w.key, w.value);
      this.writes.push(w);
    }
  }

  /** OZ's `update`: from 0 mints, to 0 burns; Transfer is emitted. */
  update(from: Felt, to: Felt, amount: bigint): void {
    if (from === 0n) {
      const supply = this.read(TOTAL_SUPPLY) + amount;
      if (supply > U256_MAX) throw new ERC20Failure('u256_add Overflow');
      this.write(TOTAL_SUPPLY, supply);
    } else {
      const balance = this.read(balanceKey(from));
      if (balance < amount) throw new ERC20Failure('ERC20: insufficient balance');
      this.write(balanceKey(from), balance - amount);
    }
    if (to === 0n) this.write(TOTAL_SUPPLY, this.read(TOTAL_SUPPLY) - amount);
    else {
      const balance = this.read(balanceKey(to)) + amount;
      if (balance > U256_MAX) throw new ERC20Failure('u256_add Overflow');
      this.write(balanceKey(to), balance);
    }
    this.events.push({ fromAddress: this.token, keys: [TRANSFER_EVENT, from, to], data: u256(amount) });
  }

  private transfer(sender: Felt, recipient: Felt, amount: bigint): void {
    if (sender === 0n) throw new ERC20Failure('ERC20: transfer from 0');
    if (recipient === 0n) throw new ERC20Failure('ERC20: transfer to 0');
    this.update(sender, recipient, amount);
  }

  private approve(owner: Felt, spender: Felt, amount: bigint): void {
    if (owner === 0n) throw new ERC20Failure('ERC20: approve from 0');
    if (spender === 0n) throw new ERC20Failure('ERC20: approve to 0');
    this.write(allowanceKey(owner, spender), amount);
    this.events.push({ fromAddress: this.token, keys: [APPROVAL_EVENT, owner, spender], data: u256(amount) });
  }

  /** Runs one call from `caller`; answers its return felts. Throws ERC20Failure. */
  call(caller: Felt, selector: Felt, calldata: readonly Felt[]): Felt[] {
    const args = (n: number): Felt[] => {
      if (calldata.length !== n)
        throw new ERC20Failure(`Failed to deserialize param #${Math.min(calldata.length, n) + 1}: want ${n} felts, got ${calldata.length}`);
      return [...calldata];
    };
    const amountAt = (a: Felt[], i: number): bigint => {
      const [low, high] = [a[i]!, a[i + 1]!];
      if (low > U128 || high > U128) throw new ERC20Failure(`Failed to deserialize param #${i + 1}: a u256 is two felts below 2^128`);
      return low + (high << 128n);
    };
    if (TRANSFER.has(selector)) {
      const a = args(3);
      this.transfer(caller, a[0]!, amountAt(a, 1));
      return [1n];
    }
    if (TRANSFER_FROM.has(selector)) {
      const a = args(4);
      const [owner, recipient, amount] = [a[0]!, a[1]!, amountAt(a, 2)];
      const allowed = this.read(allowanceKey(owner, caller));
      if (allowed !== U256_MAX) {
        if (allowed < amount) throw new ERC20Failure('ERC20: insufficient allowance');
        this.approve(owner, caller, allowed - amount);
      }
      this.transfer(owner, recipient, amount);
      return [1n];
    }
    if (APPROVE.has(selector)) {
      const a = args(3);
      this.approve(caller, a[0]!, amountAt(a, 1));
      return [1n];
    }
    if (INCREASE.has(selector) || DECREASE.has(selector)) {
      const a = args(3);
      const current = this.read(allowanceKey(caller, a[0]!));
      const by = amountAt(a, 1);
      const next = INCREASE.has(selector) ? current + by : current - by;
      if (next < 0n) throw new ERC20Failure('u256_sub Overflow');
      if (next > U256_MAX) throw new ERC20Failure('u256_add Overflow');
      this.approve(caller, a[0]!, next);
      return [1n];
    }
    if (MINT.has(selector)) {
      const a = args(3);
      if (caller !== DEVNET_MINTER) throw new ERC20Failure('Only the permitted minter can mint (devnet_mint)');
      this.update(0n, a[0]!, amountAt(a, 1));
      return [];
    }
    if (VIEWS.has(selector)) return [];
    throw new ERC20Failure(`Entry point ${'0x' + selector.toString(16)} not found in contract.`);
  }
}
