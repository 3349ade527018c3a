/**
 * Synchronous state reads on a fork (eth_simulateV1: its overlay reads the base block's committed state through
 * RootReads, which read the node store without waiting). On a fork a read can meet a node or code no proof has
 * fetched yet: the reads given by `forkReads` then throw ForkMiss naming what is needed, and `withForkFetches` fetches
 * it (ForkState: a proof of the account or slot, the code by address) and runs the whole read-only work again.
 * Nothing of a run reaches the chain, so running it again is the same run with one more key fetched; each run fetches
 * at least one new key, and past `MAX_FORK_REFETCHES` the request fails naming the limit.
 */
import { Address, bytesToHex, hexToBytes, type Account } from '@ethereumjs/util';
import { plainHex } from '../../../hex.js';
import type { EthChain } from '../chain/chain.js';
import { addressKey, type RootReads } from '../state/rootReads.js';
import { forkStateOfStore } from './forkBase.js';
import { codeKey, ForkStateError, type ForkState } from './forkState.js';

/** The most keys one read-only request fetches by running again (each run is the whole request). */
export const MAX_FORK_REFETCHES = 256;

const EMPTY_CODE_HASH = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

type Need =
  | { readonly kind: 'account'; readonly root: Uint8Array; readonly address: Address }
  | { readonly kind: 'slot'; readonly address: Address; readonly storageRoot: Uint8Array; readonly slot: Uint8Array }
  | { readonly kind: 'code'; readonly address: Address | undefined; readonly codeHash: Uint8Array };

/** A read met state the fork has not fetched: `need` says what to fetch. Not a request's error: caught by withForkFetches. */
export class ForkMiss extends Error {
  override name = 'ForkMiss';
  constructor(readonly need: Need) {
    super(`the fork has not fetched ${describe(need)} yet`);
  }
}

function describe(need: Need): string {
  if (need.kind === 'account') return `account ${need.address}`;
  if (need.kind === 'slot') return `slot ${bytesToHex(need.slot)} of ${need.address}`;
  return `code ${bytesToHex(need.codeHash)}`;
}

const isMissingNode = (err: unknown) => err instanceof Error && err.message.startsWith('missing trie node');

/** The fork state of `chain` (its node store is a fork's), or undefined on a plain chain. */
export const forkStateOf = (chain: EthChain): ForkState | undefined => forkStateOfStore(chain.parts().nodes);

/** `reads` (a root's committed state on a fork) throwing ForkMiss where the fork has not fetched what is read. */
export function forkReads(reads: RootReads, fork: ForkState): RootReads {
  // Code is read by hash: the account read before it says whose it is (eth_getCode fetches by address).
  const owners = new Map<string, Address>();
  const wrapped = Object.create(reads) as RootReads;
  wrapped.account = (address: Address, key = addressKey(address)): Account | null => {
    let account: Account | null;
    try {
      account = reads.account(address, key);
    } catch (err) {
      if (isMissingNode(err)) throw new ForkMiss({ kind: 'account', root: reads.root, address });
      throw err;
    }
    if (account?.isContract()) owners.set(plainHex(account.codeHash), address);
    return account;
  };
  wrapped.slot = (account: Account, slot: Uint8Array, addrKey: string): Uint8Array => {
    try {
      return reads.slot(account, slot, addrKey);
    } catch (err) {
      if (isMissingNode(err))
        throw new ForkMiss({ kind: 'slot', address: new Address(hexToBytes(`0x${addrKey}`)), storageRoot: account.storageRoot, slot: Uint8Array.from(slot) });
      throw err;
    }
  };
  wrapped.code = (codeHash: Uint8Array): Uint8Array => {
    // Asked of the store first: the shared reads keep an unknown code hash's code as empty.
    const hash = plainHex(codeHash);
    if (hash !== EMPTY_CODE_HASH && !fork.nodes.has(codeKey(codeHash))) throw new ForkMiss({ kind: 'code', address: owners.get(hash), codeHash });
    return reads.code(codeHash);
  };
  return wrapped;
}

/** Runs `work` (read-only: it changes no chain data) until it meets nothing unfetched, fetching what each run met. */
export async function withForkFetches<T>(fork: ForkState, work: () => Promise<T>): Promise<T> {
  const seen = new Set<string>();
  for (;;) {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof ForkMiss)) throw err;
      const what = describe(err.need);
      if (seen.has(what)) throw new ForkStateError(`the fork's upstream proofs did not bring ${what}`);
      if (seen.size >= MAX_FORK_REFETCHES)
        throw new ForkStateError(
          `this request reads more than ${MAX_FORK_REFETCHES} accounts, slots and codes the fork has not fetched yet (the fork's limit per request); read some first`,
        );
      seen.add(what);
      await fetchNeed(fork, err.need);
    }
  }
}

async function fetchNeed(fork: ForkState, need: Need): Promise<void> {
  if (need.kind === 'account') return fork.ensureAccount(need.root, need.address.bytes);
  if (need.kind === 'slot') return fork.ensureSlot(need.address.bytes, need.storageRoot, need.slot);
  if (need.address === undefined) throw new ForkStateError(`the fork has not fetched code ${bytesToHex(need.codeHash)} and cannot tell whose it is`);
  return fork.ensureCode(need.address.bytes, need.codeHash);
}
