/**
 * The `@label` contracts a seed deployed: seed block b is chain block b + 1 and its transactions keep their order, so
 * a label's address is the contract its transaction's receipt names (read from the chain: a chain restored from the
 * cache knows it as well as a freshly built one).
 */
import type { EthSeed } from './eth.js';

/** `label` -> the address of the contract created by the labelled transaction; `created` reads the receipt of (block, index). */
export function seedLabels(seed: EthSeed, created: (block: bigint, index: number) => string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [b, block] of seed.blocks.entries()) {
    for (const [i, tx] of block.transactions.entries()) {
      const label = 'label' in tx ? tx.label : undefined;
      if (label === undefined) continue;
      const address = created(BigInt(b + 1), i);
      if (address !== undefined) labels[label] = address;
    }
  }
  return labels;
}
