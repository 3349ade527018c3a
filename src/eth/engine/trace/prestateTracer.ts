/**
 * geth's prestateTracer (eth/tracers/native/prestate.go): every account the transaction touches as it was before
 * (balance, nonce, code, code hash, the storage slots it reads or writes); with `diffMode`, `pre` and `post` hold
 * only what changed (post: the new values; slots that become zero are left out of post).
 *
 * Accounts are looked up as geth's are: sender, recipient (or created address) and coinbase at the start, with
 * EIP-7702 authorities and delegation targets; then by opcode (SLOAD/SSTORE slots, EXTCODE*, BALANCE, SELFDESTRUCT,
 * the targets of calls, the addresses CREATE and CREATE2 make).
 */
import {
  Address,
  bytesToBigInt,
  bytesToHex,
  equalsBytes,
  generateAddress,
  generateAddress2,
  KECCAK256_NULL,
  setLengthLeft,
  bigIntToBytes,
} from '@ethereumjs/util';
import type { Step, StepState, Tracer } from './hooks.js';
import type { PrestateAccount, PrestateResult, PrestateTracerOptions } from './types.js';

type Entry = { readonly address: Address; readonly account: PrestateAccount };
const ZERO32 = new Uint8Array(32);
const DELEGATION = Uint8Array.from([0xef, 0x01, 0x00]);

/** The start of a transaction, as the tracer needs it. */
export interface TxStart {
  readonly from: Address;
  /** The recipient, or the address a creation makes. */
  readonly to: Address;
  readonly isCreate: boolean;
  readonly coinbase: Address;
  readonly authorities: readonly Address[];
  /** EIP-7702 (Prague on): delegation targets are looked up too. */
  readonly prague: boolean;
  /** EIP-6780 (Cancun on): SELFDESTRUCT deletes only what the transaction created. */
  readonly cancun: boolean;
}

const wordAddress = (word: bigint) => new Address(setLengthLeft(bigIntToBytes(word & ((1n << 160n) - 1n)), 20));
const slotBytes = (word: bigint) => setLengthLeft(bigIntToBytes(word), 32);

function delegationTarget(code: Uint8Array): Address | undefined {
  return code.length === 23 && equalsBytes(code.subarray(0, 3), DELEGATION) ? new Address(code.slice(3)) : undefined;
}

export class PrestateTracer implements Tracer {
  readonly wantsSteps = true;
  readonly asyncSteps = true;
  private readonly pre = new Map<string, Entry>();
  private readonly post = new Map<string, Entry>();
  private readonly created = new Set<string>();
  private readonly deleted = new Set<string>();
  private start!: TxStart;

  constructor(
    private readonly opts: PrestateTracerOptions,
    private readonly state: StepState,
  ) {}

  async txStart(start: TxStart): Promise<void> {
    this.start = start;
    if (start.isCreate) this.created.add(start.to.toString());
    else if (start.prague) {
      const target = delegationTarget(await this.state.getCode(start.to));
      if (target !== undefined) await this.lookupAccount(target);
    }
    await this.lookupAccount(start.from);
    await this.lookupAccount(start.to);
    await this.lookupAccount(start.coinbase);
    for (const a of start.authorities) await this.lookupAccount(a);
  }

  async step(s: Step): Promise<void> {
    const stack = s.stack;
    const n = stack.length;
    const op = s.opcode;
    const caller = s.address;
    if (n >= 1 && (op === 0x54 || op === 0x55)) return this.lookupStorage(caller, slotBytes(stack[n - 1]!));
    if (n >= 1 && (op === 0x3c || op === 0x3f || op === 0x3b || op === 0x31 || op === 0xff)) {
      await this.lookupAccount(wordAddress(stack[n - 1]!));
      if (op === 0xff && (!this.start.cancun || this.created.has(caller.toString()))) this.deleted.add(caller.toString());
      return;
    }
    if (n >= 5 && (op === 0xf1 || op === 0xf2 || op === 0xf4 || op === 0xfa)) {
      const target = wordAddress(stack[n - 2]!);
      await this.lookupAccount(target);
      if (this.start.prague) {
        const delegate = delegationTarget(await this.state.getCode(target));
        if (delegate !== undefined) await this.lookupAccount(delegate);
      }
      return;
    }
    if (op === 0xf0) {
      const nonce = (await this.state.getAccount(caller))?.nonce ?? 0n;
      const addr = new Address(generateAddress(caller.bytes, bigIntToBytes(nonce)));
      await this.lookupAccount(addr);
      this.created.add(addr.toString());
    } else if (op === 0xf5 && n >= 4) {
      const offset = Number(stack[n - 2]!);
      const size = Number(stack[n - 3]!);
      const init = new Uint8Array(size);
      if (offset < s.memory.length) init.set(s.memory.subarray(offset, offset + size));
      const addr = new Address(generateAddress2(caller.bytes, slotBytes(stack[n - 4]!), init));
      await this.lookupAccount(addr);
      this.created.add(addr.toString());
    }
  }

