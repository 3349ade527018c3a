/**
 * The eth dump in the engine (src/eth/engine/persist/dump): the nodes it keeps are exactly those reachable from the
 * kept state roots (checked against @ethereumjs's own walk of each root, code and storage included; the nodes of a
 * reverted block stay out), a missing node is an error, and a load onto a chain that shares blocks with the dump keeps
 * them, replaces the rest and answers state at every block as the dumped chain did.
 */
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../../src/eth/engine/chain/chain.js';
import type { Miner } from '../../../../../src/eth/engine/mining/miner.js';
import type { EthNode } from '../../../../../src/eth/node/node.js';
import { standaloneNode } from '../../../../../src/eth/node/standalone.js';
import { ManualClock } from '../../../../../src/clock.js';
import { reachableNodes, MissingStateError } from '../../../../../src/eth/engine/persist/dump/reachable.js';
import { DumpError } from '../../../../../src/persist/dumpError.js';
import { decodeEthDump, encodeEthDump } from '../../../../../src/eth/engine/persist/dump/ethDump.js';
import { loadSeedFile } from '../../../../../src/seed/load.js';

const TOKEN = createAddressFromString('0x5fbdb2315678afecb367f032d93f642f64180aa3');
const SINK = createAddressFromString('0x00000000000000000000000000000000000000b8');
let chain: EthChain;
let miner: Miner;
let node: EthNode;

beforeAll(async () => {
  chain = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
  node = standaloneNode(chain, { clock: new ManualClock(), mining: { automine: false } });
  miner = node.miner;
});

async function send(value: bigint): Promise<void> {
  const dev = chain.devAccounts()[4]!;
  const nonce = (await chain.getAccount(dev.address, chain.head()))!.nonce;
  const tx = createFeeMarket1559Tx(
    { chainId: chain.chainId, nonce, gasLimit: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, to: SINK, value },
    { common: chain.common },
  ).sign(dev.privateKey);
  await node.send(tx);
  await node.mine(1n);
}

/** Every node of the trie at `root` as @ethereumjs walks it (accounts, their storage tries and code). */
async function nodesByEthereumjs(root: Uint8Array): Promise<Set<string>> {
  const state = await chain.stateAt(chain.head());
  await state.setStateRoot(root);
  const trie = state['_trie'];
  const seen = new Set<string>();
  await trie.walkAllNodes(async (node) => {
    seen.add(bytesToHex(keccak_256(node.serialize())).slice(2));
  });
  return seen;
}

describe('the nodes a dump keeps', () => {
  it("are those reachable from the kept roots: what @ethereumjs walks, plus code and storage; a reverted block's stay out", async () => {
    await send(1n);
    const keep = chain.head().number;
    await send(2n); // a block that leaves again
    const gone = chain.head().header.stateRoot;
    await chain.truncate(keep);
    await send(3n);
    const roots = [...chain.blocks()].map((m) => m.header.stateRoot);
    const kept = reachableNodes(chain.parts().nodes, roots);
    const store = chain.parts().nodes;
    expect(kept.size).toBeLessThan(store.size);
    expect(kept.has(bytesToHex(gone).slice(2))).toBe(false);
    // The account trie of head, as @ethereumjs walks it, is all in (every node hashed: those over 32 bytes are stored).
    const walked = [...(await nodesByEthereumjs(chain.head().header.stateRoot))].filter((key) => store.has(key));
    expect(walked.length).toBeGreaterThan(20);
    for (const key of walked) expect(kept.has(key), key).toBe(true);
    // The token's code and a storage node of it are in.
    const token = (await chain.getAccount(TOKEN, chain.head()))!;
    expect(kept.has('63' + bytesToHex(token.codeHash).slice(2))).toBe(true);
    expect(kept.has(bytesToHex(token.storageRoot).slice(2))).toBe(true);
    // A root whose nodes are not there.
    expect(() => reachableNodes(store, [new Uint8Array(32).fill(7)])).toThrow(MissingStateError);
  });

  it('an interval dump of a chain that only grew walks only the new nodes, in the order a whole walk gives (the same bytes)', async () => {
    await encodeEthDump('sepolia', { chain, miner });
    await send(5n);
    const again = await encodeEthDump('sepolia', { chain, miner });
    const roots = [...chain.blocks()].map((m) => m.header.stateRoot);
    const whole = [...reachableNodes(chain.parts().nodes, roots).keys()];
    expect([...decodeEthDump(again, chain, 'sepolia').parts.nodes.keys()]).toEqual(whole);
  });

  it('round-trips through the codec and loads onto a chain sharing its blocks, which then reads state as the dumped one at every block', async () => {
    // An unmined hardhat_setPrevRandao travels with the dump, as the other one-shot controls.
    miner.setNextBlockPrevRandao(new Uint8Array(32).fill(7));
    const bytes = await encodeEthDump('sepolia', { chain, miner });
    const other = await chainFromSeed(loadSeedFile('chains/sepolia.json'));
    const dump = decodeEthDump(bytes, other, 'sepolia');
    const otherNode = standaloneNode(other, { clock: new ManualClock() });
    const otherMiner = otherNode.miner;
    const result = await otherNode.loadDump(dump);
    expect(result.shared).toBe(40n); // sepolia's seeded blocks
    expect(result.head).toBe(chain.head().number);
    for (const m of chain.blocks()) {
      expect(bytesToHex(other.blockByNumber(m.number)!.hash)).toBe(bytesToHex(m.hash));
      expect((await other.getAccount(SINK, other.blockByNumber(m.number)!))?.balance).toBe((await chain.getAccount(SINK, m))?.balance);
    }
    expect(otherMiner.mode()).toEqual({ automine: false, intervalMs: undefined });
    expect(bytesToHex(otherMiner.nextHeader().prevRandao!)).toBe(`0x${'07'.repeat(32)}`);
    // A flipped byte in the chain image is refused.
    const bad = Uint8Array.from(bytes);
    bad[bad.length - 100]! ^= 1;
    expect(() => decodeEthDump(bad, other, 'sepolia')).toThrow(DumpError);
  });
});
