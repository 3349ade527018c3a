/**
 * The pending block of a node: built only when asked for (a read never builds one otherwise), and kept while head,
 * head's edits, the pool and the next header's fields stay the same (the key says which it was built for).
 */
import { bytesToHex } from '@ethereumjs/util';
import type { EthChain } from '../engine/chain/chain.js';
import type { MinedBlock, NextHeader } from '../engine/chain/types.js';
import { pendingBlockOf } from '../engine/mining/pending.js';

export class PendingBlock {
  private key: string | undefined;
  private built: Promise<MinedBlock> | undefined;

  constructor(
    private readonly chain: EthChain,
    private readonly nextHeader: () => NextHeader,
  ) {}

  block(): Promise<MinedBlock> {
    const header = this.nextHeader();
    const pool = this.chain.pendingTransactions();
    const head = this.chain.head();
    const key = keyOf(head.hash, this.chain.stateRootOf(head), pool, header);
    if (this.built === undefined || key !== this.key) {
      this.key = key;
      this.built = pendingBlockOf(this.chain, pool, header);
      // A failed build is not kept.
      this.built.catch(() => {
        if (this.key === key) this.built = undefined;
      });
    }
    return this.built;
  }
}

/** What a pending block was built from (the pool by identity of its list: the chain replaces the list on every change). */
const pools = new WeakMap<object, number>();
let nextPool = 0;

function keyOf(head: Uint8Array, root: Uint8Array, pool: object, header: NextHeader): string {
  let id = pools.get(pool);
  if (id === undefined) pools.set(pool, (id = nextPool++));
  const fields = [
    header.timestamp,
    header.coinbase?.toString(),
    header.gasLimit,
    header.baseFeePerGas,
    header.prevRandao === undefined ? undefined : bytesToHex(header.prevRandao),
  ];
  return `${bytesToHex(head)}:${bytesToHex(root)}:${id}:${fields.join(',')}`;
}
