/**
 * CPU per write kind in-process (issue 26's write path), no socket: `npx tsx bench/writeKindsCpu.ts [scale]`.
 * evm_mine, anvil_mine of 100 empty blocks, eth_estimateGas of an ERC-20 transfer to a fresh holder, and an automined
 * eth_sendRawTransaction of one, on the built-in dev network through gw.provider('dev'). Prints ms of CPU and wall
 * per request, and a digest of the head block's hash (the same digest before and after a change: the same blocks).
 * KINDS_PROF=/tmp/x writes a .cpuprofile per kind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeFunctionData, type Hex, parseAbi } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { start } from '../src/index.js';
import { CACHE_DIR, MNEMONIC, REPO_ROOT } from './seed.js';
import { startProfile } from './inProcessProfile.js';

const scale = Number(process.argv[2] ?? 1);
const TOKEN_BYTECODE = (JSON.parse(readFileSync(join(REPO_ROOT, 'chains', 'contracts', 'Token.json'), 'utf8')) as { bytecode: Hex }).bytecode;
const abi = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);
const owner = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
const holder = (i: number): Hex => `0x${(0xa11ce00000n + BigInt(i)).toString(16).padStart(40, '0')}`;
const FEES = { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

const gw = await start({ port: 0, cache: { dir: join(CACHE_DIR, 'writekinds-cache') } });
const p = gw.provider('dev');
const rpc = (method: string, params: unknown[] = []) => p.request({ method, params }) as Promise<any>;
const deploy = await rpc('eth_sendTransaction', [{ from: owner.address, data: TOKEN_BYTECODE, gas: '0x300000' }]);
const token = (await rpc('eth_getTransactionReceipt', [deploy])).contractAddress as Hex;
let nonce = Number(await rpc('eth_getTransactionCount', [owner.address, 'pending']));
const chainId = Number(await rpc('eth_chainId'));
const transfer = (i: number) => encodeFunctionData({ abi, functionName: 'transfer', args: [holder(i), 1n] });

async function measure(label: string, count: number, job: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 5; i++) await job(1_000_000 + i);
  const stop = await startProfile(process.env.KINDS_PROF);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await job(i);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await stop(label as unknown as number);
  console.log(`${label.padEnd(28)} ${((cpu.user + cpu.system) / 1000 / count).toFixed(3)} ms CPU, ${(wall / count).toFixed(3)} ms wall (${count})`);
}

const n = (x: number) => Math.max(5, Math.round(x * scale));
await measure('evm_mine', n(300), () => rpc('evm_mine'));
await measure('anvil_mine 100', n(20), () => rpc('anvil_mine', ['0x64']));
let estimate = 0n;
await measure('eth_estimateGas transfer', n(300), async (i) => {
  estimate = BigInt(await rpc('eth_estimateGas', [{ from: owner.address, to: token, data: transfer(2_000_000 + i) }]));
});
const raws: Hex[] = [];
for (let i = 0; i < n(300) + 5; i++)
  raws.push(await owner.signTransaction({ chainId, type: 'eip1559', nonce: nonce++, to: token, data: transfer(3_000_000 + i), gas: 100_000n, ...FEES }));
let next = 0;
await measure('eth_sendRawTransaction', n(300), () => rpc('eth_sendRawTransaction', [raws[next++]]));
const head = await rpc('eth_getBlockByNumber', ['latest', false]);
console.log(`last estimate ${estimate}, head ${Number(head.number)} ${head.hash} stateRoot ${head.stateRoot}`);
await gw.stop();
