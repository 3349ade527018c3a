/**
 * Importing a real chain: a geth genesis.json and, optionally, a `geth export` RLP file. The
 * genesis becomes an EthChain (its hardfork schedule, alloc and header); every block of the file
 * is decoded under its own hardfork and executed on the engine, which must reach the header's
 * state root, receipts root, gas used and bloom, or the load fails naming the block.
 *
 * Checked per block: parent hash, number, timestamp order, gas limit bounds, base fee, ethash
 * difficulty (PoW) or the PoS header shape, uncles (ancestry, time, gas limit, difficulty),
 * excess blob gas and blob gas used, transaction, uncle-hash and withdrawals roots, signatures,
 * then execution (state, receipts, gas, bloom, requests hash, uncle rewards). Not checked: the
 * ethash seal (nonce/mixHash, of blocks and uncles) and anything of the consensus layer (the
 * beacon root and prevRandao are taken as the header gives them).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Block } from '@ethereumjs/block';
import { bigIntToHex, bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { EthSeed } from '../../../seed/eth.js';
import { formatIssues, SeedError, type LoadedSeed } from '../../../seed/load.js';
import { EthChain, type EthChainOptions } from '../chain/chain.js';
import { GethGenesisFile, gethCommon, gethGenesisHeader, gethState, resolveMergeBlock } from './geth.js';
import { decodeBlock, encodeChain, peekHeader, splitBlocks } from './rlp.js';
import { deriveDevAccounts } from './accounts.js';

/** What an import read, and how long it took (for load-time notes). */
export interface ImportStats {
  readonly blocks: number;
  readonly transactions: number;
  readonly mergeBlock?: bigint;
  readonly millis: number;
}

export interface GethChainInput {
  /** The parsed genesis.json, and a name for it in messages (usually its path). */
  readonly genesis: unknown;
  readonly genesisSource: string;
  /** The chain file's bytes (plain or gzip), and a name for it in messages. */
  readonly chain?: Uint8Array;
  readonly chainSource?: string;
  /** The chain id a seed names for this genesis (checked before any block is read), and the seed's name. */
  readonly expect?: { readonly chainId: number; readonly source: string };
  /** Dev accounts funded at genesis beside the alloc (an alloc entry wins), as anvil --init keeps them; never with a chain file. */
  readonly devAccounts?: { readonly mnemonic: string; readonly count: number; readonly balance: string | number };
}

/** Validates a parsed geth genesis.json; errors name the bad field. */
export function parseGethGenesis(value: unknown, source: string): GethGenesisFile {
  const parsed = GethGenesisFile.safeParse(value);
  if (!parsed.success) throw new SeedError(`invalid geth genesis ${source}:\n${formatIssues(parsed.error)}`);
  return parsed.data;
}

/** A chain file split into blocks: the genesis block if the file starts with one, then blocks 1, 2, ... */
export interface ChainFile {
  readonly source: string;
  readonly genesis?: Uint8Array;
  readonly blocks: readonly Uint8Array[];
  /** Each block's difficulty, read from its header (for a merge by terminal total difficulty). */
  readonly difficulties: readonly bigint[];
}

/** Splits a chain file and checks its blocks are numbered 1, 2, ... (after an optional genesis). */
export function readChainFile(file: Uint8Array, source: string): ChainFile {
  const fail = (why: string): never => {
    throw new SeedError(`cannot import ${source}: ${why}`);
  };
  let raws: Uint8Array[] = [];
  try {
    raws = splitBlocks(file);
  } catch (err) {
    fail((err as Error).message);
  }
  const headers = raws.map((raw, i) => {
    try {
      return peekHeader(raw);
    } catch (err) {
      return fail(`item ${i} of the file: ${(err as Error).message}`);
    }
  });
  // `geth export` starts with the genesis block; `geth import` skips it, importBlocks checks it.
  const genesis = headers[0]?.number === 0n ? raws.shift() : undefined;
  if (genesis !== undefined) headers.shift();
  headers.forEach((h, i) => {
    if (h.number !== BigInt(i + 1))
      fail(`item ${i + (genesis ? 1 : 0)} of the file is block ${h.number}, expected block ${i + 1} (blocks must follow genesis without gaps)`);
  });
  return { source, genesis, blocks: raws, difficulties: headers.map((h) => h.difficulty) };
}

