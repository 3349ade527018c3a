/** The node of a chain an engine test built (one per chain, made on first use): mining and the pending block are the node's. */
import type { EthChain } from '../../src/eth/engine/chain/chain.js';
import type { EthNode } from '../../src/eth/node/node.js';
import { standaloneNode } from '../../src/eth/node/standalone.js';

const nodes = new WeakMap<EthChain, EthNode>();

export function nodeOf(chain: EthChain): EthNode {
  let node = nodes.get(chain);
  if (node === undefined) nodes.set(chain, (node = standaloneNode(chain)));
  return node;
}
