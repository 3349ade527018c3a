import { randomBytes } from 'node:crypto';
import { bytesHex } from '../../../hex.js';
import { defineMethod } from '../../../rpc/method.js';
import type { EthContext } from '../../context.js';
import { ANVIL_COMPAT_VERSION, DEV_CLIENT_VERSION } from '../anvilCompat.js';
import { VERSION } from '../../../version.js';

/**
 * Each network's instance id: 32 random bytes made on its first anvil_metadata, as anvil and hardhat make one per
 * start, so that a tool caching per node (fixtures, deployments) sees a restarted devgate as a new node.
 */
const instanceIds = new WeakMap<object, string>();

/** anvil_metadata's answer (anvil 1.7.1's shape; hardhat's fields are a subset of it). */
function metadata(ctx: EthContext) {
  const head = ctx.chain.head();
  let instanceId = instanceIds.get(ctx.chain);
  if (instanceId === undefined) instanceIds.set(ctx.chain, (instanceId = bytesHex(randomBytes(32))));
  const snapshots: Record<string, [number, string]> = {};
  for (const [id, number, hash] of ctx.node.snapshots.list() ?? []) snapshots[id.toString(10)] = [Number(number), bytesHex(hash)];
  return {
    clientVersion: DEV_CLIENT_VERSION,
    clientSemver: `${ANVIL_COMPAT_VERSION}+devgate.${VERSION}`,
    clientCommitSha: null,
    chainId: Number(ctx.chain.chainId),
    instanceId,
    latestBlockNumber: Number(head.number),
    latestBlockHash: bytesHex(head.hash),
    forkedNetwork: null,
    snapshots,
  };
}

/**
 * anvil_metadata: the node's client, chain id, instance id (random per start), head and snapshots, in anvil's shape
 * (`clientCommitSha` is null: devgate is not a foundry build).
 * @example {"jsonrpc":"2.0","id":1,"method":"anvil_metadata","params":[]} -> {"clientVersion":"anvil/v1.7.1/devgate/0.1.0","chainId":31337,...}
 */
export const anvil_metadata = defineMethod({
  name: 'anvil_metadata',
  facts: { dev: true },
  params: [],
  handler: (ctx: EthContext) => metadata(ctx),
});

/**
 * hardhat_metadata: the same answer (hardhat's clientVersion, chainId, instanceId, latestBlockNumber, latestBlockHash,
 * forkedNetwork, and anvil's extra fields), as anvil answers it.
 */
export const hardhat_metadata = { ...anvil_metadata, name: 'hardhat_metadata' };
