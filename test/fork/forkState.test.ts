/**
 * The fork's lazy state against a real upstream (a second devgate serving the small test seed): reads at the fork
 * block equal the upstream's; the upstream's next block, replayed on the fork's state, gives the root the upstream
 * computed (deletions that collapse a branch onto a node no proof brought included); eth_getProof on the fork is the
 * upstream's own proof and verifies against the fork's root; a second run reads everything from the disk cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlockFromRPC } from '@ethereumjs/block';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { createVM, runBlock } from '@ethereumjs/vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFork, type ForkBase } from '../../src/eth/engine/fork/forkBase.js';
import { start, type Gateway } from '../../src/index.js';
import { call } from '../support/http.js';

/** SSTORE(calldata[0:32], calldata[32:64]); STOP. */
/** The upstream's seed: a few blocks with a token, contracts with storage and logs (fast to build). */
const SMALL = 'test/fixtures/eth/small.json';
const STORE_CODE = '0x6020356000355500';
const STORE = '0x00000000000000000000000000000000000c0de5';
const GONE = '0x00000000000000000000000000000000000000a1';
const FRESH = '0x00000000000000000000000000000000000000b2';
const slot = (n: number) => bytesToHex(setLengthLeft(hexToBytes(`0x${n.toString(16).padStart(2, '0')}`), 32));
const word = (n: number) => slot(n).slice(2);

let up: Gateway;
let url: string;
let dir: string;
let forkBlock: bigint;
let accounts: string[];

const rpc = async (method: string, params: unknown[] = []) => {
  const reply = await call(url, method, params);
  if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
  return reply.result;
};

