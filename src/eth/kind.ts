/** The eth network kind (src/networkKind.ts): its engine is its node (EthEngine), its seed an EthSeed. */
import type { NetworkKindDef } from '../networkKind.js';
import type { EthSeed } from '../seed/eth.js';
import type { EthEngine } from './context.js';
import type { EthDump } from './engine/persist/dump/ethDump.js';
import { ethState } from './kindState.js';
import { createEthNetwork, type EthNetwork } from './network.js';
import { type EthNetwork as EthHandle, ethNetwork } from './handle.js';
import { IsolatedEthNetwork } from './isolate/isolated.js';
import { seedLabels } from '../seed/labels.js';
import { setTraceBudget } from './engine/trace/budget.js';

export const ethKind: NetworkKindDef<EthEngine, EthDump, EthSeed, EthHandle> = {
  kind: 'eth',
  title: 'an eth network',
  connectChainId: (chainId) => `0x${BigInt(chainId).toString(16)}`,
  bareByDefault: true,
  state: ethState,
  create: (loaded, env) => createEthNetwork(loaded, env),
  handle: (name, node) => ethNetwork(name, node),
  contracts(seed, node) {
    // A geth genesis deploys nothing by label.
    if (seed.gethGenesis !== undefined) return {};
    return seedLabels(seed, (block, index) => {
      const mined = node.chain.blockByNumber(block);
      return mined === undefined ? undefined : (mined.receiptAt?.(index) ?? mined.receipts[index])?.contractAddress?.toString();
    });
  },
  cli: {
    status(h) {
      const mode = h.miningMode();
      const how =
        mode.intervalMs !== undefined
          ? `a block every ${mode.intervalMs / 1000} s`
          : mode.automine
            ? 'automine (a block per send)'
            : 'manual (evm_mine, anvil_mine)';
      return `Mining on ${h.name}: ${how}`;
    },
    async banner(h, labels) {
      const { bannerLines } = await import('../log/banner.js');
      const accounts = await Promise.all(h.devAccounts().map(async (a) => ({ ...a, balance: await h.getBalance(a.address) })));
      return bannerLines({ name: h.name, accounts, labels });
    },
  },
  watchLog: (log, network, label) => log.watch((network.engine as EthEngine).chain, label, (network as EthNetwork).methods),
  traceBudget: (node, maxBytes) => setTraceBudget(node.chain, maxBytes),
  l1Head: (node) => node.chain.head().number,
  isolate: {
    // Checked before any chain is built (a fork's would reach its upstream first).
    refusal: (seed) =>
      seed.fork === undefined
        ? undefined
        : `invalid devgate options:\nisolate: network ${JSON.stringify(seed.name)} is a fork (docs/fork.md); forks cannot be isolated per key yet`,
    serve: async (network, seed, env, bounds, sharedKey) =>
      (await import('./isolate/index.js')).isolateEthNetwork(network as EthNetwork, seed, env, bounds, sharedKey),
    copies: (served) => (served instanceof IsolatedEthNetwork ? served.info() : []),
  },
};
