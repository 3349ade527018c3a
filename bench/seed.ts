/**
 * The benchmark chain: a deterministic devgate seed of real signed transactions (an ERC-20 deployed,
 * then blocks of token and ether transfers from the dev accounts to a few hundred holders). The same
 * raw transactions feed devgate (as `raw` seed transactions) and anvil (replayed over JSON-RPC).
 * The seed is written to `.devgate-cache/bench/`, keyed by the generator's inputs.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeFunctionData, getContractAddress, keccak256, serializeTransaction, toHex, type Hex, type TransactionSerializableEIP1559 } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { prng } from '../test/support/prng.js';

export { prng };

/** Bump when the generated chain changes for the same options. */
const GENERATOR_VERSION = 1;
export const MNEMONIC = 'test test test test test test test test test test test junk';
export const REPO_ROOT = resolve(import.meta.dirname, '..');
export const CACHE_DIR = join(REPO_ROOT, '.devgate-cache', 'bench');
const TOKEN_ARTIFACT = join(REPO_ROOT, 'chains', 'contracts', 'Token.json');

export interface BenchChainOptions {
  blocks: number;
  txsPerBlock: number;
  holders: number;
  /** Dev accounts that send (the first `senders` of the mnemonic). */
  senders: number;
  chainId: number;
  hardfork: string;
  genesisTimestamp: number;
  blockTime: number;
  gasLimit: number;
  baseFeePerGas: bigint;
  /** Seed of the generator's PRNG. */
  rngSeed: number;
}

export const DEFAULT_CHAIN_OPTIONS: BenchChainOptions = {
  blocks: 1000,
  txsPerBlock: 10,
  holders: 300,
  senders: 10,
  chainId: 31337,
  hardfork: 'osaka',
  genesisTimestamp: 1_700_000_000,
  blockTime: 12,
  gasLimit: 30_000_000,
  baseFeePerGas: 1_000_000_000n,
  rngSeed: 7,
};

/** What the load generators need to know about the chain. */
export interface BenchMeta {
  key: string;
  options: Omit<BenchChainOptions, 'baseFeePerGas'> & { baseFeePerGas: string };
  token: Hex;
  holders: Hex[];
  senders: Hex[];
  /** Hash of every transaction, in chain order. */
  txHashes: Hex[];
  /** Number of the last block. */
  head: number;
}

export interface BenchChain {
  /** Path of the devgate seed file. */
  seedPath: string;
  meta: BenchMeta;
  /** Timestamp and raw transactions of each block after genesis, for the anvil replay. */
  blocks: { timestamp: number; raw: Hex[] }[];
}

/** The storage slot of `balances[holder]` in Token (mapping at slot 0). */
export function balanceSlot(holder: Hex): Hex {
  return keccak256(`0x${holder.slice(2).padStart(64, '0')}${'0'.repeat(64)}`);
}

/** Holder addresses: the last 20 bytes of keccak256("devgate-bench-holder-<i>"). */
function holderAddresses(count: number): Hex[] {
  return Array.from({ length: count }, (_, i) => `0x${keccak256(toHex(`devgate-bench-holder-${i}`)).slice(-40)}` as Hex);
}

function readToken(): { abi: unknown[]; bytecode: Hex } {
  if (!existsSync(TOKEN_ARTIFACT)) throw new Error(`the ERC-20 artifact ${TOKEN_ARTIFACT} is missing (npm run contracts builds it)`);
  const artifact = JSON.parse(readFileSync(TOKEN_ARTIFACT, 'utf8')) as { abi: unknown[]; bytecode: string };
  const bytecode = (artifact.bytecode.startsWith('0x') ? artifact.bytecode : `0x${artifact.bytecode}`) as Hex;
  return { abi: artifact.abi, bytecode };
}

function cacheKey(options: BenchChainOptions, bytecode: Hex): string {
  const inputs = JSON.stringify({ GENERATOR_VERSION, options: { ...options, baseFeePerGas: options.baseFeePerGas.toString() }, token: keccak256(bytecode) });
  return createHash('sha256').update(inputs).digest('hex').slice(0, 16);
}

/** libsecp256k1 (the `secp256k1` package: native where its prebuild loads, else its JS fallback): ~15x faster than signing with viem. */
const secp256k1 = createRequire(import.meta.url)('secp256k1') as { ecdsaSign(msg32: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number } };

/** Signs an EIP-1559 transaction (RFC 6979 nonces, low s: the same bytes viem's signTransaction gives). */
function signTx(tx: TransactionSerializableEIP1559, key: Uint8Array): Hex {
  const { signature, recid } = secp256k1.ecdsaSign(keccak256(serializeTransaction(tx), 'bytes'), key);
  return serializeTransaction(tx, { r: toHex(signature.subarray(0, 32)), s: toHex(signature.subarray(32)), yParity: recid });
}

const TRANSFER_ABI = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
] as const;
const DVG = 10n ** 18n;

