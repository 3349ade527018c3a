/**
 * Declared contract classes (Sierra, Cairo 1): their hash exactly as Starknet computes it (so clients
 * can recompute it), and which classes a block's state knows: the seed's, then those declared by
 * DECLARE transactions of the chain up to that block. devgate does not run Cairo: a class is served
 * (starknet_getClass / getClassAt) and deployed from, never executed.
 */
import { keccak, poseidonHashMany } from '@scure/starknet';
import { shortString } from './hash.js';
import type { DeclaredClass, ExecutedTx, Felt, SierraClass, SierraEntryPoint } from './types.js';

export type { DeclaredClass, SierraClass, SierraEntryPoint } from './types.js';

const entryPointsHash = (eps: readonly SierraEntryPoint[]) => poseidonHashMany(eps.flatMap((e) => [e.selector, BigInt(e.functionIdx)]));

/**
 * The class hash of a Sierra class: Poseidon("CONTRACT_CLASS_V0.1.0", H(external), H(l1_handler),
 * H(constructor), starknet_keccak(abi text), Poseidon(sierra_program)), H = Poseidon of (selector, index) pairs.
 */
export function sierraClassHash(c: SierraClass): Felt {
  return poseidonHashMany([
    shortString(`CONTRACT_CLASS_V${c.contractClassVersion}`),
    entryPointsHash(c.entryPoints.external),
    entryPointsHash(c.entryPoints.l1Handler),
    entryPointsHash(c.entryPoints.constructor),
    keccak(new TextEncoder().encode(c.abi)),
    poseidonHashMany([...c.sierraProgram]),
  ]);
}

/** The class a DECLARE transaction declared, if `t` is one. */
export function declaredBy(t: ExecutedTx): DeclaredClass | undefined {
  return t.tx.kind === 'DECLARE' ? { classHash: t.tx.classHash, compiledClassHash: t.tx.compiledClassHash, contractClass: t.tx.contractClass } : undefined;
}

/**
 * The class with this hash in a state built from `genesis` classes and the transactions of `blocks`
 * (oldest first): undefined when it was not declared there.
 */
export function findClass(
  classHash: Felt,
  genesis: ReadonlyMap<Felt, DeclaredClass>,
  blocks: Iterable<{ readonly transactions: readonly ExecutedTx[] }>,
): DeclaredClass | undefined {
  const seeded = genesis.get(classHash);
  if (seeded !== undefined) return seeded;
  for (const b of blocks) {
    for (const t of b.transactions) {
      const d = declaredBy(t);
      if (d?.classHash === classHash) return d;
    }
  }
  return undefined;
}
