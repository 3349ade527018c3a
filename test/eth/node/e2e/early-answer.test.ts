/**
 * An automined send answers once its block has taken it, before the block is sealed (issue 26: the suite's client
 * waited for every block's whole seal), and every later request of that network waits for the seal before it runs:
 * a receipt, a nonce or the block number read right after the answer over HTTP, WebSocket, the in-process provider
 * or the start() handle's async reads sees the block. Another network does not wait. The seal is held here (its
 * draft's `seal` waits for a gate the test opens), so what runs while it is unfinished is seen, not raced.
 */
import { createPublicClient, createWalletClient, custom, http, keccak256, parseGwei, webSocket, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlockDraft } from '../../../../src/eth/engine/mining/draft.js';
import { start, type Gateway } from '../../../../src/index.js';
import { call, result } from '../../../support/http.js';

const SINK = '0x00000000000000000000000000000000000000c1' as const;

let gw: Gateway;
let devUrl: string;
let ws: PublicClient;

beforeAll(async () => {
  gw = await start({ port: 0, chains: ['chains/sepolia.json'], dev: {} });
  devUrl = gw.url('dev');
  ws = createPublicClient({ chain: foundry, transport: webSocket(gw.wsUrl('dev')) }) as PublicClient;
});
afterAll(async () => {
  const transport = ws.transport as { getRpcClient?: () => Promise<{ close(): void }> };
  await transport.getRpcClient?.().then((c) => c.close());
  await gw.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Holds every block's seal until `release()` (what an early answer leaves to do runs only then). */
function holdSeal(): { release: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const stock = BlockDraft.prototype.seal;
  vi.spyOn(BlockDraft.prototype, 'seal').mockImplementation(async function (this: BlockDraft) {
    await gate;
    return stock.call(this);
  });
  return { release: () => open() };
}

/** 'done' if `work` settles within `turns` turns of the event loop (I/O included), else 'pending'. No clock is read. */
async function within(work: Promise<unknown>, turns: number): Promise<'done' | 'pending'> {
  let done = false;
  work.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < turns && !done; i++) await new Promise((resolve) => setImmediate(resolve));
  return done ? 'done' : 'pending';
}

async function signedTransfer(index: number): Promise<{ raw: Hex; from: Hex; hash: Hex; nonce: number }> {
  const dev = gw.eth('dev').devAccounts()[index]!;
  const account = privateKeyToAccount(dev.privateKey);
  const nonce = Number(await gw.eth('dev').getTransactionCount(dev.address, 'latest'));
  const raw = await account.signTransaction({
    chainId: 31337,
    type: 'eip1559',
    nonce,
    to: SINK,
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: parseGwei('100'),
    maxPriorityFeePerGas: 1n,
  });
  return { raw, from: dev.address, hash: keccak256(raw), nonce };
}

describe('an automined send answers before its seal; later requests wait for it', () => {
  it('over HTTP the hash comes first; reads right after it over HTTP, WebSocket, the provider and the handle see the block; another network does not wait', async () => {
    const handle = gw.eth('dev');
    const before = handle.blockNumber();
    const { raw, from, hash, nonce } = await signedTransfer(3);
    const seal = holdSeal();
    try {
      const send = result(devUrl, 'eth_sendRawTransaction', [raw]);
      // Answered while the seal is held (before this change the answer waited for the seal: 'pending').
      expect(await within(send, 2000)).toBe('done');
      expect(await send).toBe(hash);
      // The handle's synchronous read sees head as it is: the block is still being sealed.
      expect(handle.blockNumber()).toBe(before);
      const provider = gw.provider('dev');
      const reads = Promise.all([
        result(devUrl, 'eth_getTransactionReceipt', [hash]),
        result(devUrl, 'eth_getTransactionCount', [from, 'latest']),
        result(devUrl, 'eth_blockNumber'),
        call(devUrl, 'eth_getTransactionCount', [from, 'pending']),
        ws.getTransactionReceipt({ hash }),
        provider.request({ method: 'eth_getTransactionReceipt', params: [hash] }) as Promise<{ blockNumber: Hex } | null>,
        handle.getBlock('latest'),
        handle.getTransactionCount(from),
      ]);
      // Another network answers while this one's seal is held, and so does a method whose answer no block changes
      // (a client's first request: ethers' network detection is not held behind a block's notifications).
      expect(await within(result(gw.url('sepolia'), 'eth_blockNumber'), 2000)).toBe('done');
      expect(await within(result(devUrl, 'eth_chainId'), 2000)).toBe('done');
      expect(await within(reads, 50)).toBe('pending');
      seal.release();
      const [receipt, count, number, pendingCount, wsReceipt, providerReceipt, latest, handleCount] = await reads;
      const mined = `0x${(before + 1n).toString(16)}`;
      expect(receipt?.blockNumber).toBe(mined);
      expect(receipt?.status).toBe('0x1');
      expect(count).toBe(`0x${(nonce + 1).toString(16)}`);
      expect(pendingCount.result).toBe(`0x${(nonce + 1).toString(16)}`);
      expect(number).toBe(mined);
      expect(wsReceipt.blockNumber).toBe(before + 1n);
      expect(providerReceipt?.blockNumber).toBe(mined);
      expect(latest?.number).toBe(before + 1n);
      expect(latest?.transactions).toEqual([hash]);
      expect(handleCount).toBe(BigInt(nonce + 1));
    } finally {
      seal.release();
    }
  });

  it('evm_mine of one block answers before its seal; a WebSocket blockNumber right after sees the block', async () => {
    const handle = gw.eth('dev');
    const before = handle.blockNumber();
    const seal = holdSeal();
    try {
      const mined = ws.request({ method: 'evm_mine' as never });
      expect(await within(mined, 2000)).toBe('done');
      const number = ws.getBlockNumber({ cacheTime: 0 });
      expect(await within(number, 50)).toBe('pending');
      seal.release();
      expect(await number).toBe(before + 1n);
    } finally {
      seal.release();
    }
  });

  it('through the in-process provider a send answers once its block is on the chain (the handle reads it at once)', async () => {
    const handle = gw.eth('dev');
    const before = handle.blockNumber();
    const { raw, hash } = await signedTransfer(4);
    const provider = gw.provider('dev');
    expect(await provider.request({ method: 'eth_sendRawTransaction', params: [raw] })).toBe(hash);
    expect(handle.blockNumber()).toBe(before + 1n);
  });

  it('a refused send reads as before (geth texts), over HTTP', async () => {
    const { raw, nonce } = await signedTransfer(5);
    await result(devUrl, 'eth_sendRawTransaction', [raw]);
    const again = await call(devUrl, 'eth_sendRawTransaction', [raw]);
    expect(again.error).toEqual({ code: -32000, message: 'already known' });
    const dev = gw.eth('dev').devAccounts()[5]!;
    const low = await privateKeyToAccount(dev.privateKey).signTransaction({
      chainId: 31337,
      type: 'eip1559',
      nonce,
      to: SINK,
      value: 2n,
      gas: 21_000n,
      maxFeePerGas: parseGwei('100'),
      maxPriorityFeePerGas: 1n,
    });
    const refused = await call(devUrl, 'eth_sendRawTransaction', [low]);
    expect(refused.error).toEqual({ code: -32000, message: `nonce too low: next nonce ${nonce + 1}, tx nonce ${nonce}` });
    const poor = privateKeyToAccount(`0x${'11'.repeat(32)}`);
    const broke = await poor.signTransaction({
      chainId: 31337,
      type: 'eip1559',
      nonce: 0,
      to: SINK,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: parseGwei('100'),
      maxPriorityFeePerGas: 1n,
    });
    const funds = await call(devUrl, 'eth_sendRawTransaction', [broke]);
    expect(funds.error.message).toMatch(/^insufficient funds for gas \* price \+ value/);
  });

  it("viem's wallet writes, each followed at once by its receipt and nonce reads (no waiting for a polling interval)", async () => {
    const dev = gw.eth('dev').devAccounts()[6]!;
    const account = privateKeyToAccount(dev.privateKey);
    for (const transport of [http(devUrl), custom(gw.provider('dev'))]) {
      const wallet = createWalletClient({ account, chain: foundry, transport });
      const client = createPublicClient({ chain: foundry, transport, cacheTime: 0 });
      for (let i = 0; i < 3; i++) {
        const start = await client.getBlockNumber();
        const nonce = await client.getTransactionCount({ address: account.address });
        const hash = await wallet.sendTransaction({ to: SINK, value: 1n });
        // getTransactionReceipt throws on a null receipt: the block is there as soon as the hash is.
        const receipt = await client.getTransactionReceipt({ hash });
        expect(receipt.blockNumber).toBe(start + 1n);
        expect(await client.getTransactionCount({ address: account.address })).toBe(nonce + 1);
        expect(await client.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(nonce + 1);
        expect(await client.getBlockNumber()).toBe(start + 1n);
      }
    }
  });
});
