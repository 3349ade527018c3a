import { defineMethod, optional } from '../../rpc/method.js';
import { string } from '../../rpc/params.js';
import type { RollupContext } from '../context.js';
import { dumpAnswer } from '../dumpAnswer.js';
import { dumpFilePath, writeDumpFile } from '../dumpFiles.js';

/**
 * devnet_dump (starknet-devnet's name and params): the rollup network's chain as a dump (src/rollup/dumpAnswer.ts:
 * every block with its status, transactions and receipts, the states, the pending block, chain time and gas prices).
 * Without `path` the dump is the answer; with `path` it is written (atomically) to that file of the dump directory
 * and the answer is null, as starknet-devnet answers. Paths need `--dump-dir DIR` and name a file directly in DIR
 * (src/rollup/dumpFiles.ts); without it a path is refused with code -1, and nothing is written.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_dump"} -> {"format":"devgate-rollup-dump/1","network":"starknet-mainnet",...,"data":"H4sI..."}
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_dump","params":{"path":"before.json"}} -> null
 */
export const devnet_dump = defineMethod({
  name: 'devnet_dump',
  facts: { dev: true },
  named: true,
  params: [optional('path', string)],
  handler: async (ctx: RollupContext, path) => {
    // The file is checked before the chain is encoded, and the chain is encoded before any await: the dump is of now.
    const file = path === undefined ? undefined : dumpFilePath(ctx.dumpDir, path, 'devnet_dump');
    const dump = dumpAnswer(ctx.chain, ctx.networkName);
    if (file === undefined) return dump;
    await writeDumpFile(file, JSON.stringify(dump));
    return null;
  },
});
