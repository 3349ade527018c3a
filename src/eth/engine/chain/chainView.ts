/**
 * The blockchain the VM sees: BLOCKHASH reads blocks of this chain, and runBlock's header
 * validation checks a foreign block against its parent here.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { equalsBytes } from '@ethereumjs/util';
import type { MinedBlock } from './types.js';

/** What BLOCKHASH reads of a block the chain does not have: a zero hash. */
const UNKNOWN_BLOCK = { hash: () => new Uint8Array(32) } as unknown as Block;

export class ChainView implements EVMMockBlockchainInterface {
  /** `before`: blocks older than the first (a fork's upstream blocks). */
  constructor(
    private readonly blocks: readonly MinedBlock[],
    private readonly before?: (blockId: number) => Promise<Block | undefined>,
  ) {}

  async getBlock(blockId: number): Promise<Block> {
    const first = Number(this.blocks[0]?.number ?? 0n);
    if (blockId < first) return (await this.before?.(blockId)) ?? UNKNOWN_BLOCK;
    const mined = this.blocks[blockId - first];
    // Past head (a call whose block override moves its number forward): a zero hash, as geth's GetHashFn answers.
    if (mined === undefined) return UNKNOWN_BLOCK;
    return mined.block;
  }

  /** Blocks enter the chain through EthChain only. */
  async putBlock(): Promise<void> {}

  shallowCopy(): ChainView {
    return this;
  }

  /** What runBlock asks before executing a foreign block: does it follow the head? */
  async validateHeader(header: BlockHeader): Promise<void> {
    const head = this.blocks[this.blocks.length - 1]!;
    const parent = head.block.header;
    const fail = (why: string) => {
      throw new Error(`invalid header of block ${header.number}: ${why}`);
    };
    if (!equalsBytes(header.parentHash, head.hash)) fail(`parent hash is not the hash of head block ${head.number}`);
    if (header.number !== parent.number + 1n) fail(`number does not follow ${parent.number}`);
    if (header.timestamp <= parent.timestamp) fail('timestamp not after the parent');
    header.validateGasLimit(parent);
    const common = header.common;
    if (common.isActivatedEIP(1559) && parent.baseFeePerGas !== undefined) {
      const expected = parent.calcNextBaseFee();
      if (header.baseFeePerGas !== expected) fail(`base fee ${header.baseFeePerGas} != ${expected}`);
    }
    if (common.isActivatedEIP(4844) && parent.excessBlobGas !== undefined) {
      const expected = parent.calcNextExcessBlobGas(common);
      if (header.excessBlobGas !== expected) fail(`excess blob gas ${header.excessBlobGas} != ${expected}`);
    }
    if (common.consensusType() === 'pow') {
      const expected = header.ethashCanonicalDifficulty(parent);
      if (header.difficulty !== expected) fail(`difficulty ${header.difficulty} != ${expected}`);
    }
  }
}
