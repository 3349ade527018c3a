import { InvalidArgument } from '../../errors.js';
import { defineMethod, optional } from '../../rpc/method.js';
import { string } from '../../rpc/params.js';
import type { RollupContext } from '../context.js';
import { readDumpAnswerAsync, readDumpBytes } from '../dumpAnswer.js';
import { dumpFilePath, readDumpFile } from '../dumpFiles.js';
import { loadRollupParts } from '../engine/load.js';

/** Any JSON value: the dump itself (checked by readDumpAnswer). */
const anyValue = (value: unknown): unknown => value;

/**
 * devnet_load (starknet-devnet's name and `path` param): puts a dump of this network (devnet_dump's answer, from a
 * file of the dump directory, or, devgate's extension, given inline as `dump`; a whole-gateway state file of the
 * dump directory gives its section of this network) in place of the rollup chain. The
 * dump's chain is taken as it was executed (nothing is re-run, every hash is the dump's); blocks both chains share
 * stay, the others are reported to subscriptions as on a revert and the loaded ones as sealed; every snapshot is
 * forgotten. A dump of another chain (chain id or genesis), a damaged one or a missing file is refused with code -1
 * before anything changes. Answers {} as starknet-devnet does.
 * @example {"jsonrpc":"2.0","id":1,"method":"devnet_load","params":{"path":"before.json"}} -> {}
 */
export const devnet_load = defineMethod({
  name: 'devnet_load',
  facts: { dev: true },
  named: true,
  params: [optional('path', string), optional('dump', anyValue)],
  handler: async (ctx: RollupContext, path, dump) => {
    if ((path === undefined) === (dump === undefined))
      throw new InvalidArgument('give "path" (a file of the dump directory) or "dump" (devnet_dump\'s answer), one of them');
    const bytes = path === undefined ? undefined : await readDumpFile(dumpFilePath(ctx.dumpDir, path, 'devnet_load'));
    // Unzipped off the event loop (other clients are served meanwhile), decoded and checked in full first; then put
    // in place synchronously, with no other request in between.
    const { parts } =
      bytes === undefined ? await readDumpAnswerAsync(dump, ctx.chain, ctx.networkName) : await readDumpBytes(bytes, ctx.chain, ctx.networkName, path!);
    loadRollupParts(ctx.chain, parts);
    return {};
  },
});
