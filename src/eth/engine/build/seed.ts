/**
 * Building the chain of a devgate seed: genesis (alloc + funded dev accounts), then every seeded
 * block really executed, then the pending pool. Any invalid transaction fails the load, naming
 * the block index, transaction index and reason.
 */
import type { GenesisState } from '@ethereumjs/common';
import { Address, bigIntToHex, hexToBytes, setLengthLeft, bytesToHex, type PrefixedHexString } from '@ethereumjs/util';
import { hardforkAtLeast, type EthSeed, type TxSpec } from '../../../seed/eth.js';
import { SeedError, type LoadedSeed } from '../../../seed/load.js';
import { Artifacts, seedArtifacts } from './abi.js';
import { deriveDevAccounts } from './accounts.js';
import { EthChain, type EthChainOptions, type GenesisArgs } from '../chain/chain.js';
import { seedCommon } from '../exec/common.js';
import { openHeadDraft, openPendingDraft, pendingBlockOf } from '../mining/pending.js';
import { SeedTxFactory } from './seedTx.js';
import { MIN_RAW_TXS_FOR_WORKER, SenderKeys } from './senders.js';
import { SYSTEM_CONTRACTS } from './systemContracts.js';
import { PREDEPLOYS } from './predeploys.js';
import { applyCodeSizeLimit } from './codeSize.js';

const GWEI = 1_000_000_000n;
/** Pre-merge genesis difficulty when the seed gives none (the ethash minimum, as hardhat uses). */
const POW_GENESIS_DIFFICULTY = 131_072n;

const big = (v: string | number | undefined, fallback: bigint): bigint => (v === undefined ? fallback : BigInt(v));

/** The genesis a seed describes (Common, state with funded dev accounts, header fields), for fromGenesis. */
export function seedGenesis(loaded: LoadedSeed): GenesisArgs {
  const seed = loaded.seed as EthSeed;
  const common = applyCodeSizeLimit(seedCommon(seed.chainId!, seed.name, seed.hardfork), seed.codeSizeLimit);
  let accounts;
  try {
    accounts = deriveDevAccounts(seed.accounts.mnemonic, seed.accounts.count);
  } catch (err) {
    throw new SeedError(`invalid seed ${loaded.source}: accounts.mnemonic: ${(err as Error).message.replace(/^accounts\.mnemonic: /, '')}`);
  }
  const g = seed.genesis;
  const london = common.gteHardfork('london');
  if (!london && g.baseFeePerGas !== undefined)
    throw new SeedError(`invalid seed ${loaded.source}: genesis.baseFeePerGas: no base fee before london (hardfork ${seed.hardfork})`);
  return {
    common,
    state: genesisState(
      seed,
      accounts.map((a) => a.address),
    ),
    accounts,
    header: {
      timestamp: big(g.timestamp, 0n),
      gasLimit: big(g.gasLimit, 30_000_000n),
      extraData: g.extraData === undefined ? undefined : hexToBytes(g.extraData as PrefixedHexString),
      coinbase: g.coinbase === undefined ? undefined : new Address(hexToBytes(g.coinbase as PrefixedHexString)),
      difficulty: big(g.difficulty, common.gteHardfork('paris') ? 0n : POW_GENESIS_DIFFICULTY),
      baseFeePerGas: london ? big(g.baseFeePerGas, GWEI) : undefined,
    },
  };
}

export async function buildSeedChain(loaded: LoadedSeed, opts: EthChainOptions): Promise<EthChain> {
  const seed = loaded.seed as EthSeed;
  const fail = (path: string, why: string): never => {
    throw new SeedError(`invalid seed ${loaded.source}: ${path}: ${why}`);
  };
  const genesis = seedGenesis(loaded);
  const chain = await EthChain.fromGenesis(genesis, opts);
  const { accounts = [] } = genesis;

  const factory = new SeedTxFactory(accounts, new Artifacts(seedArtifacts(loaded).dirs, loaded.baseDir));
  const senders = startSenderRecovery(seed);
  try {
    return await buildBlocks(chain, seed, factory, fail, senders);
  } finally {
    senders?.close();
  }
}

