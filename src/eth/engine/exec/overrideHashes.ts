/**
 * What BLOCKHASH reads under a block override that moves the block number, as geth's GetHashFn answers it
 * (core/evm.go): hashes are looked up from the real block down, so any number at or past the real block's reads a
 * zero hash, whatever the chain holds there. One exception, in geth's TraceCall only (go-ethereum#32175; its eth_call,
 * eth_estimateGas and eth_createAccessList keep the real header for GetHashFn): overriding the number to the block's
 * number + 1 makes the block itself the parent, so BLOCKHASH(n) reads the block's own hash and a contract cannot tell a
 * simulated next block by a zero parent hash.
 */
import type { Block } from '@ethereumjs/block';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';
import type { MinedBlock } from '../chain/types.js';
import type { BlockOverride } from './overrides.js';

const ZERO_HASH_BLOCK = { hash: () => new Uint8Array(32) } as unknown as Block;

/**
 * `chain` as BLOCKHASH sees it from `block` with the number overridden (with TraceCall's n+1 rule when `nextBlockRule`);
 * undefined when the number is not.
 */
export function hashesFrom(
  chain: EVMMockBlockchainInterface,
  block: MinedBlock,
  o: BlockOverride | undefined,
  nextBlockRule = true,
): EVMMockBlockchainInterface | undefined {
  if (o?.number === undefined || o.number === block.number) return undefined;
  // The first number BLOCKHASH cannot see (geth's ref.Number): the block's own, or the next with the n+1 rule.
  const first = nextBlockRule && o.number === block.number + 1n ? block.number + 1n : block.number;
  return {
    getBlock: async (n: number) => (BigInt(n) < first ? chain.getBlock(n) : ZERO_HASH_BLOCK),
    putBlock: async () => {},
    shallowCopy() {
      return this;
    },
  } as EVMMockBlockchainInterface;
}

/** Points `vm`'s EVM at the hashes `block` with override `o` shows (see hashesFrom) for one run; returns the undo. */
export function useOverrideHashes(vm: VM, block: MinedBlock, o: BlockOverride | undefined, nextBlockRule = true): () => void {
  const evm = vm.evm as unknown as { blockchain: EVMMockBlockchainInterface };
  const own = evm.blockchain;
  const seen = hashesFrom(own, block, o, nextBlockRule);
  if (seen === undefined) return () => {};
  evm.blockchain = seen;
  return () => {
    evm.blockchain = own;
  };
}