  /** After the transaction (its state as it left it). */
  async txEnd(): Promise<void> {
    if (this.opts.diffMode) await this.diff();
    if (this.opts.includeEmpty) return;
    for (const [key, e] of this.pre) if (e.account.empty) this.pre.delete(key);
  }

  result(): PrestateResult {
    return { kind: 'prestateTracer', diffMode: this.opts.diffMode, pre: this.pre, post: this.post };
  }

  private async lookupAccount(address: Address): Promise<void> {
    const key = address.toString();
    if (this.pre.has(key)) return;
    const acc = await this.state.getAccount(address);
    const code = await this.state.getCode(address);
    const account: PrestateAccount = { balance: acc?.balance ?? 0n, nonce: acc?.nonce ?? 0n, empty: false };
    if (code.length > 0) account.code = code;
    if (acc !== undefined && !equalsBytes(acc.codeHash, KECCAK256_NULL)) account.codeHash = acc.codeHash;
    account.empty = !(account.nonce > 0n || code.length > 0 || account.balance! !== 0n);
    if (this.opts.disableCode) account.code = undefined;
    if (!this.opts.disableStorage) account.storage = new Map();
    this.pre.set(key, { address, account });
  }

  private async lookupStorage(address: Address, slot: Uint8Array): Promise<void> {
    if (this.opts.disableStorage) return;
    const entry = this.pre.get(address.toString());
    if (entry === undefined) return;
    const key = bytesToHex(slot);
    if (entry.account.storage!.has(key)) return;
    const value = setLengthLeft(await this.state.getStorage(address, slot), 32);
    entry.account.storage!.set(key, { slot, value });
  }

  /** geth's processDiffState. */
  private async diff(): Promise<void> {
    for (const [key, { address, account: pre }] of this.pre) {
      if (this.deleted.has(key)) continue;
      let modified = false;
      const post: PrestateAccount = { nonce: 0n, empty: false, storage: new Map() };
      const acc = await this.state.getAccount(address);
      const balance = acc?.balance ?? 0n;
      const nonce = acc?.nonce ?? 0n;
      const codeHash = acc?.codeHash ?? KECCAK256_NULL;
      if (balance !== pre.balance) {
        modified = true;
        post.balance = balance;
      }
      if (nonce !== pre.nonce) {
        modified = true;
        post.nonce = nonce;
      }
      if (!equalsBytes(codeHash, pre.codeHash ?? KECCAK256_NULL)) {
        modified = true;
        post.codeHash = codeHash;
      }
      if (!this.opts.disableCode) {
        const code = await this.state.getCode(address);
        if (!equalsBytes(code, pre.code ?? new Uint8Array())) {
          modified = true;
          post.code = code;
        }
      }
      if (!this.opts.disableStorage) {
        for (const [slotKey, { slot, value }] of pre.storage ?? []) {
          if (equalsBytes(value, ZERO32)) pre.storage!.delete(slotKey);
          const now = setLengthLeft(await this.state.getStorage(address, slot), 32);
          if (equalsBytes(value, now)) pre.storage!.delete(slotKey);
          else {
            modified = true;
            if (bytesToBigInt(now) !== 0n) post.storage!.set(slotKey, { slot, value: now });
          }
        }
      }
      if (modified) this.post.set(key, { address, account: post });
      else this.pre.delete(key);
    }
  }
}