/** Every seeded block, then the pending pool; raw transactions take their sender keys from `senders` when it has them. */
async function buildBlocks(
  chain: EthChain,
  seed: EthSeed,
  factory: SeedTxFactory,
  fail: (path: string, why: string) => never,
  senders: SenderKeys | undefined,
): Promise<EthChain> {
  let rawIndex = 0;
  const senderKey = (spec: TxSpec) => (spec.raw === undefined || senders === undefined ? undefined : senders.get(rawIndex++));
  for (const [i, spec] of seed.blocks.entries()) {
    const parentTime = chain.head().block.header.timestamp;
    const timestamp = spec.timestamp === undefined ? undefined : BigInt(spec.timestamp);
    if (timestamp !== undefined && timestamp <= parentTime)
      fail(`blocks[${i}].timestamp`, `${timestamp} is not after the parent block's timestamp ${parentTime}`);
    const coinbase = spec.coinbase === undefined ? undefined : new Address(hexToBytes(spec.coinbase as PrefixedHexString));
    const draft = await openHeadDraft(chain, { timestamp, coinbase });
    for (const [j, txSpec] of spec.transactions.entries()) {
      const where = `blocks[${i}].transactions[${j}]`;
      try {
        const { tx, sender } = await factory.build(txSpec, draft, undefined, await senderKey(txSpec));
        await draft.add(tx, sender);
      } catch (err) {
        fail(where, reason(err));
      }
    }
    chain.append(await draft.seal());
  }

  // The pending pool: nonces continue after head's state and the sender's earlier pending txs.
  const queued = new Map<string, bigint>();
  const draft = await openPendingDraft(chain);
  for (const [j, txSpec] of seed.pending.entries()) {
    try {
      const { tx, sender } = await factory.build(txSpec, draft, (s) => queued.get(s.toString()) ?? 0n, await senderKey(txSpec));
      queued.set(sender.toString(), (queued.get(sender.toString()) ?? 0n) + 1n);
      await chain.addPending(tx, sender);
    } catch (err) {
      fail(`pending[${j}]`, reason(err));
    }
  }
  const pendingBlock = await pendingBlockOf(chain, chain.pendingTransactions());
  const included = new Set(pendingBlock.block.transactions.map((tx) => bytesToHex(tx.hash())));
  chain.pendingTransactions().forEach((p, j) => {
    if (!included.has(bytesToHex(p.tx.hash()))) fail(`pending[${j}]`, 'does not apply on top of the last block (nonce, funds or gas)');
  });
  return chain;
}

/** Recovery of the seed's raw transactions' senders on a worker, when there are enough of them to pay for it. */
function startSenderRecovery(seed: EthSeed): SenderKeys | undefined {
  const raws: string[] = [];
  for (const block of seed.blocks) for (const tx of block.transactions) if (tx.raw !== undefined) raws.push(tx.raw);
  for (const tx of seed.pending) if (tx.raw !== undefined) raws.push(tx.raw);
  return raws.length < MIN_RAW_TXS_FOR_WORKER ? undefined : SenderKeys.start({ chainId: seed.chainId!, name: seed.name, hardfork: seed.hardfork, raws });
}

/** A readable reason from an @ethereumjs error (without its long block/tx dumps). */
function reason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg
    .replace(/\s*\((?:vm hf=|block number=|tx type=)[\s\S]*\)\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The seed's alloc plus the dev accounts, its predeploys and the system contracts of the seed's hardfork, as a
 * real node's genesis holds them (an alloc entry for the same address wins).
 */
function genesisState(seed: EthSeed, devAddresses: readonly Address[]): GenesisState {
  const state: GenesisState = {};
  for (const c of SYSTEM_CONTRACTS) {
    if (hardforkAtLeast(seed.hardfork, c.since)) state[c.address as PrefixedHexString] = ['0x0', c.code as PrefixedHexString, [], '0x1'];
  }
  for (const name of seed.predeploys) {
    const { address, code, nonce } = PREDEPLOYS[name];
    state[address as PrefixedHexString] = ['0x0', code as PrefixedHexString, [], nonce as PrefixedHexString];
  }
  const balance = bigIntToHex(BigInt(seed.accounts.balance));
  for (const a of devAddresses) state[a.toString()] = [balance, '0x', [], '0x0'];
  for (const [addr, acc] of Object.entries(seed.alloc)) {
    const storage = Object.entries(acc.storage ?? {}).map(
      ([k, v]) => [bytesToHex(setLengthLeft(hexToBytes(even(k)), 32)), bytesToHex(hexToBytes(even(v)))] as [PrefixedHexString, PrefixedHexString],
    );
    state[addr.toLowerCase() as PrefixedHexString] = [
      bigIntToHex(big(acc.balance, 0n)),
      (acc.code ?? '0x') as PrefixedHexString,
      storage,
      bigIntToHex(big(acc.nonce, 0n)),
    ];
  }
  return state;
}

const even = (h: string): PrefixedHexString => (h.length % 2 === 0 ? h : '0x0' + h.slice(2)) as PrefixedHexString;
