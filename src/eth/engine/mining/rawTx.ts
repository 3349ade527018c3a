/**
 * A raw transaction as sent (eth_sendRawTransaction): the RLP of a legacy transaction, or a typed envelope
 * (0x01, 0x02, 0x04; a blob transaction 0x03 in its network form, with blobs, commitments and proofs).
 * Decoded under the rules of the next block, so a type the fork does not know is refused by name.
 *
 * Refusals carry go-ethereum's texts: malformed RLP as geth's rlp package words it (codec/gethTxShape.ts), and
 * the checks @ethereumjs makes while it builds a transaction (chain id, signature values, init code size, tip
 * above fee cap, an empty authorization list) made first here, worded as geth's txpool (core/txpool/validation.go
 * ValidateTransaction, core/types/transaction_signing.go), so no @ethereumjs text reaches a client for them.
 */
import type { Common } from '@ethereumjs/common';
import { createBlob4844TxFromSerializedNetworkWrapper, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { blobTxFields, GethDecodeError, gethTxFields } from '../codec/gethTxShape.js';
import { checkFee } from './txFeeCap.js';
import { checkSize } from './poolLimits.js';
import { TxRejected } from './txRejected.js';
import { bytesHex } from '../../../hex.js';

/** Each typed transaction's EIP, and the fork geth's pool names when it is not active yet. */
const TYPES: Record<number, { fork: string; eip: number }> = {
  1: { fork: 'Berlin', eip: 2930 },
  2: { fork: 'London', eip: 1559 },
  3: { fork: 'Cancun', eip: 4844 },
  4: { fork: 'Prague', eip: 7702 },
};

/** secp256k1's group order, and half of it (geth's crypto.ValidateSignatureValues). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const SECP256K1_HALF_N = SECP256K1_N >> 1n;

/**
 * Decodes a raw transaction for a chain at the rules of `common`; TxRejected names what is wrong. `txFeeCap` (ether,
 * 0: none) is geth's RPC fee cap, checked as geth's SubmitTransaction checks it: once the bytes decode, before any
 * other rule. `maxTxBytes` (the pool's size limit) is checked right after it, as geth's pool checks it first.
 */
export function decodeRawTransaction(raw: Uint8Array, common: Common, txFeeCap = 0, maxTxBytes?: number): TypedTransaction {
  let fields: Uint8Array[] | undefined;
  try {
    fields = gethTxFields(raw);
  } catch (err) {
    if (err instanceof GethDecodeError) throw new TxRejected(err.message);
    throw err;
  }
  const first = raw[0]!;
  fields ??= blobTxFields(raw);
  if (fields !== undefined && txFeeCap > 0) {
    const [price, gas] = first > 0x7f ? [fields[1], fields[2]] : first === 1 ? [fields[2], fields[3]] : [fields[3], fields[4]];
    checkFee(num(price), num(gas), txFeeCap);
  }
  // geth's pool checks the size next (ValidateTransaction), before the fork's types, the fields and the signature: the
  // bytes that decoded are the encoding whose size it counts (a blob transaction's network form is not: its size is
  // checked at admission).
  if (maxTxBytes !== undefined && first !== 3) checkSize(raw.length, maxTxBytes);
  if (first <= 0x7f) {
    const type = TYPES[first]!;
    if (!common.isActivatedEIP(type.eip)) throw new TxRejected(`transaction type not supported: type ${first} rejected, pool not yet in ${type.fork}`);
  }
  if (fields !== undefined) checkFields(first <= 0x7f ? first : 0, fields, common);
  try {
    if (first === 3) return createBlob4844TxFromSerializedNetworkWrapper(raw, { common });
    return serializedOnce(createTxFromRLP(raw, { common, freeze: false }));
  } catch (err) {
    throw txBuildRejected(err);
  }
}

/**
 * `tx` (made with `freeze: false`) frozen, as @ethereumjs's default freezes it, with its serialize() made once and
 * kept: a send's pool size check, its hash, the block's transaction root and the chain's store each serialize it, and
 * each RLP.encode of a token transfer allocates ~8 KB of arrays (bench/blockCost.ts heap-send).
 */
function serializedOnce(tx: TypedTransaction): TypedTransaction {
  const serialize = tx.serialize.bind(tx);
  let bytes: Uint8Array | undefined;
  tx.serialize = () => (bytes ??= serialize());
  Object.freeze(tx);
  return tx;
}

/**
 * What @ethereumjs threw while making a transaction, as geth's pool refuses it: EIP-7825's gas cap as geth's
 * ErrGasLimitTooHigh (core/txpool/validation.go ValidateTransaction), anything else `invalid transaction: ...` with
 * @ethereumjs's first clause (never its object dump). Raw sends and eth_sendTransaction / eth_signTransaction share it.
 */
export function txBuildRejected(err: unknown): TxRejected {
  const full = err instanceof Error ? err.message : String(err);
  const cap = /gas limit (\d+) exceeds the maximum allowed by EIP-7825 \((\d+)\)/.exec(full);
  if (cap !== null) return new TxRejected(`transaction gas limit too high (cap: ${cap[2]}, tx: ${cap[1]})`);
  const message = full.split(' (')[0]!.split('\n')[0]!;
  return new TxRejected(`invalid transaction: ${message}`);
}

const num = (b: Uint8Array | undefined): bigint => (b === undefined || b.length === 0 ? 0n : BigInt(bytesHex(b)));

/** Go's big.Int Div (Euclidean), for a legacy v below 35 (geth's deriveChainId). */
const divEuclid = (a: bigint, b: bigint): bigint => {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
};

/**
 * The refusals @ethereumjs would make while building the transaction, made first with geth's texts, in the order of
 * geth's ValidateTransaction: init code size, tip above fee cap, the sender (chain id, then v, r, s), and last an
 * empty authorization list. `fields` are the top-level RLP fields (a blob transaction's list items other than
 * scalars read as empty).
 */
function checkFields(type: number, fields: readonly Uint8Array[], common: Common): void {
  const at = (legacy: number, accessList: number, other: number) => fields[type === 0 ? legacy : type === 1 ? accessList : other];
  const to = at(3, 4, 5)!;
  const data = at(5, 6, 7)!;
  if (to.length === 0 && type !== 4 && common.isActivatedEIP(3860)) {
    const limit = common.param('maxInitCodeSize');
    if (BigInt(data.length) > limit) throw new TxRejected(`max initcode size exceeded: code size ${data.length} limit ${limit}`);
  }
  if (type >= 2 && num(fields[2]) > num(fields[3])) throw new TxRejected('max priority fee per gas higher than max fee per gas');
  const [v, r, s] = fields.slice(-3).map(num) as [bigint, bigint, bigint];
  const want = common.chainId();
  let plainV: bigint;
  if (type === 0) {
    const isProtected = v !== 27n && v !== 28n && v !== 0n && v !== 1n;
    if (isProtected) {
      const have = divEuclid(v - 35n, 2n);
      if (have !== want) throw new TxRejected(`invalid sender: invalid chain id for signer: have ${have} want ${want}`);
      plainV = v - want * 2n - 35n;
    } else plainV = v - 27n;
  } else {
    const have = num(fields[0]);
    if (have !== want) throw new TxRejected(`invalid sender: invalid chain id for signer: have ${have} want ${want}`);
    plainV = v;
  }
  const homestead = common.gteHardfork('homestead');
  const valid = r >= 1n && s >= 1n && r < SECP256K1_N && s < SECP256K1_N && (plainV === 0n || plainV === 1n) && !(homestead && s > SECP256K1_HALF_N);
  if (!valid) throw new TxRejected('invalid sender: invalid transaction v, r, s values');
  if (type === 4 && fields[9]!.length === 0) throw new TxRejected('set code tx must have at least one authorization tuple');
}