/** Builds (or reads from the cache) the benchmark chain; `dir` keeps one seed (tests give their own, so the bench's stays). */
export async function benchChain(
  options: BenchChainOptions = DEFAULT_CHAIN_OPTIONS,
  log: (line: string) => void = () => {},
  dir = CACHE_DIR,
): Promise<BenchChain> {
  const token = readToken();
  const key = cacheKey(options, token.bytecode);
  const seedPath = join(dir, `${key}.seed.json`);
  const metaPath = join(dir, `${key}.meta.json`);
  if (existsSync(seedPath) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as BenchMeta;
    return { seedPath, meta, blocks: blocksOfSeed(seedPath) };
  }
  const started = performance.now();
  const { blocks, meta } = await generate(options, token.bytecode, key);
  const seed = {
    name: 'bench',
    kind: 'eth',
    chainId: options.chainId,
    hardfork: options.hardfork,
    genesis: { timestamp: toHex(options.genesisTimestamp), gasLimit: toHex(options.gasLimit), baseFeePerGas: toHex(options.baseFeePerGas) },
    accounts: { mnemonic: MNEMONIC, count: options.senders },
    blocks: blocks.map((b) => ({ timestamp: toHex(b.timestamp), transactions: b.raw.map((raw) => ({ raw })) })),
  };
  mkdirSync(dir, { recursive: true });
  // Seeds of other inputs (an older generator or Token artifact) are stale: drop them.
  for (const f of readdirSync(dir)) if (/^[0-9a-f]{16}\.(seed|meta)\.json$/.test(f) && !f.startsWith(key)) rmSync(join(dir, f));
  writeAtomic(seedPath, JSON.stringify(seed));
  writeAtomic(metaPath, JSON.stringify(meta));
  log(`generated the bench seed (${blocks.length} blocks, ${meta.txHashes.length} txs) in ${((performance.now() - started) / 1000).toFixed(1)} s: ${seedPath}`);
  return { seedPath, meta, blocks };
}

function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

function blocksOfSeed(seedPath: string): BenchChain['blocks'] {
  const seed = JSON.parse(readFileSync(seedPath, 'utf8')) as { blocks: { timestamp: string; transactions: { raw: Hex }[] }[] };
  return seed.blocks.map((b) => ({ timestamp: Number(b.timestamp), raw: b.transactions.map((t) => t.raw) }));
}

async function generate(options: BenchChainOptions, bytecode: Hex, key: string): Promise<{ blocks: BenchChain['blocks']; meta: BenchMeta }> {
  if (options.senders < 2 || options.txsPerBlock < options.senders) throw new Error('the bench chain needs at least 2 senders and a tx per sender per block');
  const rand = prng(options.rngSeed);
  const accounts = Array.from({ length: options.senders }, (_, i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }));
  const nonces = accounts.map(() => 0);
  const holders = holderAddresses(options.holders);
  const tokenAddress = getContractAddress({ from: accounts[0]!.address, nonce: 0n });
  const fees = { type: 'eip1559', chainId: options.chainId, maxFeePerGas: 3n * options.baseFeePerGas, maxPriorityFeePerGas: 1_000_000_000n } as const;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

  const keys = accounts.map((a) => a.getHdKey().privateKey!);
  const sign = async (from: number, tx: { to?: Hex; value?: bigint; data?: Hex; gas: bigint }): Promise<Hex> => {
    const nonce = nonces[from]!++;
    return signTx({ ...fees, ...tx, nonce }, keys[from]!);
  };
  const tokenTransfer = (from: number, to: Hex, amount: bigint) =>
    sign(from, { to: tokenAddress, gas: 120_000n, data: encodeFunctionData({ abi: TRANSFER_ABI, functionName: 'transfer', args: [to, amount] }) });
  const etherTransfer = (from: number, to: Hex) => sign(from, { to, gas: 21_000n, value: BigInt(Math.floor(rand() * 1e6) + 1) * 1_000_000_000n });

  const blocks: BenchChain['blocks'] = [];
  for (let b = 1; b <= options.blocks; b++) {
    const raw: Hex[] = [];
    if (b === 1) {
      // The deployer (dev account 0) gets the initial supply; the others send ether.
      raw.push(await sign(0, { data: bytecode, gas: 3_000_000n }));
      for (let j = 1; j < options.txsPerBlock; j++) raw.push(await etherTransfer(j % options.senders, pick(holders)));
    } else if (b === 2) {
      // The deployer hands 100,000 DVG to each other sender.
      for (let i = 1; i < options.senders; i++) raw.push(await tokenTransfer(0, accounts[i]!.address, 100_000n * DVG));
      while (raw.length < options.txsPerBlock) raw.push(await etherTransfer(raw.length % options.senders, pick(holders)));
    } else {
      for (let j = 0; j < options.txsPerBlock; j++) {
        const from = j % options.senders;
        if (rand() < 0.7) raw.push(await tokenTransfer(from, pick(holders), BigInt(Math.floor(rand() * 100) + 1) * DVG + BigInt(Math.floor(rand() * 1e9))));
        else raw.push(await etherTransfer(from, pick(holders)));
      }
    }
    blocks.push({ timestamp: options.genesisTimestamp + b * options.blockTime, raw });
  }
  const meta: BenchMeta = {
    key,
    options: { ...options, baseFeePerGas: options.baseFeePerGas.toString() },
    token: tokenAddress.toLowerCase() as Hex,
    holders,
    senders: accounts.map((a) => a.address.toLowerCase() as Hex),
    txHashes: blocks.flatMap((bl) => bl.raw.map((r) => keccak256(r))),
    head: options.blocks,
  };
  return { blocks, meta };
}
