/**
 * The EVM journal's warm-address and warm-slot methods (`evm/dist/esm/journal.js`: isWarmedAddress, addWarmedAddress,
 * isWarmedStorage, addWarmedStorage, touchAddress) with their keys made through Buffer (hex.ts's plainHex): the same
 * keys (unprefixed lowercase hex), the same maps, sets and diffs, in the same order. @ethereumjs makes them with
 * @noble's bytesToHex, which on Node before 24 builds each key two digits at a time (~970 B of strings per 32-byte
 * slot against ~180); every SLOAD and SSTORE asks twice or more (bench/blockCost.ts heap-send: ~9 KB per ERC-20 send).
 * Installed per journal, on opted-in EVMs (index.ts); the fence pins journal.js.
 */
import type { Address } from '@ethereumjs/util';
import { plainHex } from '../../../hex.js';

/** The journal's members these methods read and write, as journal.js names them. */
interface JournalInternals {
  journal: Map<string, Set<string>>;
  alwaysWarmJournal: Map<string, Set<string>>;
  journalDiff: [number, [Set<string>, Map<string, Set<string>>, Set<string>]][];
  accessList?: Map<string, Set<string>>;
  touchAccount(addressHex: string): void;
  isWarmedAddress(address: Uint8Array): boolean;
  addWarmedAddress(address: Uint8Array): void;
  isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean;
  addWarmedStorage(address: Uint8Array, slot: Uint8Array): void;
  touchAddress(address: Address): void;
}

const KEYED = Symbol('journalKeys');

/** Gives `journal` the methods above (idempotent). */
export function keyJournalByBuffer(journal: object): void {
  const j = journal as JournalInternals & { [KEYED]?: true };
  if (j[KEYED] === true) return;
  j[KEYED] = true;
  j.isWarmedAddress = function isWarmedAddress(this: JournalInternals, address: Uint8Array): boolean {
    const addressHex = plainHex(address);
    return this.journal.has(addressHex) || this.alwaysWarmJournal.has(addressHex);
  };
  j.addWarmedAddress = function addWarmedAddress(this: JournalInternals, addressBytes: Uint8Array): void {
    addWarmed(this, plainHex(addressBytes));
  };
  j.isWarmedStorage = function isWarmedStorage(this: JournalInternals, address: Uint8Array, slot: Uint8Array): boolean {
    const addressHex = plainHex(address);
    const slots = this.journal.get(addressHex);
    const always = this.alwaysWarmJournal.get(addressHex);
    if (slots === undefined && always === undefined) return false;
    const slotHex = plainHex(slot);
    return slots?.has(slotHex) === true || always?.has(slotHex) === true;
  };
  j.addWarmedStorage = function addWarmedStorage(this: JournalInternals, address: Uint8Array, slot: Uint8Array): void {
    const addressHex = plainHex(address);
    let slots = this.journal.get(addressHex);
    if (slots === undefined) {
      addWarmed(this, addressHex);
      slots = this.journal.get(addressHex)!;
    }
    const slotHex = plainHex(slot);
    if (!slots.has(slotHex)) {
      slots.add(slotHex);
      const addressSlotMap = this.journalDiff[this.journalDiff.length - 1]![1][1];
      let diff = addressSlotMap.get(addressHex);
      if (diff === undefined) addressSlotMap.set(addressHex, (diff = new Set()));
      diff.add(slotHex);
    }
    // addWarmed put the address in the access list (when one is kept).
    if (this.accessList !== undefined) this.accessList.get(addressHex)!.add(slotHex);
  };
  j.touchAddress = function touchAddress(this: JournalInternals, address: Address): void {
    this.touchAccount(plainHex(address.bytes));
  };
}

/** journal.js's addWarmedAddress for a key already made. */
function addWarmed(j: JournalInternals, addressHex: string): void {
  if (!j.journal.has(addressHex)) {
    j.journal.set(addressHex, new Set());
    j.journalDiff[j.journalDiff.length - 1]![1][0].add(addressHex);
  }
  if (j.accessList !== undefined && !j.accessList.has(addressHex)) j.accessList.set(addressHex, new Set());
}
