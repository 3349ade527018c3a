/**
 * The search box: a block number (on the network in view), a block or transaction hash (on any network), an
 * address (on the network in view, else the first eth network), or an explorer path. Answers the page to open.
 */
import { batch, type Meta, type NetworkMeta } from './rpc.js';

export async function search(meta: Meta, current: NetworkMeta, q: string): Promise<string | undefined> {
  if (q.startsWith('/explorer')) return q;
  if (/^\d+$/.test(q)) return `/explorer/${current.name}/block/${q}`;
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) {
    const net = current.kind === 'eth' ? current : (meta.networks.find((n) => n.kind === 'eth') ?? current);
    return `/explorer/${net.name}/address/${q.toLowerCase()}`;
  }
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(q)) return undefined;
  // The network in view first, then the others.
  for (const net of [current, ...meta.networks.filter((n) => n !== current)]) {
    const n = net.name;
    if (net.kind === 'eth') {
      if (q.length !== 66) continue;
      const [tx, block] = await batch(n, [
        ['eth_getTransactionByHash', [q]],
        ['eth_getBlockByHash', [q, false]],
      ]);
      if (tx?.result) return `/explorer/${n}/tx/${q.toLowerCase()}`;
      if (block?.result) return `/explorer/${n}/block/${q.toLowerCase()}`;
    } else {
      const [tx, block, cls] = await batch(n, [
        ['starknet_getTransactionByHash', [q]],
        ['starknet_getBlockWithTxHashes', [{ block_hash: q }]],
        ['starknet_getClassHashAt', ['latest', q]],
      ]);
      if (tx?.result) return `/explorer/${n}/tx/${q}`;
      if (block?.result) return `/explorer/${n}/block/${q}`;
      if (cls?.result) return `/explorer/${n}/address/${q}`;
    }
  }
  return undefined;
}
