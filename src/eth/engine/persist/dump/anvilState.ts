/**
 * anvil's state file (`anvil --dump-state`, `anvil_dumpState` once un-gzipped): foundry's SerializableState, JSON:
 * `block` (the block env: number, timestamp, ...), `accounts` (address -> nonce, balance, code, storage),
 * `best_block_number`, and where present `blocks`, `transactions` and `historical_states`.
 *
 * devgate takes its accounts as anvil's own load does (crates/anvil/src/eth/backend/db.rs, Db::load_state): each
 * account's balance and code become the file's, its nonce the larger of both, and each storage slot of the file is
 * set (other slots stay). They land in head's state as unmined edits (reads at latest see them, the next block
 * commits them). anvil's blocks and transactions are counted, not replayed: their headers carry state roots of
 * anvil's trie, which the file does not hold, and devgate's chain keeps its own history.
 */
import { Account, Address, setLengthLeft, unpadBytes } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { hexBytes } from '../../../../hex.js';
import { DumpError } from '../../../../persist/dumpError.js';

export interface AnvilAccount {
  readonly address: Address;
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly code: Uint8Array;
  /** Slot (32 bytes) and value (32 bytes). */
  readonly storage: readonly (readonly [Uint8Array, Uint8Array])[];
}

/** What devgate reads of an anvil state file. */
export interface AnvilState {
  readonly accounts: readonly AnvilAccount[];
  /** The file's block env number and best block number, where given (informative). */
  readonly blockNumber: bigint | undefined;
  readonly blocks: number;
  readonly transactions: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A number as anvil writes them: a JSON number, a 0x hex string or a decimal string. */
function num(v: unknown, what: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(v)) return BigInt(v);
  throw new DumpError(`anvil state: ${what} is not a number (${JSON.stringify(v)?.slice(0, 40)})`);
}

function bytes(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw new DumpError(`anvil state: ${what} is not 0x-prefixed hex bytes`);
  return hexBytes(v);
}

/** A storage key or value: a U256 as hex (anvil writes 32-byte words; shorter quantities are taken too). */
function word(v: unknown, what: string): Uint8Array {
  const n = num(v, what);
  if (n >= 1n << 256n) throw new DumpError(`anvil state: ${what} exceeds 256 bits`);
  return setLengthLeft(hexBytes(n.toString(16).padStart(64, '0')), 32);
}

/** Whether a parsed JSON value looks like an anvil state file (an object with `accounts`). */
export function isAnvilState(json: unknown): boolean {
  return isObject(json) && isObject(json.accounts);
}

/** Reads anvil's SerializableState; throws DumpError naming the bad field. */
export function parseAnvilState(json: unknown): AnvilState {
  if (!isObject(json) || !isObject(json.accounts)) throw new DumpError('not an anvil state file: no "accounts" object');
  const accounts: AnvilAccount[] = [];
  for (const [addr, rec] of Object.entries(json.accounts)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(addr)) throw new DumpError(`anvil state: account key ${JSON.stringify(addr)} is not an address`);
    if (!isObject(rec)) throw new DumpError(`anvil state: account ${addr} is not an object`);
    const storage = rec.storage === undefined || rec.storage === null ? {} : rec.storage;
    if (!isObject(storage)) throw new DumpError(`anvil state: storage of ${addr} is not an object`);
    accounts.push({
      address: new Address(hexBytes(addr)),
      nonce: num(rec.nonce ?? 0, `nonce of ${addr}`),
      balance: num(rec.balance ?? 0, `balance of ${addr}`),
      code: rec.code === undefined || rec.code === null ? new Uint8Array() : bytes(rec.code, `code of ${addr}`),
      storage: Object.entries(storage).map(([k, v]) => [word(k, `a storage slot of ${addr}`), word(v, `storage ${k} of ${addr}`)] as const),
    });
  }
  const block = isObject(json.block) ? json.block : undefined;
  const best = json.best_block_number ?? block?.number;
  return {
    accounts,
    blockNumber: best === undefined || best === null ? undefined : num(best, 'best_block_number'),
    blocks: Array.isArray(json.blocks) ? json.blocks.length : 0,
    transactions: Array.isArray(json.transactions) ? json.transactions.length : 0,
  };
}

/** The edit of head's state that puts an anvil state's accounts in (the node runs it on its writer: one edit, all or nothing). */
export function anvilStateEdit(state: AnvilState): (sm: MerkleStateManager) => Promise<void> {
  return async (sm) => {
    for (const a of state.accounts) {
      const account = (await sm.getAccount(a.address)) ?? new Account();
      account.nonce = account.nonce > a.nonce ? account.nonce : a.nonce;
      account.balance = a.balance;
      await sm.putAccount(a.address, account);
      await sm.putCode(a.address, a.code);
      for (const [slot, value] of a.storage) await sm.putStorage(a.address, slot, unpadBytes(value));
    }
  };
}
