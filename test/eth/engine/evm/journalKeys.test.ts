/** keyJournalByBuffer (src/eth/engine/evm/journalKeys.ts): the journal's warm sets, diffs and access list as the stock methods leave them. */
import { createEVM } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { keyJournalByBuffer } from '../../../../src/eth/engine/evm/journalKeys.js';

type Journal = {
  journal: Map<string, Set<string>>;
  journalDiff: unknown;
  touched: Set<string>;
  accessList?: Map<string, Set<string>>;
  startReportingAccessList(): void;
  addAlwaysWarmSlot(address: string, slot: string): void;
  checkpoint(): Promise<void>;
  revert(): Promise<void>;
  commit(): Promise<void>;
  isWarmedAddress(a: Uint8Array): boolean;
  addWarmedAddress(a: Uint8Array): void;
  isWarmedStorage(a: Uint8Array, s: Uint8Array): boolean;
  addWarmedStorage(a: Uint8Array, s: Uint8Array): void;
  touchAddress(a: Address): void;
};

const bytes = (n: number, length: number) => new Uint8Array(length).fill(n);

async function run(keyed: boolean): Promise<unknown[]> {
  const evm = await createEVM();
  const j = evm.journal as unknown as Journal;
  if (keyed) keyJournalByBuffer(j);
  j.startReportingAccessList();
  j.addAlwaysWarmSlot(`0x${'ab'.repeat(20)}`, `0x${'0c'.repeat(32)}`);
  const seen: unknown[] = [];
  const a = bytes(0xab, 20);
  const b = bytes(0x01, 20);
  await j.checkpoint();
  for (const [address, slot] of [
    [a, bytes(0x0c, 32)],
    [a, bytes(0x0d, 32)],
    [b, bytes(0xff, 32)],
    [b, bytes(0xff, 32)],
  ] as const) {
    seen.push(j.isWarmedAddress(address), j.isWarmedStorage(address, slot));
    j.addWarmedStorage(address, slot);
    seen.push(j.isWarmedAddress(address), j.isWarmedStorage(address, slot));
  }
  j.addWarmedAddress(bytes(0x02, 20));
  j.touchAddress(new Address(bytes(0x03, 20)));
  await j.checkpoint();
  j.addWarmedStorage(bytes(0x04, 20), bytes(0x05, 32));
  await j.revert();
  seen.push(j.isWarmedStorage(bytes(0x04, 20), bytes(0x05, 32)), j.isWarmedStorage(b, bytes(0xff, 32)));
  await j.commit();
  const sets = (m: Map<string, Set<string>> | undefined) => [...(m ?? [])].map(([k, v]) => [k, [...v]]);
  seen.push(
    sets(j.journal),
    sets(j.accessList),
    [...j.touched],
    JSON.stringify(j.journalDiff, (_, v) => (v instanceof Set ? [...v] : v instanceof Map ? [...v] : v)),
  );
  return seen;
}

describe('the journal keyed through Buffer', () => {
  it('answers and records what the stock journal does', async () => {
    expect(await run(true)).toEqual(await run(false));
  });
});
