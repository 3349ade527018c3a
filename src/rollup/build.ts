/** Builds a RollupChain from a rollup seed: genesis state, seeded blocks with their statuses, pending transactions. */
import type { Clock } from '../clock.js';
import { SeedError } from '../seed/load.js';
import type { RollupSeed } from '../seed/rollup.js';
import { RollupChain, type RollupConfig } from './engine/chain.js';
import { creditBalances } from './engine/feeToken.js';
import { shortString } from './engine/hash.js';
import type { ContractState, Felt } from './engine/types.js';
import { declaredClass, invokeFromWire, outcomeFromWire } from './params.js';

const prices = (p: { wei: string; fri: string }) => ({ wei: BigInt(p.wei), fri: BigInt(p.fri) });

/** The chain rules a rollup seed sets. */
export function rollupConfig(seed: RollupSeed): RollupConfig {
  return {
    chainId: shortString(seed.chainId),
    starknetVersion: seed.starknetVersion,
    sequencerAddress: BigInt(seed.sequencerAddress),
    gasPrices: prices(seed.gasPrices),
    dataGasPrices: prices(seed.dataGasPrices ?? seed.gasPrices),
    l2GasPrices: prices(seed.l2GasPrices ?? seed.gasPrices),
    l1DaMode: seed.l1DaMode,
    feeTokens: { eth: BigInt(seed.feeTokens.eth), strk: BigInt(seed.feeTokens.strk) },
    classes: new Map(seed.classes.map((c) => declaredClass(c.contractClass, BigInt(c.compiledClassHash))).map((d) => [d.classHash, d])),
    l1Acceptance: seed.l1Acceptance,
    blockTimeMs: seed.blockTimeMs,
  };
}

export function buildRollupChain(seed: RollupSeed, clock: Clock): RollupChain {
  const state = new Map<Felt, ContractState>();
  for (const a of seed.accounts) {
    state.set(BigInt(a.address), { classHash: BigInt(a.classHash), publicKey: BigInt(a.publicKey), nonce: BigInt(a.nonce), storage: new Map() });
  }
  for (const c of seed.contracts) {
    const storage = new Map(Object.entries(c.storage).map(([k, v]) => [BigInt(k), BigInt(v)] as const));
    state.set(BigInt(c.address), { classHash: BigInt(c.classHash), nonce: 0n, storage });
  }
  // Balances are the fee tokens' storage (src/rollup/engine/feeToken.ts): accounts' first, then funded addresses'.
  const holders = [...seed.accounts, ...seed.fundedAddresses].map((h) => ({ address: BigInt(h.address), wei: BigInt(h.balance), fri: BigInt(h.strkBalance) }));
  creditBalances(
    state,
    BigInt(seed.feeTokens.eth),
    holders.map((h) => [h.address, h.wei] as const),
  );
  creditBalances(
    state,
    BigInt(seed.feeTokens.strk),
    holders.map((h) => [h.address, h.fri] as const),
  );
  const chain = new RollupChain(rollupConfig(seed), clock, state);
  const submit = (txs: RollupSeed['pending'], where: string) =>
    txs.forEach((t, i) => {
      const tx = invokeFromWire(t.transaction);
      try {
        chain.addInvokeTransaction(tx, outcomeFromWire(t.outcome, tx.senderAddress));
      } catch (err) {
        const data = (err as { data?: unknown }).data;
        throw new SeedError(
          `invalid rollup seed ${seed.name}: ${where}[${i}]: ${(err as Error).message}${data === undefined ? '' : ': ' + JSON.stringify(data)}`,
        );
      }
    });
  const blocks = seed.blocks.length > 0 ? seed.blocks : [{ timestamp: seed.genesisTimestamp, status: 'ACCEPTED_ON_L2' as const, transactions: [] }];
  blocks.forEach((b, i) => {
    submit(b.transactions, `blocks[${i}].transactions`);
    const block = chain.createBlock(BigInt(b.timestamp));
    if (b.status === 'ACCEPTED_ON_L1') chain.acceptOnL1({ hash: block.hash });
    if (b.status === 'REJECTED') chain.rejectBlock({ hash: block.hash });
  });
  chain.startClock(BigInt(blocks.at(-1)!.timestamp));
  submit(seed.pending, 'pending');
  return chain;
}
