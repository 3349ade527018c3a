/**
 * What one block costs in process (issue 26 item 2): `npx tsx --expose-gc bench/blockCost.ts [mode] [count]`.
 * On the built-in dev network through gw.provider('dev'), no socket.
 * - `cpu` (default): CPU of the process per evm_mine of an empty block and per automined ERC-20 send, in chunks so
 *   that two trees run interleaved (run this file of both, alternately) see the same load.
 * - `heap [count] [all]` (`heap-send [count] [all]`: of `count` automined ERC-20 sends): a sampling heap profile (the inspector's, 4 KB interval) of `count` evm_mine; prints the bytes
 *   each empty block leaves live (with `all`: allocates, GC'd or not), sampled, by function (top 25), and what stays
 *   allocated per block after a full GC.
 *   HEAP_PROF=/tmp/x writes `/tmp/x.heapprofile` (open in Chrome's DevTools).
 * - `cpu` with BLOCK_PROF=/tmp/x: a CPU profile of the measured stretch (mines and sends), `/tmp/x.1.cpuprofile`
 *   (`npx tsx bench/simProf.ts /tmp/x.1.cpuprofile` lists self and inclusive time).
 * Ends with the head's hash and state root: the same line before and after a change means the same blocks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { encodeFunctionData, type Hex, parseAbi } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { start } from '../src/index.js';
import { CACHE_DIR, MNEMONIC, REPO_ROOT } from './seed.js';
import { startProfile } from './inProcessProfile.js';

const mode = process.argv[2] ?? 'cpu';
const count = Number(process.argv[3] ?? (mode === 'heap' ? 1000 : 300));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npx tsx --expose-gc bench/blockCost.ts)');
const TOKEN_BYTECODE = (JSON.parse(readFileSync(join(REPO_ROOT, 'chains', 'contracts', 'Token.json'), 'utf8')) as { bytecode: Hex }).bytecode;
const abi = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);
const owner = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
const holder = (i: number): Hex => `0x${(0xb10c00000n + BigInt(i)).toString(16).padStart(40, '0')}`;
const FEES = { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

const gw = await start({ port: 0, cache: { dir: join(CACHE_DIR, 'blockcost-cache') } });
const p = gw.provider('dev');
const rpc = (method: string, params: unknown[] = []) => p.request({ method, params }) as Promise<any>;
const cpuMs = (f: () => Promise<void>) => async () => {
  const c0 = process.cpuUsage();
  await f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

/** The token deployed and `n` signed transfers of it from the owner (each to a fresh holder), in nonce order. */
async function signedTransfers(n: number): Promise<Hex[]> {
  const deploy = await rpc('eth_sendTransaction', [{ from: owner.address, data: TOKEN_BYTECODE, gas: '0x300000' }]);
  const token = (await rpc('eth_getTransactionReceipt', [deploy])).contractAddress as Hex;
  let nonce = Number(await rpc('eth_getTransactionCount', [owner.address, 'pending']));
  const chainId = Number(await rpc('eth_chainId'));
  const raws: Hex[] = [];
  for (let i = 0; i < n; i++) {
    const data = encodeFunctionData({ abi, functionName: 'transfer', args: [holder(i), 1n] });
    raws.push(await owner.signTransaction({ chainId, type: 'eip1559', nonce: nonce++, to: token, data, gas: 100_000n, ...FEES }));
  }
  return raws;
}

if (mode === 'heap' || mode === 'heap-send') {
  // heap-send: the same profile of `count` automined ERC-20 sends (after 20 unmeasured ones).
  const sends = mode === 'heap-send' ? await signedTransfers(count + 20) : [];
  let next = 0;
  const write = () => (mode === 'heap-send' ? rpc('eth_sendRawTransaction', [sends[next++]]) : rpc('evm_mine'));
  for (let i = 0; i < (sends.length > 0 ? 20 : 50); i++) await write();
  gc();
  const used0 = process.memoryUsage().heapUsed;
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: process.argv[4] === 'all',
    includeObjectsCollectedByMinorGC: process.argv[4] === 'all',
  });
  for (let i = 0; i < count; i++) await write();
  // With `all`, what GC took too (everything allocated), else what is still live (what blocks keep).
  const all = process.argv[4] === 'all';
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  gc();
  const used1 = process.memoryUsage().heapUsed;
  if (process.env.HEAP_PROF) writeFileSync(`${process.env.HEAP_PROF}.heapprofile`, JSON.stringify(profile));
  // Sampled allocation by function (self), and in total.
  const byFn = new Map<string, number>();
  let total = 0;
  const walk = (n: typeof profile.head) => {
    const self = n.selfSize;
    total += self;
    const f = n.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*node_modules\//, '').replace(/.*\/src\//, 'src/')}:${f.lineNumber + 1}`;
    if (self > 0) byFn.set(key, (byFn.get(key) ?? 0) + self);
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  console.log(
    `${all ? 'allocated' : 'live'} (sampled) ${(total / count / 1024).toFixed(1)} KB per ${sends.length > 0 ? 'automined send' : 'empty block'}; retained after GC ${((used1 - used0) / count / 1024).toFixed(2)} KB per ${sends.length > 0 ? 'send' : 'block'} (${count})`,
  );
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(v / count).toFixed(0).padStart(8)} B  ${k}`);
} else {
  const deploy = await rpc('eth_sendTransaction', [{ from: owner.address, data: TOKEN_BYTECODE, gas: '0x300000' }]);
  const token = (await rpc('eth_getTransactionReceipt', [deploy])).contractAddress as Hex;
  let nonce = Number(await rpc('eth_getTransactionCount', [owner.address, 'pending']));
  const chainId = Number(await rpc('eth_chainId'));
  const raws: Hex[] = [];
  for (let i = 0; i < count + 20; i++) {
    const data = encodeFunctionData({ abi, functionName: 'transfer', args: [holder(i), 1n] });
    raws.push(await owner.signTransaction({ chainId, type: 'eip1559', nonce: nonce++, to: token, data, gas: 100_000n, ...FEES }));
  }
  let next = 0;
  for (let i = 0; i < 20; i++) {
    await rpc('evm_mine');
    await rpc('eth_sendRawTransaction', [raws[next++]]);
  }
  let mine = 0;
  let send = 0;
  const stopProfile = await startProfile(process.env.BLOCK_PROF);
  for (let i = 0; i < count; i += 10) {
    mine += await cpuMs(async () => {
      for (let j = 0; j < 10; j++) await rpc('evm_mine');
    })();
    send += await cpuMs(async () => {
      for (let j = 0; j < 10; j++) await rpc('eth_sendRawTransaction', [raws[next++]]);
    })();
  }
  await stopProfile(1);
  const n = Math.ceil(count / 10) * 10;
  console.log(`evm_mine ${(mine / n).toFixed(3)} ms CPU, automined send ${(send / n).toFixed(3)} ms CPU (${n} each)`);
}
const head = await rpc('eth_getBlockByNumber', ['latest', false]);
console.log(`head ${Number(head.number)} ${head.hash} stateRoot ${head.stateRoot}`);
await gw.stop();