/**
 * Executes the blocks of a chain file on `chain` (which holds only its genesis), each under its own
 * hardfork; a block that does not execute to its header fails naming it. Returns the transaction count.
 */
export async function importBlocks(chain: EthChain, file: ChainFile): Promise<number> {
  const fail = (why: string): never => {
    throw new SeedError(`cannot import ${file.source}: ${why}`);
  };
  if (file.genesis !== undefined) {
    const ours = chain.blockByNumber(0n)!.block;
    const theirs = decodeBlock(file.genesis, chain.common);
    if (!equalsBytes(ours.hash(), theirs.hash())) {
      fail(`its block 0 (${bytesToHex(theirs.hash())}) is not this chain's genesis (${bytesToHex(ours.hash())})${genesisDiff(ours, theirs)}`);
    }
  }
  let transactions = 0;
  for (const [i, raw] of file.blocks.entries()) {
    const number = i + 1;
    let block: Block;
    try {
      block = decodeBlock(raw, chain.common);
    } catch (err) {
      return fail(`block ${number} cannot be decoded: ${shortReason(err)}`);
    }
    try {
      // Blob gas used and the per-tx blob fee cap; the engine checks excess blob gas with the header.
      if (block.common.isActivatedEIP(4844)) block.validateBlobTransactions(chain.head().block.header);
      checkUncles(chain, block);
      await chain.importBlock(block);
    } catch (err) {
      const msg = shortReason(err);
      fail(msg.startsWith(`block ${number}`) ? msg : `block ${number}: ${msg}`);
    }
    transactions += block.transactions.length;
  }
  return transactions;
}

/**
 * Proof-of-work uncles, as geth verifies them: each a header on an ancestor at most 6 generations
 * back, neither an ancestor itself nor included before, with a valid time, gas limit and difficulty.
 */
function checkUncles(chain: EthChain, block: Block): void {
  const n = block.header.number;
  const earlier = new Set<string>();
  for (let k = n - 6n > 0n ? n - 6n : 1n; k < n; k++) for (const u of chain.blockByNumber(k)!.block.uncleHeaders) earlier.add(bytesToHex(u.hash()));
  for (const [i, uncle] of block.uncleHeaders.entries()) {
    const fail = (why: string): never => {
      throw new Error(`block ${n}: uncle ${i} ${why}`);
    };
    if (uncle.number >= n || uncle.number + 7n <= n || uncle.number === 0n) fail(`(number ${uncle.number}) is not within 6 generations`);
    const parent = chain.blockByNumber(uncle.number - 1n)!;
    if (!equalsBytes(parent.hash, uncle.parentHash)) fail(`does not descend from block ${parent.number} of this chain`);
    if (equalsBytes(chain.blockByNumber(uncle.number)!.hash, uncle.hash())) fail(`is block ${uncle.number} of the chain itself`);
    if (earlier.has(bytesToHex(uncle.hash()))) fail('was already included');
    if (uncle.timestamp <= parent.block.header.timestamp) fail('has a timestamp not after its parent');
    uncle.validateGasLimit(parent.block.header);
    const difficulty = uncle.ethashCanonicalDifficulty(parent.block.header);
    if (uncle.difficulty !== difficulty) fail(`difficulty ${uncle.difficulty} != ${difficulty}`);
  }
}

/** The chain as `geth export` writes it: every block from genesis, RLP-encoded back to back. */
export function exportChain(chain: EthChain): Uint8Array {
  return encodeChain([...chain.blocks()].map((m) => m.block));
}

