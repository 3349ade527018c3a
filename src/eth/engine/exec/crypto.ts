/**
 * Native crypto for @ethereumjs's `customCrypto`: keccak-256 (the `keccak` package's prebuilt
 * binding; state trie hashing is most of block building) and secp256k1 sender recovery for @ethereumjs (`customCrypto.ecrecover`): libsecp256k1 from the
 * `secp256k1` package's bundled prebuilds, ~20x faster than the pure-JS curve. Falls back to
 * @ethereumjs's own (@noble) recovery where the native binding does not load. The secp256k1
 * binding loads on first use (~15-25 ms a start restored from the cache does not need).
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { calculateSigRecovery, ecrecover, setLengthLeft } from '@ethereumjs/util';

interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean): Uint8Array;
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array;
  privateKeyTweakAdd(privateKey: Uint8Array, tweak: Uint8Array): Uint8Array;
}

function loadNative(): NativeSecp256k1 | undefined {
  try {
    // `secp256k1/bindings` is the native build only (the package root silently falls back to JS).
    return createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return undefined;
  }
}

let loaded: NativeSecp256k1 | null | undefined;
/** The binding, loaded on first call; undefined where it does not load. */
function native(): NativeSecp256k1 | undefined {
  if (loaded === undefined) loaded = loadNative() ?? null;
  return loaded ?? undefined;
}

interface NativeKeccakState {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  absorbLastFewBits(bits: number): void;
  squeeze(length: number): Buffer;
}

function loadKeccak(): NativeKeccakState | undefined {
  try {
    const require = createRequire(import.meta.url);
    // The binding alone: the package root wraps it in streams and falls back to JS silently.
    const State = require('node-gyp-build')(dirname(require.resolve('keccak/package.json'))) as new () => NativeKeccakState;
    const state = new State();
    state.initialize(1088, 512);
    return state;
  } catch {
    return undefined;
  }
}

const keccakState = loadKeccak();

/** Native keccak-256 (one reused sponge; synchronous, so never shared mid-hash), or undefined. */
export const nativeKeccak256: ((msg: Uint8Array) => Uint8Array) | undefined =
  keccakState === undefined
    ? undefined
    : (msg) => {
        keccakState.initialize(1088, 512);
        keccakState.absorb(Buffer.from(msg.buffer, msg.byteOffset, msg.byteLength));
        keccakState.absorbLastFewBits(0x01);
        // squeeze() answers a Buffer of its own (not from Node's pool): a plain Uint8Array view of it, no copy.
        const out = keccakState.squeeze(32);
        return new Uint8Array(out.buffer, out.byteOffset, 32);
      };

/** True when sender recovery runs on the native library (loads it). */
export function nativeSecp256k1(): boolean {
  return native() !== undefined;
}

/** @ethereumjs's ecrecover contract: 64-byte public key (no 0x04 prefix); throws on a bad signature. */
export type Ecrecover = (msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint) => Uint8Array;

/** The native ecrecover (@ethereumjs's own where the binding is unavailable). */
export const nativeEcrecover: Ecrecover = (msgHash, v, r, s, chainId) => {
  const lib = native();
  if (lib === undefined) return ecrecover(msgHash, v, r, s, chainId);
  const recovery = calculateSigRecovery(v, chainId);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
  if (r.length > 32 || s.length > 32) throw new Error('Invalid signature length');
  const sig = new Uint8Array(64);
  sig.set(setLengthLeft(r, 32), 0);
  sig.set(setLengthLeft(s, 32), 32);
  return lib.ecdsaRecover(sig, Number(recovery), msgHash, false).slice(1);
};

/**
 * Native RFC 6979 signing in @ethereumjs's `customCrypto.ecsign` shape (noble's `sign`), giving the
 * same signatures as noble; options other than a deterministic, prehashed, recovered-format
 * signature (and every signature where the binding is unavailable) go to noble.
 */
export const nativeEcsign: typeof secp256k1.sign = (message, secretKey, opts) => {
  const lib = native();
  if (
    lib === undefined ||
    opts?.format !== 'recovered' ||
    opts.prehash !== false ||
    (opts.extraEntropy !== undefined && opts.extraEntropy !== false) ||
    message.length !== 32
  ) {
    return secp256k1.sign(message, secretKey, opts);
  }
  const { signature, recid } = lib.ecdsaSign(message, secretKey);
  const out = new Uint8Array(65);
  out[0] = recid;
  out.set(signature, 1);
  return out;
};

/** Native secp256k1 key operations for BIP-32 derivation, or undefined when the binding is unavailable. */
export interface NativeKeys {
  /** The public key of a private key: 33 bytes compressed, or 65 uncompressed. */
  publicKey(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  /** (privateKey + tweak) mod n, as a new array; throws when the result is invalid. */
  addPrivate(privateKey: Uint8Array, tweak: Uint8Array): Uint8Array;
}

/** The native key operations (loads the binding), or undefined when it is unavailable. */
export function nativeKeys(): NativeKeys | undefined {
  const lib = native();
  if (lib === undefined) return undefined;
  return {
    publicKey: (privateKey, compressed) => lib.publicKeyCreate(privateKey, compressed),
    addPrivate: (privateKey, tweak) => lib.privateKeyTweakAdd(Uint8Array.from(privateKey), tweak),
  };
}
