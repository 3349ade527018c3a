/**
 * EthChain: the engine of an `eth` network. It keeps blocks and a Merkle Patricia state trie, and
 * speaks bigints, bytes and @ethereumjs objects; it knows nothing of JSON-RPC or hex strings.
 */
import { createBlock, type Block } from '@ethereumjs/block';
import { createCustomCommon, Mainnet, type Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { AllocAccount, EthSeed } from '../../seed/eth.js';

const toBig = (v: string | number | undefined, fallback: bigint): bigint => (v === undefined ? fallback : BigInt(v));

export class EthChain {
  private constructor(
    readonly common: Common,
    readonly stateManager: MerkleStateManager,
    private readonly blocks: Block[],
  ) {}

  /** Builds the chain of a seed: genesis state and block. */
  static async fromSeed(seed: EthSeed): Promise<EthChain> {
    const common = createCustomCommon({ chainId: seed.chainId, name: seed.name }, Mainnet, { hardfork: seed.hardfork });
    const stateManager = new MerkleStateManager({
      common,
      trie: new MerklePatriciaTrie({ useKeyHashing: true }),
      caches: new Caches(),
    });
    await writeAlloc(stateManager, seed.alloc);
    const stateRoot = await stateManager.getStateRoot();
    const g = seed.genesis;
    const genesis = createBlock(
      {
        header: {
          number: 0n,
          stateRoot,
          timestamp: toBig(g.timestamp, 0n),
          gasLimit: toBig(g.gasLimit, 30_000_000n),
          extraData: g.extraData === undefined ? undefined : hexToBytes(g.extraData as PrefixedHexString),
          coinbase: g.coinbase === undefined ? undefined : new Address(hexToBytes(g.coinbase as PrefixedHexString)),
          difficulty: toBig(g.difficulty, common.gteHardfork('paris') ? 0n : 1n),
          baseFeePerGas: common.gteHardfork('london') ? toBig(g.baseFeePerGas, 1_000_000_000n) : undefined,
        },
      },
      { common, setHardfork: false },
    );
    return new EthChain(common, stateManager, [genesis]);
  }

  get chainId(): bigint {
    return this.common.chainId();
  }

  /** The newest mined block. */
  head(): Block {
    return this.blocks[this.blocks.length - 1]!;
  }

  blockByNumber(n: bigint): Block | undefined {
    return n < BigInt(this.blocks.length) ? this.blocks[Number(n)] : undefined;
  }
}

async function writeAlloc(sm: MerkleStateManager, alloc: Record<string, AllocAccount>): Promise<void> {
  for (const [addr, acc] of Object.entries(alloc)) {
    const address = new Address(hexToBytes(addr as PrefixedHexString));
    await sm.putAccount(address, new Account(toBig(acc.nonce, 0n), toBig(acc.balance, 0n)));
    if (acc.code !== undefined) await sm.putCode(address, hexToBytes(acc.code as PrefixedHexString));
    for (const [slot, value] of Object.entries(acc.storage ?? {})) {
      await sm.putStorage(address, hexToBytes(slot as PrefixedHexString), hexToBytes(value as PrefixedHexString));
    }
  }
  await sm.checkpoint();
  await sm.commit();
}