/** Builds an EthChain from a geth genesis and its exported blocks (see the file comment for what is checked). */
export async function importGethChain(input: GethChainInput, opts: EthChainOptions = {}): Promise<{ chain: EthChain; stats: ImportStats }> {
  const started = performance.now();
  const genesis = parseGethGenesis(input.genesis, input.genesisSource);
  if (input.expect !== undefined && input.expect.chainId !== genesis.config.chainId) {
    throw new SeedError(
      `invalid seed ${input.expect.source}: chainId: ${input.expect.chainId} differs from config.chainId ${genesis.config.chainId} of ${input.genesisSource}`,
    );
  }
  const file = input.chain === undefined ? undefined : readChainFile(input.chain, input.chainSource ?? 'chain file');
  const mergeBlock = resolveMergeBlock(genesis, file?.difficulties ?? []);
  let chain: EthChain;
  try {
    const common = gethCommon(genesis, { mergeBlock });
    const state = gethState(genesis);
    const dev = input.devAccounts === undefined || file !== undefined ? undefined : input.devAccounts;
    const accounts = dev === undefined ? undefined : deriveDevAccounts(dev.mnemonic, dev.count);
    for (const a of accounts ?? []) state[a.address.toString() as `0x${string}`] ??= [bigIntToHex(BigInt(dev!.balance)), '0x', [], '0x0'];
    chain = await EthChain.fromGenesis({ common, state, header: gethGenesisHeader(genesis), ...(accounts === undefined ? {} : { accounts }) }, opts);
  } catch (err) {
    throw new SeedError(`invalid geth genesis ${input.genesisSource}: ${(err as Error).message}`);
  }
  const transactions = file === undefined ? 0 : await importBlocks(chain, file);
  const stats: ImportStats = { blocks: file?.blocks.length ?? 0, transactions, mergeBlock, millis: Math.round(performance.now() - started) };
  return { chain, stats };
}

/** The chain of a seed with `gethGenesis` (and optionally `rlpChain`), paths relative to the seed file. */
export async function importSeedChain(loaded: LoadedSeed, opts: EthChainOptions = {}): Promise<EthChain> {
  const seed = loaded.seed as EthSeed;
  if (seed.gethGenesis === undefined) throw new SeedError(`seed ${loaded.source} has no gethGenesis`);
  // Without a chainId of its own the seed takes config.chainId; with one, they must agree.
  const expect = seed.chainId === undefined ? undefined : { chainId: seed.chainId, source: loaded.source };
  const devAccounts = seed.devAccounts === true ? seed.accounts : undefined;
  return (await importGethFiles(seed.gethGenesis, seed.rlpChain, loaded.baseDir, opts, expect, devAccounts)).chain;
}

/** Reads a geth genesis file and, if given, a chain file (paths as given, or relative to `baseDir`). */
export async function importGethFiles(
  genesisPath: string,
  chainPath: string | undefined,
  baseDir = process.cwd(),
  opts: EthChainOptions = {},
  expect?: GethChainInput['expect'],
  devAccounts?: GethChainInput['devAccounts'],
) {
  const read = (path: string, what: string): Buffer => {
    try {
      return readFileSync(resolve(baseDir, path));
    } catch (err) {
      throw new SeedError(`cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  };
  let genesis: unknown;
  try {
    genesis = JSON.parse(read(genesisPath, 'geth genesis').toString('utf8'));
  } catch (err) {
    if (err instanceof SeedError) throw err;
    throw new SeedError(`geth genesis ${genesisPath} is not valid JSON: ${(err as Error).message}`);
  }
  const chain = chainPath === undefined ? undefined : new Uint8Array(read(chainPath, 'chain file'));
  return importGethChain({ genesis, genesisSource: genesisPath, chain, chainSource: chainPath, expect, devAccounts }, opts);
}

/** Which genesis header fields differ, to make a genesis mismatch actionable. */
function genesisDiff(ours: Block, theirs: Block): string {
  const a = ours.header.toJSON() as Record<string, unknown>;
  const b = theirs.header.toJSON() as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== 'hash' && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return fields.length === 0 ? '' : `; differing header fields: ${fields.map((k) => `${k} (genesis.json ${String(a[k])}, file ${String(b[k])})`).join(', ')}`;
}

/** An @ethereumjs message without its long block/tx dumps. */
function shortReason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg
    .replace(/\s*\((?:vm hf|block number|block|tx) [^)]*\)+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
