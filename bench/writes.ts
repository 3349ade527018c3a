/**
 * The bench's write figures, the same on devgate and anvil (both automine): what a test suite feels.
 *   sendWait:      ERC-20 transfers sent one at a time, each followed by its receipt (tx/s, p50, p99 per transfer)
 *   sendParallel:  senders sending ETH transfers at once, each waiting for its receipt before the next (tx/s)
 *   mineEmpty:     anvil_mine of 1,000 empty blocks: time, and RSS before and after (MB per 1,000 mined blocks)
 * Transactions are signed before the clock starts (signing is the bench's own work, not the server's).
 */
import { encodeFunctionData, parseEther, type Hex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { MNEMONIC, type BenchMeta } from './seed.js';
import { call, rpc, type Server } from './servers.js';

export interface WriteFigures {
  sendWait?: { txs: number; txPerSec: number; p50Ms: number; p99Ms: number };
  sendParallel?: { senders: number; seconds: number; txs: number; txPerSec: number; p50Ms: number; p99Ms: number };
  mineEmpty?: { blocks: number; ms: number; rssBeforeMb?: number; rssAfterMb?: number; mbPer1000Blocks?: number };
  /** RSS once 10,000 transactions were mined by the write figures (topped up with pooled transfers mined 500 a block). */
  rssAfter10kTxsMb?: number;
  rssAfterWritesMb?: number;
  minedTxs?: number;
  error?: string;
}

export const TRANSFER = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
] as const;
export const FEES = { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Sends a raw transaction and waits for its receipt (polling, as a client's waitForTransactionReceipt does); gives the ms it took. */
export async function sendAndWait(url: string, raw: Hex): Promise<number> {
  const t0 = performance.now();
  const sent = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] });
  if (sent.error) throw new Error(`eth_sendRawTransaction: ${sent.error.message}`);
  for (let i = 0; ; i++) {
    const receipt = await rpc(url, { jsonrpc: '2.0', id: 2, method: 'eth_getTransactionReceipt', params: [sent.result] });
    if (receipt.result) return performance.now() - t0;
    if (i > 2000) throw new Error(`no receipt for ${sent.result}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Runs the write figures against one server; `count` transfers one at a time, `senders` in parallel for `seconds`. */
export async function writeFigures(
  server: Server,
  meta: BenchMeta,
  opts: { count: number; senders: number; seconds: number; log: (line: string) => void },
): Promise<WriteFigures> {
  const out: WriteFigures = {};
  const url = server.url;
  const chainId = meta.options.chainId;
  try {
    // Both mine on every send (the bench starts anvil with --no-mining for the replay).
    await call(url, 'evm_setAutomine', [true]);
    let mined = 0;
    // 1. One at a time: ERC-20 transfers from the token's minter (dev account 0) to the holders.
    const minter = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
    let nonce = Number(await call(url, 'eth_getTransactionCount', [minter.address, 'pending']));
    const raws: Hex[] = [];
    for (let i = 0; i < opts.count; i++) {
      const data = encodeFunctionData({ abi: TRANSFER, functionName: 'transfer', args: [meta.holders[i % meta.holders.length]!, 1n] });
      raws.push(await minter.signTransaction({ chainId, type: 'eip1559', nonce: nonce++, to: meta.token, data, gas: 100_000n, ...FEES }));
    }
    const times: number[] = [];
    const t0 = performance.now();
    for (const raw of raws) times.push(await sendAndWait(url, raw));
    const elapsed = (performance.now() - t0) / 1000;
    times.sort((a, b) => a - b);
    out.sendWait = { txs: raws.length, txPerSec: raws.length / elapsed, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
    mined += raws.length;
    opts.log(
      `${server.name} sendWait: ${out.sendWait.txPerSec.toFixed(0)} tx/s, p50 ${out.sendWait.p50Ms.toFixed(2)} ms, p99 ${out.sendWait.p99Ms.toFixed(2)} ms`,
    );

    // 2. In parallel: fresh accounts funded by dev account 1, each sending ETH transfers one after another.
    const funder = mnemonicToAccount(MNEMONIC, { addressIndex: 1 });
    let funderNonce = Number(await call(url, 'eth_getTransactionCount', [funder.address, 'pending']));
    const senders = Array.from({ length: opts.senders }, (_, i) => privateKeyToAccount(`0x${(0xbe0000n + BigInt(i)).toString(16).padStart(64, '0')}` as Hex));
    for (const s of senders) {
      const raw = await funder.signTransaction({
        chainId,
        type: 'eip1559',
        nonce: funderNonce++,
        to: s.address,
        value: parseEther('10'),
        gas: 21_000n,
        ...FEES,
      });
      await sendAndWait(url, raw);
      mined++;
    }
    const perSender = 400;
    const signed = await Promise.all(
      senders.map(async (s) => {
        const first = Number(await call(url, 'eth_getTransactionCount', [s.address, 'pending']));
        const list: Hex[] = [];
        for (let n = 0; n < perSender; n++)
          list.push(await s.signTransaction({ chainId, type: 'eip1559', nonce: first + n, to: minter.address, value: 1n, gas: 21_000n, ...FEES }));
        return list;
      }),
    );
    const lat: number[] = [];
    const deadline = performance.now() + opts.seconds * 1000;
    const p0 = performance.now();
    await Promise.all(
      signed.map(async (list) => {
        for (const raw of list) {
          if (performance.now() >= deadline) return;
          lat.push(await sendAndWait(url, raw));
        }
      }),
    );
    const secs = (performance.now() - p0) / 1000;
    lat.sort((a, b) => a - b);
    out.sendParallel = {
      senders: senders.length,
      seconds: secs,
      txs: lat.length,
      txPerSec: lat.length / secs,
      p50Ms: percentile(lat, 50),
      p99Ms: percentile(lat, 99),
    };
    mined += lat.length;
    opts.log(
      `${server.name} sendParallel: ${out.sendParallel.txPerSec.toFixed(0)} tx/s over ${secs.toFixed(1)} s (${lat.length} txs), p50 ${out.sendParallel.p50Ms.toFixed(1)} ms, p99 ${out.sendParallel.p99Ms.toFixed(1)} ms`,
    );
    // Top up to 10,000 mined transactions: transfers pooled without automine, mined 500 a block.
    const missing = Math.max(0, 10_000 - mined);
    if (missing > 0) {
      await call(url, 'evm_setAutomine', [false]);
      const per = Math.ceil(missing / senders.length);
      const topUp = await Promise.all(
        senders.map(async (s) => {
          const first = Number(await call(url, 'eth_getTransactionCount', [s.address, 'pending']));
          const list: Hex[] = [];
          for (let n = 0; n < per; n++)
            list.push(await s.signTransaction({ chainId, type: 'eip1559', nonce: first + n, to: minter.address, value: 1n, gas: 21_000n, ...FEES }));
          return list;
        }),
      );
      const all = topUp.flat().slice(0, missing);
      for (let i = 0; i < all.length; i += 500) {
        const answers = (await rpc(
          url,
          all.slice(i, i + 500).map((raw, id) => ({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] })),
        )) as { error?: { message: string } }[];
        const failed = answers.find((a) => a.error);
        if (failed) throw new Error(`top-up send: ${failed.error!.message}`);
        await call(url, 'evm_mine', []);
      }
      await call(url, 'evm_setAutomine', [true]);
      mined += all.length;
    }
    await new Promise((r) => setTimeout(r, 1500));
    out.rssAfter10kTxsMb = server.rssMb();
    out.minedTxs = mined;
    out.rssAfterWritesMb = server.rssMb();
    opts.log(`${server.name} RSS after ${mined} mined transactions: ${out.rssAfter10kTxsMb} MB`);

    // 3. 1,000 empty blocks at once.
    await new Promise((r) => setTimeout(r, 1500));
    const rssBeforeMb = server.rssMb();
    const m0 = performance.now();
    await call(url, 'anvil_mine', ['0x3e8', '0x0']);
    const ms = performance.now() - m0;
    await new Promise((r) => setTimeout(r, 1500));
    const rssAfterMb = server.rssMb();
    out.mineEmpty = {
      blocks: 1000,
      ms,
      rssBeforeMb,
      rssAfterMb,
      ...(rssBeforeMb !== undefined && rssAfterMb !== undefined ? { mbPer1000Blocks: rssAfterMb - rssBeforeMb } : {}),
    };
    opts.log(`${server.name} mineEmpty: 1,000 blocks in ${ms.toFixed(0)} ms, RSS ${rssBeforeMb} -> ${rssAfterMb} MB`);
  } catch (err) {
    out.error = (err as Error).message.slice(0, 200);
    opts.log(`${server.name} writes failed: ${out.error}`);
  }
  return out;
}
