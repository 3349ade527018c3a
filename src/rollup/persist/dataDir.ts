/**
 * A rollup network kept in a data directory. The rollup chain is small and has no writer queue, so it is kept
 * whole: after every call to the network (and every tick of its timer) a cheap fingerprint of the chain (blocks,
 * head, pool, statuses, L1 anchors, time) is compared with the stored one, and when it changed the whole chain
 * (src/rollup/snapshot.ts's encoding) is written in one LMDB transaction and flushed before the call is answered.
 * Records: `M` meta (JSON: format, the seed's key, genesis block hash), `R` the chain.
 *
 * A restart restores the chain as the chain cache does: clock readings (when blocks were sealed, the next
 * interval seal) move to the restart's clock, so time-driven rules (interval blocks, L1 acceptance after a
 * delay) count from the restart, while chain time (block timestamps) goes on from the stored anchor.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { cachedRollupChain, rollupChainKey } from '../../cache/rollupCache.js';
import { plainHex } from '../../hex.js';
import { rollupConfig } from '../build.js';
import { RollupChain } from '../engine/chain.js';
import { decodeRollupSnapshot, encodeRollupSnapshot } from '../snapshot.js';
import type { RollupSeed } from '../../seed/rollup.js';
import { DataDirError, type DataDir } from '../../persist/store.js';

const META = Uint8Array.of(0x4d);
const CHAIN = Uint8Array.of(0x52);

interface RollupMeta {
  readonly format: number;
  readonly seedKey: string;
  readonly genesisHash: string;
}

export interface KeptRollup {
  readonly chain: RollupChain;
  /** Writes the chain when it changed since the last write; resolves once it is on disk. */
  afterCall(): Promise<void>;
}

/** What changes whenever anything a restart must see changes. */
function fingerprint(chain: RollupChain): string {
  const p = chain.parts();
  let accepted = 0;
  let anchored = 0;
  for (const b of p.blocks) {
    if (b.status === 'ACCEPTED_ON_L1') accepted++;
    if (b.l1Anchor !== undefined) anchored++;
  }
  return [
    p.blocks.length,
    p.blocks.at(-1)?.hash,
    p.byHash.size,
    p.txs.size,
    p.pendingTxs.length,
    accepted,
    anchored,
    p.anchorSec,
    p.anchorMs,
    p.nextSealMs,
    p.l1Head,
  ].join(':');
}

/** The rollup network of `seed` kept in `dir`; throws DataDirError for a store of another seed's chain. */
export async function dataDirRollupChain(dir: DataDir, seed: RollupSeed, clock: Clock, cacheDir: string | undefined): Promise<KeptRollup> {
  const where = `data directory ${dir.path}, network ${JSON.stringify(seed.name)}`;
  const db = dir.network('rollup', seed.name);
  // The chain's bytes are keyed by the network, not the seed's key (which changes with devgate's version).
  const key = new Uint8Array(createHash('sha256').update(`devgate data dir rollup ${seed.name}`).digest());
  const seedKey = plainHex(rollupChainKey(seed));
  const stored = db.get(META);
  let chain: RollupChain;
  if (stored === undefined) {
    chain = cachedRollupChain(seed, clock, cacheDir).chain;
  } else {
    let meta: RollupMeta;
    try {
      meta = JSON.parse(Buffer.from(stored).toString('utf8')) as RollupMeta;
    } catch (err) {
      throw new DataDirError(`${where}: unreadable meta record (${(err as Error).message})`);
    }
    if (meta.seedKey !== seedKey) {
      const genesis = cachedRollupChain(seed, clock, cacheDir).chain.parts().blocks[0];
      const hash = genesis === undefined ? 'none' : `0x${genesis.hash.toString(16)}`;
      if (hash !== meta.genesisHash)
        throw new DataDirError(
          `${where}: it holds the rollup chain of genesis ${meta.genesisHash}, the seed gives genesis ${hash}; give another --data-dir, or remove this one to start afresh`,
        );
    }
    const bytes = db.get(CHAIN);
    if (bytes === undefined) throw new DataDirError(`${where}: the chain record is missing`);
    try {
      chain = RollupChain.restore(rollupConfig(seed), clock, decodeRollupSnapshot(bytes, key));
    } catch (err) {
      throw new DataDirError(`${where}: the stored rollup chain is not sound: ${(err as Error).message}`);
    }
  }
  const genesis = chain.parts().blocks[0];
  const meta: RollupMeta = { format: 1, seedKey, genesisHash: genesis === undefined ? 'none' : `0x${genesis.hash.toString(16)}` };
  let written: string | undefined;
  const write = async () => {
    const now = fingerprint(chain);
    if (now === written) return;
    const bytes = encodeRollupSnapshot(chain.parts(), key);
    await db.transaction(() => {
      db.put(CHAIN, bytes);
      db.put(META, Buffer.from(JSON.stringify(meta)));
    });
    await db.flushed;
    written = now;
  };
  await write();
  return { chain, afterCall: write };
}
