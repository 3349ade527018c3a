/**
 * A forked chain: an EthChain whose first block is the upstream's fork block (its header, hash checked) and whose
 * state is the fork's lazy state (forkBase.ts). Blocks after it are built, imported and cut back as on any chain;
 * BLOCKHASH of blocks before it answers the upstream's hashes.
 */
import { type Block, createBlock } from '@ethereumjs/block';
import { Account, type Address, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { EthChain } from '../chain/chain.js';
import { ChainView } from '../chain/chainView.js';
import { minedBlock } from '../chain/receipts.js';
import type { DevAccount, EthChainOptions, MinedBlock } from '../chain/types.js';
import { deriveDevAccounts } from '../build/accounts.js';
import type { EthSeed } from '../../../seed/eth.js';
import { type ForkBase, type ForkOptions, openFork } from './forkBase.js';
import { SYSTEM_CONTRACTS, slotOf } from './prefetch.js';

export interface ForkedChain {
  readonly chain: EthChain;
  readonly fork: ForkBase;
}

/** Opens the fork and makes its chain (the fork block's state root node is fetched, so the chain can return to it). */
export async function forkedChain(options: ForkOptions, chainOpts: EthChainOptions = {}, accounts: readonly DevAccount[] = []): Promise<ForkedChain> {
  const fork = await openFork(options);
  await prefetch(fork, accounts);
  const { common } = fork;
  const block = createBlock({ header: fork.header, withdrawals: common.isActivatedEIP(4895) ? [] : undefined }, { common });
  return { chain: chainOnFork(fork, [minedBlock(block, -block.header.difficulty, [], [])], chainOpts, accounts), fork };
}

/**
 * The chain of an open fork over `blocks`: the fork block's (blocks[0], the fork's header) and local blocks after
 * it (a data directory's, fork/forkDataDir.ts). Its head state is at the fork block's root: truncate it to head.
 */
export function chainOnFork(fork: ForkBase, blocks: readonly MinedBlock[], chainOpts: EthChainOptions, accounts: readonly DevAccount[]): EthChain {
  const mined: MinedBlock[] = [];
  const before = async (n: number): Promise<Block | undefined> => {
    const json = await fork.history.blockByNumber(BigInt(n), false).catch(() => null);
    const hash = typeof json?.hash === 'string' ? hexToBytes(json.hash as PrefixedHexString) : undefined;
    return hash === undefined ? undefined : ({ hash: () => hash } as unknown as Block);
  };
  const view = new ChainView(mined, before);
  const core = { common: fork.common, mined, view, headState: fork.headState, headVm: undefined, accounts, scheduled: false };
  const chain = EthChain.fromFork(core, blocks[0]!, chainOpts);
  for (const m of blocks.slice(1)) chain.append(m);
  return chain;
}

/**
 * What the first local block reads in any case, fetched in two batch requests instead of one round trip each as the
 * block's execution would ask: the coinbase, the system contracts and their codes, the dev accounts (their funding
 * edit), then the withdrawal and consolidation queues' four slots and the history contract's slot of the fork block.
 */
async function prefetch(fork: ForkBase, accounts: readonly DevAccount[]): Promise<void> {
  const state = fork.headState;
  const keys = [fork.header.coinbase, ...SYSTEM_CONTRACTS, ...accounts.map((a) => a.address)].map((address) => ({ address, slots: [] }));
  await state.prefetch(keys, SYSTEM_CONTRACTS);
  const [, history, withdrawals, consolidations] = SYSTEM_CONTRACTS as [Address, Address, Address, Address];
  const slots: [Address, bigint][] = [[history, fork.blockNumber % 8191n]];
  for (const queue of [withdrawals, consolidations]) for (let i = 0n; i < 4n; i++) slots.push([queue, i]);
  await Promise.all(slots.map(([address, slot]) => state.getStorage(address, slotOf(slot))));
}

/**
 * The chain of a seed with a `fork` field: the fork, with the seed's dev accounts funded at head (as anvil funds
 * them on a fork: an edit the next block commits). `cacheDir`: the chain cache directory (undefined: no disk cache).
 * `options`: the fork to open (default: the seed's own; anvil_reset with `forking` gives another).
 */
export async function forkedSeedChain(
  seed: EthSeed,
  cacheDir: string | undefined,
  chainOpts: EthChainOptions = {},
  options = seedForkOptions(seed),
): Promise<ForkedChain> {
  const accounts = deriveDevAccounts(seed.accounts.mnemonic, seed.accounts.count);
  const forked = await forkedChain({ ...options, cacheDir }, chainOpts, accounts);
  const balance = BigInt(seed.accounts.balance);
  const { chain } = forked;
  if (accounts.length > 0) {
    // Built before any node serves it: nothing else writes this chain yet, so no writer is taken.
    await chain.editHead(async (state) => {
      for (const { address } of accounts) {
        const account = (await state.getAccount(address)) ?? new Account();
        account.balance = balance;
        await state.putAccount(address, account);
      }
    });
  }
  return forked;
}

/** The fork a seed's `fork` field names (without the cache directory). */
export function seedForkOptions(seed: EthSeed): ForkOptions {
  const spec = seed.fork;
  if (spec === undefined) throw new Error(`network ${seed.name} is not a fork`);
  return {
    url: spec.url,
    blockNumber: spec.blockNumber === undefined ? undefined : BigInt(spec.blockNumber),
    headers: spec.headers,
    retries: spec.retries,
  };
}
