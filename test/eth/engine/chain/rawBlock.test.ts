/**
 * Block fields read straight from a block's RLP (rawBlock.ts, what restored blocks are formatted from)
 * equal @ethereumjs's decoded Block: every header shape from homestead to bpo2, transactions of types
 * 0 to 4 (blobs, authorizations, access lists), an uncle, withdrawals.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { importGethChain } from '../../../../src/eth/engine/build/import.js';
import { rawBlockFields } from '../../../../src/eth/engine/chain/rawBlock.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';

const DIR = fileURLToPath(new URL('../../../fixtures/forks/', import.meta.url));
const HEADER_KEYS = [
  'parentHash',
  'uncleHash',
  'coinbase',
  'stateRoot',
  'transactionsTrie',
  'receiptTrie',
  'logsBloom',
  'difficulty',
  'number',
  'gasLimit',
  'gasUsed',
  'timestamp',
  'extraData',
  'mixHash',
  'nonce',
  'baseFeePerGas',
  'withdrawalsRoot',
  'blobGasUsed',
  'excessBlobGas',
  'parentBeaconBlockRoot',
  'requestsHash',
] as const;
const TX_KEYS = [
  'type',
  'nonce',
  'gasPrice',
  'gasLimit',
  'to',
  'value',
  'data',
  'chainId',
  'maxPriorityFeePerGas',
  'maxFeePerGas',
  'accessList',
  'maxFeePerBlobGas',
  'blobVersionedHashes',
  'authorizationList',
  'v',
  'r',
  's',
] as const;

/** The named fields of an object, with Addresses as strings and views as plain arrays (comparable). */
const plain = (o: object, keys: readonly string[]) =>
  Object.fromEntries(
    keys
      .filter((k) => k in o)
      .map((k) => [
        k,
        JSON.parse(
          JSON.stringify((o as Record<string, unknown>)[k] ?? null, (_, v) =>
            typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v?.constructor?.name === 'Address' ? v.toString() : v,
          ),
        ),
      ]),
  );

let blocks: MinedBlock[];
beforeAll(async () => {
  const { chain } = await importGethChain({
    genesis: JSON.parse(readFileSync(`${DIR}genesis.json`, 'utf8')),
    genesisSource: 'genesis.json',
    chain: new Uint8Array(readFileSync(`${DIR}chain.rlp`)),
    chainSource: 'chain.rlp',
  });
  blocks = [...chain.blocks()];
});

describe('block fields read from RLP', () => {
  it('equal the decoded Block: header, transactions of every type, uncles, withdrawals and size', () => {
    const types = new Set<number>();
    let uncles = 0;
    let withdrawals = 0;
    for (const m of blocks) {
      const bytes = m.block.serialize();
      const raw = rawBlockFields(bytes, keccak_256);
      expect(raw.size).toBe(bytes.length);
      expect(plain(raw.header, HEADER_KEYS), `block ${m.number}`).toEqual(plain(m.block.header, HEADER_KEYS));
      // Fields a hardfork does not have are absent, not present as undefined, in both.
      for (const k of HEADER_KEYS) expect(raw.header[k] !== undefined, `${k} of block ${m.number}`).toBe(m.block.header[k] !== undefined);
      m.block.transactions.forEach((tx, i) => {
        const fields = raw.txFields(i);
        types.add(fields.type);
        expect(plain(fields, TX_KEYS), `tx ${i} of block ${m.number}`).toEqual(plain(tx, TX_KEYS));
        expect(Object.keys(plain(fields, TX_KEYS)).sort()).toEqual(Object.keys(plain(tx, TX_KEYS)).sort());
        expect(plain(raw.txTypeAndTo(i), ['type', 'to'])).toEqual(plain({ type: tx.type, to: tx.to }, ['type', 'to']));
      });
      expect(() => raw.txFields(m.block.transactions.length)).toThrow(RangeError);
      expect(raw.uncleHashes).toEqual(m.block.uncleHeaders.map((u) => u.hash()));
      uncles += raw.uncleHashes.length;
      expect(raw.withdrawals === undefined).toBe(m.block.withdrawals === undefined);
      expect(plain({ w: raw.withdrawals ?? null }, ['w'])).toEqual(
        plain({ w: m.block.withdrawals?.map((w) => ({ index: w.index, validatorIndex: w.validatorIndex, address: w.address, amount: w.amount })) ?? null }, [
          'w',
        ]),
      );
      withdrawals += raw.withdrawals?.length ?? 0;
    }
    expect([...types].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(uncles).toBeGreaterThan(0);
    expect(withdrawals).toBeGreaterThan(0);
  });
});
