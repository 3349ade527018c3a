import { defineMethod, required } from '../../../rpc/method.js';
import { fixedBytes } from '../../../rpc/params.js';
import type { EthContext } from '../../context.js';

/**
 * hardhat_setPrevRandao: the next block's prevRandao (PREVRANDAO, the header's mixHash), as 32 bytes; the blocks after
 * it carry it on (each block carries its parent's). Only after the merge.
 * @example {"jsonrpc":"2.0","id":1,"method":"hardhat_setPrevRandao","params":["0x00000000000000000000000000000000000000000000000000000000075bcd15"]} -> null
 */
export const hardhat_setPrevRandao = defineMethod({
  name: 'hardhat_setPrevRandao',
  facts: { dev: true, persists: true },
  params: [required('prevRandao', fixedBytes(32, 'a 32-byte value'))],
  handler: (ctx: EthContext, value) => {
    ctx.miner.setNextBlockPrevRandao(value);
    return null;
  },
});
