/**
 * The state an eth_simulateV1 request runs on: a MerkleStateManager at the base block's root whose trie reads the
 * chain's node store through a private overlay. Simulated blocks compute real state roots (their nodes go to the
 * overlay), and when the request ends the overlay is dropped: nothing reaches the chain's store.
 */
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches } from '@ethereumjs/statemanager';
import { HeadStateManager } from '../state/headState.js';
import { MapDB, ValueEncoding } from '@ethereumjs/util';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';

/** A Map whose reads fall through to `base` and whose writes stay here. */
export class OverlayMap<K, V> extends Map<K, V> {
  constructor(private readonly base: Map<K, V>) {
    super();
  }

  override get(key: K): V | undefined {
    return super.has(key) ? super.get(key) : this.base.get(key);
  }

  override has(key: K): boolean {
    return super.has(key) || this.base.has(key);
  }
}

interface StateInternals {
  _trie: MerklePatriciaTrie;
  _prefixCodeHashes: boolean;
  _prefixStorageTrieKeys: boolean;
}

/** A private, writable state after `base` (its writes never reach the chain's node store). */
export async function simulationState(chain: EthChain, base: MinedBlock, common: Common): Promise<HeadStateManager> {
  const copy = (await chain.stateAt(base)) as unknown as StateInternals;
  const db = copy._trie.database().db as unknown as { _database: Map<string, Uint8Array | string> };
  const trie = new MerklePatriciaTrie({ useKeyHashing: true, common, db: new MapDB(new OverlayMap(db._database)), valueEncoding: ValueEncoding.Bytes });
  // The head's state manager: its flush writes each trie in one batch (same nodes, same roots).
  const state = new HeadStateManager({
    common,
    trie,
    prefixCodeHashes: copy._prefixCodeHashes,
    prefixStorageTrieKeys: copy._prefixStorageTrieKeys,
    caches: new Caches(),
  });
  await state.setStateRoot(chain.stateRootOf(base));
  return state;
}