beforeAll(async () => {
  up = await start({ port: 0, chains: [SMALL] });
  url = up.url('small');
  dir = mkdtempSync(join(tmpdir(), 'devgate-fork-'));
  accounts = await rpc('eth_accounts');
  await rpc('anvil_setCode', [STORE, STORE_CODE]);
  for (const n of [1, 2, 3]) await rpc('anvil_setStorageAt', [STORE, slot(n), slot(0x40 + n)]);
  await rpc('anvil_setBalance', [GONE, '0x5']);
  await rpc('evm_mine');
  forkBlock = BigInt(await rpc('eth_blockNumber'));
});
afterAll(async () => {
  await up?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const open = (cacheDir = dir) => openFork({ url, blockNumber: forkBlock, retries: 0, cacheDir });

describe('fork state from proofs', () => {
  let fork: ForkBase;

  it('reads accounts, code and storage at the fork block as the upstream answers them', async () => {
    fork = await open();
    expect(bytesToHex(fork.header.hash())).toBe((await rpc('eth_getBlockByNumber', [`0x${forkBlock.toString(16)}`, false])).hash);
    const tag = `0x${forkBlock.toString(16)}`;
    const sm = fork.headState;
    const everyone = [accounts[0]!, STORE, GONE, FRESH];
    // Asked together: the four proofs go out in one batch request.
    await Promise.all(everyone.map((who) => sm.getAccount(createAddressFromString(who))));
    expect(fork.upstream.requests).toBe(3); // eth_chainId, the fork block's header, one batch of four eth_getProof
    expect(fork.upstream.calls).toBe(6);
    for (const who of everyone) {
      const account = await sm.getAccount(createAddressFromString(who));
      expect(account?.balance ?? 0n).toBe(BigInt(await rpc('eth_getBalance', [who, tag])));
      expect(bytesToHex(await sm.getCode(createAddressFromString(who)))).toBe(await rpc('eth_getCode', [who, tag]));
    }
    for (const n of [1, 2]) {
      const value = await sm.getStorage(createAddressFromString(STORE), hexToBytes(slot(n) as `0x${string}`));
      expect(BigInt(bytesToHex(value.length === 0 ? new Uint8Array(1) : value))).toBe(BigInt(await rpc('eth_getStorageAt', [STORE, slot(n), tag])));
    }
  });

  it("replays the upstream's next block (slots deleted, an account emptied by an edit) to the upstream's state root", async () => {
    await rpc('evm_setAutomine', [false]);
    await rpc('anvil_setBalance', [GONE, '0x0']);
    const from = accounts[0]!;
    await rpc('eth_sendTransaction', [{ from, to: STORE, data: `0x${word(1)}${word(0)}`, gas: '0x30000' }]);
    await rpc('eth_sendTransaction', [{ from, to: STORE, data: `0x${word(2)}${word(0)}`, gas: '0x30000' }]);
    await rpc('eth_sendTransaction', [{ from, to: FRESH, value: '0x7', gas: '0x5208' }]);
    await rpc('evm_mine');
    await rpc('evm_setAutomine', [true]);
    const json = await rpc('eth_getBlockByNumber', [`0x${(forkBlock + 1n).toString(16)}`, true]);
    expect(json.transactions).toHaveLength(3);
    const block = createBlockFromRPC(json, [], { common: fork.common });
    expect(bytesToHex(block.hash())).toBe(json.hash);

    // The edit before the block, as the upstream made it (an emptied account stays, as anvil keeps it).
    await fork.headState.modifyAccountFields(createAddressFromString(GONE), { balance: 0n });
    // Flushed before the block, as the chain's builder does (a cache flush inside the block's checkpoint leaves out
    // what was changed before it).
    await fork.headState.getStateRoot();
    const vm = await createVM({ common: fork.common, stateManager: fork.headState });
    // generate: false checks the receipts, the gas and the state root against the upstream's header.
    await runBlock(vm, { block, skipBlockValidation: true, skipHeaderValidation: true, skipHardForkValidation: true, clearCache: false });
    expect(bytesToHex(await fork.headState.getStateRoot())).toBe(json.stateRoot);
    // Slots 1 and 2 gone leaves slot 3 alone under the storage root: its leaf came from a searched key's proof.
    expect(fork.state.fetched.searches).toBeGreaterThan(0);
  });

  it("gives the upstream's own proofs, which verify against the fork's root", async () => {
    const tag = `0x${(forkBlock + 1n).toString(16)}`;
    const root = await fork.headState.getStateRoot();
    for (const [who, slots] of [
      [STORE, [slot(3), slot(1)]],
      [accounts[0]!, []],
      [FRESH, []],
    ] as [string, string[]][]) {
      const mine = await getMerkleStateProof(
        fork.headState,
        createAddressFromString(who),
        slots.map((s) => hexToBytes(s as `0x${string}`)),
      );
      const theirs = await rpc('eth_getProof', [who, slots, tag]);
      expect(mine.accountProof).toEqual(theirs.accountProof);
      expect(mine.storageProof.map((p) => p.proof)).toEqual(theirs.storageProof.map((p: { proof: string[] }) => p.proof));
      const leaf = await verifyMerkleProof(
        hexToBytes(who as `0x${string}`),
        mine.accountProof.map((h) => hexToBytes(h)),
        { useKeyHashing: true, root },
      );
      expect(leaf).not.toBeNull();
    }
  });

  it('deletes an account whose trie neighbours no proof brought, to the root of a full copy', async () => {
    // Oracle: a fork that has fetched every account of the upstream (a full copy of the account trie).
    const lazy = await openFork({ url, blockNumber: forkBlock, retries: 0 });
    const full = await openFork({ url, blockNumber: forkBlock, retries: 0 });
    const everyone = await knownAccounts(full);
    await Promise.all(everyone.map((who) => full.headState.getAccount(createAddressFromString(who))));
    for (const f of [lazy, full]) await f.headState.deleteAccount(createAddressFromString(GONE));
    expect(bytesToHex(await lazy.headState.getStateRoot())).toBe(bytesToHex(await full.headState.getStateRoot()));
    expect(full.state.fetched.searches).toBe(0);
    // The lazy fork had only GONE's path: the neighbour its leaf's branch collapses onto came from a searched key.
    expect(lazy.state.fetched.searches).toBe(1);
    // With the search limited below that neighbour's depth: an error naming the node, not a made-up root.
    const limited = await openFork({ url, blockNumber: forkBlock, retries: 0, maxSearchNibbles: 0 });
    await expect(limited.headState.deleteAccount(createAddressFromString(GONE))).rejects.toThrow(
      /this deletion needs the fork block's trie node 0x[0-9a-f]{64} \(the account trie at path [0-9a-f]+\), which no fetched proof holds/,
    );
  });

  it('reads nothing from the upstream on a second run with the same cache', async () => {
    const again = await open();
    const sm = again.headState;
    for (const who of [accounts[0]!, STORE, GONE, FRESH]) {
      await sm.getAccount(createAddressFromString(who));
      await sm.getCode(createAddressFromString(who));
    }
    for (const n of [1, 2, 3]) await sm.getStorage(createAddressFromString(STORE), hexToBytes(slot(n) as `0x${string}`));
    // eth_chainId only (the fork block's header is on disk too).
    expect(again.upstream.requests).toBe(1);
    expect(again.state.fetched.proofs).toBe(0);
  });
});

/** Every account of the upstream at the fork block: those the test made, the dev accounts, the seed's senders, recipients and contracts, and the system contracts. */
async function knownAccounts(fork: ForkBase): Promise<string[]> {
  const found = new Set<string>([STORE, GONE, ...accounts]);
  const numbers = Array.from({ length: Number(fork.blockNumber) + 1 }, (_, n) => `0x${n.toString(16)}`);
  // Asked together: the upstream client sends them in batches of 100.
  const blocks = await Promise.all(
    numbers.map((n) => fork.upstream.request<{ miner: string; transactions: { from: string; to: string | null }[] }>('eth_getBlockByNumber', [n, true])),
  );
  const receipts = await Promise.all(numbers.map((n) => fork.upstream.request<{ contractAddress: string | null }[]>('eth_getBlockReceipts', [n])));
  for (const block of blocks) {
    found.add(block.miner);
    for (const tx of block.transactions) {
      found.add(tx.from);
      if (tx.to !== null) found.add(tx.to);
    }
  }
  for (const list of receipts) for (const r of list) if (r.contractAddress !== null) found.add(r.contractAddress);
  for (const system of [
    '0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02',
    '0x0000F90827F1C53a10cb7A02335B175320002935',
    '0x00000961Ef480Eb55e80D19ad83579A64c007002',
    '0x0000BBdDc7CE488642fb579F8B00f3a590007251',
  ]) {
    found.add(system);
  }
  return [...found];
}
