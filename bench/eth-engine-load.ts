/**
 * Load time and memory of the eth engine, in-process (no gateway): the shipped chains, and a
 * generated 1,000-block x 10-transaction seed (ETH transfers of types 0/1/2 and ERC-20 transfers
 * from 10 dev accounts). Each case runs in a fresh process so RSS is its own.
 *
 *   npx tsx bench/eth-engine-load.ts                # all cases
 *   npx tsx bench/eth-engine-load.ts big 200 10     # one case: the generated seed with 200 blocks x 10 txs
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deriveDevAccounts } from '../src/eth/engine/build/accounts.js';
import { chainFromSeed } from '../src/eth/engine/build/chainFromSeed.js';
import { nativeSecp256k1 } from '../src/eth/engine/exec/crypto.js';
import { loadSeedFile, parseSeed, type LoadedSeed } from '../src/seed/load.js';

const here = fileURLToPath(import.meta.url);
const DEV = deriveDevAccounts('test test test test test test test test test test test junk', 10).map((d) => d.address.toString());

/** A deterministic seed of `blocks` blocks with `perBlock` transactions each. */
export function generatedSeed(blocks: number, perBlock: number): unknown {
  const holder = (i: number) => '0x' + (0xb0000000 + (i % 500)).toString(16).padStart(40, '0');
  const first = [
    { artifact: 'Token', label: 'token' },
    ...Array.from({ length: 9 }, (_, i) => ({ to: '@token', artifact: 'Token', function: 'transfer', args: [DEV[i + 1], '1000000000000000000000'] })),
  ];
  const rest = Array.from({ length: blocks - 1 }, (_, b) => ({
    transactions: Array.from({ length: perBlock }, (_, j) => {
      const from = j % 10;
      const n = b * perBlock + j;
      if (j % 2 === 0) return { from, to: '@token', artifact: 'Token', function: 'transfer', args: [holder(n), String(1 + (n % 1000))], gas: 60000 };
      const type = n % 3;
      const fees = type === 2 ? { maxFeePerGas: '20000000000', maxPriorityFeePerGas: '1000000000' } : { gasPrice: '20000000000' };
      return { from, to: holder(n + 7), value: String(1000 + n), type, ...fees };
    }),
  }));
  return { name: 'bench-engine', kind: 'eth', chainId: 31337, blocks: [{ transactions: first }, ...rest] };
}

async function measure(label: string, loaded: LoadedSeed): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const chain = await chainFromSeed(loaded);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  let txs = 0;
  for (const b of chain.blocks()) txs += b.block.transactions.length;
  global.gc?.();
  const mem = process.memoryUsage();
  console.log(
    JSON.stringify({
      case: label,
      blocks: Number(chain.head().number),
      txs,
      loadMs: Math.round(ms),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      txPerSec: Math.round(txs / (ms / 1000)),
      rssMB: Math.round(mem.rss / 1e6),
      heapMB: Math.round(mem.heapUsed / 1e6),
      nativeSecp256k1,
    }),
  );
}

const [which, a, b] = process.argv.slice(2);
if (which === undefined) {
  for (const args of [['mainnet'], ['sepolia'], ['big', '1000', '10']]) {
    process.stdout.write(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', here, ...args], { encoding: 'utf8' }));
  }
} else if (which === 'big') {
  const blocks = Number(a ?? 1000);
  const perBlock = Number(b ?? 10);
  await measure(`generated ${blocks}x${perBlock}`, parseSeed(generatedSeed(blocks, perBlock), 'generated'));
} else {
  await measure(`chains/${which}.json`, loadSeedFile(fileURLToPath(new URL(`../chains/${which}.json`, import.meta.url))));
}
