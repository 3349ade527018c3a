/**
 * CPU time per automined send of the bench figure `sendWait` (an ERC-20 transfer sent, then its receipt polled):
 * devgate in-process on the bench chain, `npx tsx bench/sendCpu.ts [transfers] [rounds]`. Prints, per round, ms of
 * CPU per transfer (user+system of the whole process, client included), wall ms per transfer with p50/p99, and a
 * digest of the mined block hashes (the same digest before and after a change means the same blocks).
 * SEND_PROF=/tmp/send writes a .cpuprofile per round (bench/simProf.ts reads it).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { encodeFunctionData, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { start } from '../src/index.js';
import { benchChain, CACHE_DIR, DEFAULT_CHAIN_OPTIONS, MNEMONIC } from './seed.js';
import { call } from './servers.js';
import { startProfile } from './inProcessProfile.js';
import { FEES, percentile, sendAndWait, TRANSFER } from './writes.js';

const transfers = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 3);
const chain = await benchChain(DEFAULT_CHAIN_OPTIONS, () => {});
const gw = await start({ port: 0, chains: [chain.seedPath], cache: { dir: join(CACHE_DIR, 'sendcpu-cache') } });
const url = gw.url('bench');
const chainId = chain.meta.options.chainId;
const minter = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
let nonce = Number(await call(url, 'eth_getTransactionCount', [minter.address, 'pending']));
const sign = async (i: number): Promise<Hex> => {
  const data = encodeFunctionData({ abi: TRANSFER, functionName: 'transfer', args: [chain.meta.holders[i % chain.meta.holders.length]!, 1n] });
  return minter.signTransaction({
    chainId,
    type: 'eip1559',
    nonce: nonce++,
    to: chain.meta.token,
    data,
    gas: 100_000n,
    ...FEES,
  });
};

for (let i = 0; i < 20; i++) await sendAndWait(url, await sign(i)); // warm-up
for (let round = 0; round < rounds; round++) {
  const raws: Hex[] = [];
  for (let i = 0; i < transfers; i++) raws.push(await sign(i));
  const stopProfile = await startProfile(process.env.SEND_PROF);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const times: number[] = [];
  for (const raw of raws) times.push(await sendAndWait(url, raw));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await stopProfile(round);
  const head = Number(await call(url, 'eth_blockNumber', []));
  const hash = createHash('sha256');
  for (let n = head - transfers + 1; n <= head; n++)
    hash.update(((await call(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])) as { hash: string }).hash);
  times.sort((a, b) => a - b);
  console.log(
    `round ${round}: ${((cpu.user + cpu.system) / 1000 / transfers).toFixed(3)} ms CPU/transfer, ${(wall / transfers).toFixed(3)} ms wall/transfer (p50 ${percentile(times, 50).toFixed(2)}, p99 ${percentile(times, 99).toFixed(2)}), blocks digest ${hash.digest('hex').slice(0, 16)}`,
  );
}
await gw.stop();
