/**
 * The upstream the fork tests fork: a second devgate serving the small test seed (a few blocks with a token,
 * contracts with storage and logs), behind a counting proxy, and a fresh fork of it with no disk cache.
 */
import { readFileSync } from 'node:fs';
import { type Abi, createPublicClient, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { start, type Gateway, type StartOptions } from '../../src/index.js';
import { type CountingProxy, countingProxy } from './countingProxy.js';

export const SMALL = 'test/fixtures/eth/small.json';
export const tokenAbi = (JSON.parse(readFileSync('chains/contracts/Token.json', 'utf8')) as { abi: Abi }).abi;
export const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const dev0 = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
export const TO = '0x00000000000000000000000000000000000000e5';

export interface SmallUpstream {
  readonly up: Gateway;
  readonly upstream: PublicClient;
  readonly proxy: CountingProxy;
  /** The upstream's head, where the forks fork. */
  readonly forkBlock: bigint;
  /** The token the seed's first transaction deploys. */
  readonly token: `0x${string}`;
  stop(): Promise<void>;
}

export async function smallUpstream(): Promise<SmallUpstream> {
  const up = await start({ port: 0, chains: [SMALL], cache: false });
  const upstream = createPublicClient({ chain: foundry, transport: http(up.url('small')) });
  const forkBlock = await upstream.getBlockNumber();
  const first = await upstream.getBlock({ blockNumber: 1n });
  const token = (await upstream.getTransactionReceipt({ hash: first.transactions[0]! })).contractAddress!;
  const proxy = await countingProxy(up.url('small'));
  return {
    up,
    upstream,
    proxy,
    forkBlock,
    token,
    stop: async () => {
      await proxy.close();
      await up.stop();
    },
  };
}

/** A fresh fork of the proxy at the fork block, without a disk cache, served at its bare address. */
export async function startFork(small: SmallUpstream, extra: Partial<StartOptions> = {}): Promise<{ gw: Gateway; client: PublicClient; url: string }> {
  const gw = await start({
    port: 0,
    chains: [{ name: 'tiny', kind: 'eth', chainId: 5 }],
    fork: { url: small.proxy.url, blockNumber: Number(small.forkBlock), retries: 0 },
    cache: false,
    ...extra,
  });
  const url = gw.bareUrl();
  return { gw, url, client: createPublicClient({ chain: foundry, transport: http(url) }) };
}
