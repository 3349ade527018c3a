/**
 * A block's state diff, as Starknet's state update reports it: what changed between the state before
 * the block and the state after it. The simulation's state holds contracts (class, nonce, storage;
 * fee-token balances are the tokens' storage); the diff reports storage, nonces, deployed contracts
 * and declared classes.
 */
import { declaredBy } from './classes.js';
import type { ExecutedTx, Felt, RollupState } from './types.js';

export interface StateDiff {
  readonly storageDiffs: readonly { readonly address: Felt; readonly entries: readonly { readonly key: Felt; readonly value: Felt }[] }[];
  readonly deployedContracts: readonly { readonly address: Felt; readonly classHash: Felt }[];
  readonly replacedClasses: readonly { readonly address: Felt; readonly classHash: Felt }[];
  readonly declaredClasses: readonly { readonly classHash: Felt; readonly compiledClassHash: Felt }[];
  readonly nonces: readonly { readonly address: Felt; readonly nonce: bigint }[];
}

const byFelt =
  <T>(key: (t: T) => Felt) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** The diff from `before` to `after` (contracts and keys in ascending order); `txs` are the block's transactions. */
export function stateDiff(before: RollupState, after: RollupState, txs: readonly ExecutedTx[]): StateDiff {
  const storageDiffs: StateDiff['storageDiffs'][number][] = [];
  const deployedContracts: StateDiff['deployedContracts'][number][] = [];
  const replacedClasses: StateDiff['replacedClasses'][number][] = [];
  const nonces: StateDiff['nonces'][number][] = [];
  for (const [address, c] of after) {
    const old = before.get(address);
    if (c === old || c.deployed === false) continue;
    const wasDeployed = old !== undefined && old.deployed !== false;
    if (!wasDeployed) deployedContracts.push({ address, classHash: c.classHash });
    else if (old.classHash !== c.classHash) replacedClasses.push({ address, classHash: c.classHash });
    if (c.nonce !== (wasDeployed ? old.nonce : 0n)) nonces.push({ address, nonce: c.nonce });
    if (old === undefined || c.storage !== old.storage) {
      const entries = [...c.storage]
        .filter(([k, v]) => old?.storage.get(k) !== v && !(v === 0n && old?.storage.get(k) === undefined))
        .map(([key, value]) => ({ key, value }));
      if (entries.length > 0) storageDiffs.push({ address, entries: entries.sort(byFelt((e) => e.key)) });
    }
  }
  const declaredClasses = txs.flatMap((t) => {
    const d = declaredBy(t);
    return d === undefined ? [] : [{ classHash: d.classHash, compiledClassHash: d.compiledClassHash }];
  });
  return {
    storageDiffs: storageDiffs.sort(byFelt((d) => d.address)),
    deployedContracts: deployedContracts.sort(byFelt((d) => d.address)),
    replacedClasses: replacedClasses.sort(byFelt((d) => d.address)),
    declaredClasses,
    nonces: nonces.sort(byFelt((n) => n.address)),
  };
}
