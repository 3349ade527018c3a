/** The fork-crossing chain's blobs (scripts/make-fork-chain.ts): texts encoded as blobs, real KZG commitments and proofs. */
import { readFileSync } from 'node:fs';
import { bytesToHex, computeVersionedHash, type PrefixedHexString, utf8ToBytes } from '@ethereumjs/util';
import { realKzg } from '../../src/eth/engine/exec/kzg.js';
export interface BlobRecord {
  text: string;
  commitment: string;
  proof: string;
  versionedHash: string;
}
export const blobRecords: BlobRecord[] = [];

/** A blob holding `text`: 31 bytes per field element, each element's top byte zero (so below the modulus). */
export function textToBlob(text: string): PrefixedHexString {
  const data = utf8ToBytes(text);
  const blob = new Uint8Array(4096 * 32);
  for (let i = 0; i * 31 < data.length; i++) blob.set(data.subarray(i * 31, (i + 1) * 31), i * 32 + 1);
  return bytesToHex(blob);
}

/** `count` fresh blobs, each encoding a short text; their versioned hashes from real KZG commitments. */
export function makeBlobs(count: number): PrefixedHexString[] {
  const kzg = realKzg();
  const hashes: PrefixedHexString[] = [];
  for (let i = 0; i < count; i++) {
    const text = `devgate fork chain blob #${blobRecords.length}: ${'the quick brown fox jumps over the lazy dog '.repeat(1 + (blobRecords.length % 3))}`;
    const commitment = kzg.blobToKzgCommitment(textToBlob(text)) as PrefixedHexString;
    const versionedHash = computeVersionedHash(commitment, 1);
    blobRecords.push({ text, commitment, proof: '', versionedHash });
    hashes.push(versionedHash);
  }
  return hashes;
}

/**
 * The KZG proof of every blob (reusing those of an earlier run's blobs.json for identical blobs:
 * a proof takes ~2 s in pure JS), then one batch verification of all of them.
 */
export function proveBlobs(out: string): void {
  const kzg = realKzg();
  let earlier: BlobRecord[] = [];
  try {
    earlier = JSON.parse(readFileSync(`${out}blobs.json`, 'utf8')) as BlobRecord[];
  } catch {
    // first run
  }
  const known = new Map(earlier.map((r) => [`${r.text}|${r.commitment}`, r.proof]));
  for (const r of blobRecords) r.proof = known.get(`${r.text}|${r.commitment}`) ?? kzg.computeBlobProof(textToBlob(r.text), r.commitment);
  const ok = kzg.verifyBlobProofBatch(
    blobRecords.map((r) => textToBlob(r.text)),
    blobRecords.map((r) => r.commitment),
    blobRecords.map((r) => r.proof),
  );
  if (!ok) throw new Error('the KZG proofs of the blobs do not verify');
}
