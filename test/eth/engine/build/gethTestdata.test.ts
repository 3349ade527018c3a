/**
 * Conformance against a chain geth itself generated: go-ethereum's cmd/devp2p/internal/ethtest/testdata
 * (hivechain: genesis.json, chain.rlp, headblock.json; shanghai to prague, transactions of types 0-4).
 * Not vendored (geth's license); point DEVGATE_GETH_TESTDATA at a checkout of that folder to run it:
 *
 *   DEVGATE_GETH_TESTDATA=~/go-ethereum/cmd/devp2p/internal/ethtest/testdata npx vitest run test/eth/import
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { importGethFiles } from '../../../../src/eth/engine/build/import.js';

const dir = process.env.DEVGATE_GETH_TESTDATA;
const present = dir !== undefined && existsSync(join(dir, 'genesis.json')) && existsSync(join(dir, 'chain.rlp')) && existsSync(join(dir, 'headblock.json'));

describe.skipIf(!present)("geth's own test chain", () => {
  it("imports every block with its state and receipts roots, and ends at geth's head block", async () => {
    const { chain, stats } = await importGethFiles('genesis.json', 'chain.rlp', dir);
    const head = JSON.parse(readFileSync(join(dir!, 'headblock.json'), 'utf8')) as { hash: string; number: string };
    expect(chain.head().number).toBe(BigInt(head.number));
    expect(bytesToHex(chain.head().hash)).toBe(head.hash);
    expect(stats.transactions).toBeGreaterThan(0);
  }, 120_000);
});
