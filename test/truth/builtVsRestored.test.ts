/**
 * One source of truth: a chain restored from its chain image (what users get on every start after
 * the first) answers every block, transaction, receipt and log query with the same JSON text as the
 * chain built by executing its seed (what a cold start and most tests get). Every block of the
 * shipped chains (mainnet, sepolia) and of the imported fork chain (homestead to bpo2) is asked
 * through the eth methods, on both chains, and the response texts compared byte for byte. The
 * restored chain is restored before any lookup, so its blocks are read from their RLP on first
 * touch (by number, by hash, by transaction hash), the path a fresh restore serves.
 */
import { nodeOf } from '../support/node.js';
import { describe, expect, it } from 'vitest';
import { chainCommon, chainKey } from '../../src/cache/chainCache.js';
import { chainFromSeed } from '../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../src/eth/engine/chain/chain.js';
import { encodeChainImage, restoreChainImage } from '../../src/eth/engine/image/chainImage.js';
import { ethMethods } from '../../src/eth/methods/index.js';
import { responseText } from '../../src/rpc/envelope.js';
import { loadSeedFile } from '../../src/seed/load.js';

const methods = ethMethods();
const hex = (n: bigint | number) => `0x${n.toString(16)}`;
const bytesHex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

/** The built chain of a seed file and the same chain restored from its chain image. */
async function bothChains(file: string): Promise<{ built: EthChain; restored: EthChain; name: string }> {
  const loaded = loadSeedFile(file);
  const built = await chainFromSeed(loaded);
  await nodeOf(built).pendingBlock();
  const key = chainKey(loaded);
  const image = encodeChainImage(built.parts(), key);
  const restored = await restoreChainImage(image, { key, common: await chainCommon(loaded) });
  return { built, restored, name: loaded.seed.name };
}

/** Every read of the chain's history the methods answer: per block, per transaction, per log. */
function queries(chain: EthChain): [string, unknown[]][] {
  const out: [string, unknown[]][] = [];
  for (const m of chain.blocks()) {
    const num = hex(m.number);
    const hash = bytesHex(m.hash);
    for (const full of [false, true]) {
      out.push(['eth_getBlockByNumber', [num, full]], ['eth_getBlockByHash', [hash, full]]);
    }
    out.push(
      ['eth_getBlockReceipts', [num]],
      ['eth_getBlockReceipts', [hash]],
      ['eth_getBlockTransactionCountByNumber', [num]],
      ['eth_getBlockTransactionCountByHash', [hash]],
      ['eth_getUncleCountByBlockNumber', [num]],
      ['eth_getUncleCountByBlockHash', [hash]],
      ['eth_getLogs', [{ blockHash: hash }]],
      ['eth_getLogs', [{ fromBlock: num, toBlock: num }]],
      // geth's small methods (issue 17): raw bytes, headers, the first uncle.
      ['debug_getRawBlock', [num]],
      ['debug_getRawHeader', [hash]],
      ['debug_getRawReceipts', [num]],
      ['eth_getHeaderByNumber', [num]],
      ['eth_getHeaderByHash', [hash]],
      ['eth_getUncleByBlockNumberAndIndex', [num, '0x0']],
    );
    const txs = m.block.transactions;
    for (let i = 0; i < txs.length; i++) {
      const txHash = bytesHex(txs[i]!.hash());
      out.push(
        ['eth_getTransactionByHash', [txHash]],
        ['eth_getTransactionReceipt', [txHash]],
        ['eth_getTransactionByBlockNumberAndIndex', [num, hex(i)]],
        ['eth_getTransactionByBlockHashAndIndex', [hash, hex(i)]],
        ['debug_getRawTransaction', [txHash]],
        ['eth_getRawTransactionByBlockNumberAndIndex', [num, hex(i)]],
      );
    }
    // One past the last index: null on both.
    out.push(['eth_getTransactionByBlockNumberAndIndex', [num, hex(txs.length)]]);
  }
  out.push(['eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }]], ['eth_getBlockByNumber', ['pending', true]]);
  return out;
}

async function ask(chain: EthChain, networkName: string, method: string, params: unknown[]): Promise<string> {
  return responseText(await methods.execute({ node: nodeOf(chain), chain, networkName, miner: nodeOf(chain).miner }, { id: 1, method, params }));
}

describe.each([['chains/mainnet.json'], ['chains/sepolia.json'], ['test/fixtures/forks/seed.json']])('built and restored %s', (file) => {
  it('answer every block, transaction, receipt and log with the same JSON text', async () => {
    const { built, restored, name } = await bothChains(file);
    // Ask the restored chain first: its blocks are then decoded from their RLP by these very reads.
    const qs = queries(built);
    const restoredTexts: string[] = [];
    for (const [method, params] of qs) restoredTexts.push(await ask(restored, name, method, params));
    let txs = 0;
    for (let i = 0; i < qs.length; i++) {
      const [method, params] = qs[i]!;
      const builtText = await ask(built, name, method, params);
      expect(builtText, `${method} ${JSON.stringify(params)}`).not.toContain('"error"');
      expect(restoredTexts[i], `${method} ${JSON.stringify(params)}`).toBe(builtText);
      if (method === 'eth_getTransactionReceipt') txs++;
    }
    expect(txs).toBeGreaterThan(0);
    expect([...restored.blocks()].length).toBe([...built.blocks()].length);
  });
});
