/**
 * Starknet hashes: transaction hashes exactly as Starknet computes them (so clients can recompute
 * them), and devgate's block hash and state commitment (Poseidon, modeled on Starknet 0.13.2).
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { computeHashOnElements, poseidonHashMany } from '@scure/starknet';
import {
  QUERY_VERSION_OFFSET,
  type ContractState,
  type DeclareV3,
  type DeployAccountV3,
  type ExecutedTx,
  type Felt,
  type GasPrices,
  type InvokeTransaction,
  type InvokeV3,
  type L1HandlerTx,
  type ResourceBound,
  type RollupState,
  type RollupTransaction,
} from './types.js';
import { bytesHex } from '../../hex.js';

export { QUERY_VERSION_OFFSET };

/** A Cairo short string (at most 31 ASCII characters) as a felt. */
export function shortString(s: string): Felt {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a short string is any 7-bit ASCII, control characters included
  if (s.length > 31 || !/^[\x00-\x7f]*$/.test(s)) throw new RangeError(`not a short string: ${JSON.stringify(s)}`);
  let n = 0n;
  for (const ch of s) n = (n << 8n) | BigInt(ch.charCodeAt(0));
  return n;
}

const INVOKE = shortString('invoke');
const DEPLOY_ACCOUNT = shortString('deploy_account');
const DECLARE = shortString('declare');
const L1_HANDLER = shortString('l1_handler');
const CONTRACT_ADDRESS = shortString('STARKNET_CONTRACT_ADDRESS');
/** Contract addresses are below 2^251 - 256. */
const ADDRESS_BOUND = (1n << 251n) - 256n;
const L1_GAS = shortString('L1_GAS');
const L2_GAS = shortString('L2_GAS');
const L1_DATA = shortString('L1_DATA');

const pedersenHash = (values: readonly bigint[]): Felt => BigInt(computeHashOnElements([...values]) as string | bigint);

/** The version felt a transaction is hashed with. */
export function versionFelt(tx: RollupTransaction): Felt {
  return BigInt(tx.version) + (tx.query ? QUERY_VERSION_OFFSET : 0n);
}

function boundFelt(name: Felt, b: ResourceBound): Felt {
  return (name << 192n) + (b.maxAmount << 128n) + b.maxPricePerUnit;
}

const daMode = (m: 'L1' | 'L2'): bigint => (m === 'L1' ? 0n : 1n);

/** The fee fields of a v3 hash: Poseidon(tip, L1_GAS bound, L2_GAS bound[, L1_DATA bound]). */
function feeFieldsHash(tx: InvokeV3 | DeployAccountV3 | DeclareV3): Felt {
  const rb = tx.resourceBounds;
  const bounds = [boundFelt(L1_GAS, rb.l1Gas), boundFelt(L2_GAS, rb.l2Gas)];
  if (rb.l1DataGas !== undefined) bounds.push(boundFelt(L1_DATA, rb.l1DataGas));
  return poseidonHashMany([tx.tip, ...bounds]);
}

const daModes = (tx: InvokeV3 | DeployAccountV3 | DeclareV3): Felt => (daMode(tx.nonceDataAvailabilityMode) << 32n) + daMode(tx.feeDataAvailabilityMode);

/** An INVOKE transaction's hash: Pedersen for v1, Poseidon for v3, over Starknet's fields. */
export function invokeTransactionHash(tx: InvokeTransaction, chainId: Felt): Felt {
  if (tx.version === 1) {
    return pedersenHash([INVOKE, versionFelt(tx), tx.senderAddress, 0n, pedersenHash(tx.calldata), tx.maxFee, chainId, tx.nonce]);
  }
  return poseidonHashMany([
    INVOKE,
    versionFelt(tx),
    tx.senderAddress,
    feeFieldsHash(tx),
    poseidonHashMany([...tx.paymasterData]),
    chainId,
    tx.nonce,
    daModes(tx),
    poseidonHashMany([...tx.accountDeploymentData]),
    poseidonHashMany([...tx.calldata]),
  ]);
}

/** The address a contract deployed by `deployer` (0 for DEPLOY_ACCOUNT) gets, as Starknet computes it. */
export function contractAddress(salt: Felt, classHash: Felt, constructorCalldata: readonly Felt[], deployer = 0n): Felt {
  return pedersenHash([CONTRACT_ADDRESS, deployer, salt, classHash, pedersenHash(constructorCalldata)]) % ADDRESS_BOUND;
}

/** The account a DEPLOY_ACCOUNT transaction deploys. */
export const deployedAddress = (tx: DeployAccountV3): Felt => contractAddress(tx.contractAddressSalt, tx.classHash, tx.constructorCalldata);

/** A transaction's hash, by kind: INVOKE, DEPLOY_ACCOUNT v3 and DECLARE v3 as Starknet computes them. */
export function transactionHash(tx: RollupTransaction, chainId: Felt): Felt {
  if (tx.kind === 'DEPLOY_ACCOUNT') {
    return poseidonHashMany([
      DEPLOY_ACCOUNT,
      versionFelt(tx),
      deployedAddress(tx),
      feeFieldsHash(tx),
      poseidonHashMany([...tx.paymasterData]),
      chainId,
      tx.nonce,
      daModes(tx),
      poseidonHashMany([...tx.constructorCalldata]),
      tx.classHash,
      tx.contractAddressSalt,
    ]);
  }
  if (tx.kind === 'DECLARE') {
    return poseidonHashMany([
      DECLARE,
      versionFelt(tx),
      tx.senderAddress,
      feeFieldsHash(tx),
      poseidonHashMany([...tx.paymasterData]),
      chainId,
      tx.nonce,
      daModes(tx),
      poseidonHashMany([...tx.accountDeploymentData]),
      tx.classHash,
      tx.compiledClassHash,
    ]);
  }
  if (tx.kind === 'L1_HANDLER') {
    return pedersenHash([L1_HANDLER, 0n, tx.contractAddress, tx.entryPointSelector, pedersenHash(tx.calldata), 0n, chainId, tx.nonce]);
  }
  return invokeTransactionHash(tx, chainId);
}

/**
 * The hash of an L1 -> L2 message as the Starknet core contract computes it: keccak256 of the 32-byte
 * words from_address, to_address, nonce, selector, payload length, payload.
 */
export function l1ToL2MessageHash(tx: L1HandlerTx): bigint {
  const [from = 0n, ...payload] = tx.calldata;
  const words = [from, tx.contractAddress, tx.nonce, tx.entryPointSelector, BigInt(payload.length), ...payload];
  const bytes = new Uint8Array(32 * words.length);
  words.forEach((w, i) => {
    for (let b = 0; b < 32; b++) bytes[32 * i + b] = Number((w >> BigInt(8 * (31 - b))) & 0xffn);
  });
  return BigInt(bytesHex(keccak_256(bytes)));
}

const STATE_V0 = shortString('STARKNET_STATE_V0');
const BLOCK_HASH_0 = shortString('STARKNET_BLOCK_HASH0');
const GAS_PRICES_0 = shortString('STARKNET_GAS_PRICES0');
/** Poseidon of the empty list: the commitment of an empty block's lists, computed once. */
let emptyHash: bigint | undefined;
const commit = (values: bigint[]): Felt => (values.length > 0 ? poseidonHashMany(values) : (emptyHash ??= poseidonHashMany([])));
const gasPriceHashes = new Map<string, Felt>();
function gasPricesHash(p: GasPrices): Felt {
  const key = `${p.wei}:${p.fri}`;
  let h = gasPriceHashes.get(key);
  if (h === undefined) gasPriceHashes.set(key, (h = poseidonHashMany([GAS_PRICES_0, p.wei, p.fri])));
  return h;
}

/**
 * The state commitment: Poseidon over a prefix and one leaf per contract, in address order; a
 * leaf is Poseidon(address, class hash, nonce, public key, storage root) (fee-token balances are the tokens' storage),
 * the storage root Poseidon over the (key, value) pairs in key order.
 */
export function stateCommitment(state: RollupState): Felt {
  const leaves = [...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([address, c]) => contractLeaf(address, c));
  return poseidonHashMany([STATE_V0, ...leaves]);
}

/** Leaves by contract object: states share unchanged contracts, so each is hashed once. */
const leafCache = new WeakMap<ContractState, { address: Felt; leaf: Felt }>();

function contractLeaf(address: Felt, c: ContractState): Felt {
  const cached = leafCache.get(c);
  if (cached !== undefined && cached.address === address) return cached.leaf;
  const slots = [...c.storage.entries()].filter(([, v]) => v !== 0n).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const leaf = poseidonHashMany([address, c.classHash, c.nonce, c.publicKey ?? 0n, commit(slots.flat())]);
  leafCache.set(c, { address, leaf });
  return leaf;
}

/** Fields of a block that its hash covers. */
export interface BlockHeaderFields {
  readonly number: bigint;
  readonly newRoot: Felt;
  readonly sequencerAddress: Felt;
  readonly timestamp: bigint;
  readonly gasPrices: GasPrices;
  readonly starknetVersion: string;
  readonly parentHash: Felt;
  readonly transactions: readonly ExecutedTx[];
}

/**
 * The block hash: Poseidon over the fields of Starknet 0.13.2's block hash (number, state root,
 * sequencer, timestamp, counts, state-diff, transaction, event and receipt commitments, gas prices,
 * version, parent hash), each commitment a Poseidon hash of the block's own data.
 */
export function blockHash(h: BlockHeaderFields): Felt {
  const txs = h.transactions;
  const events = txs.flatMap((t) =>
    t.outcome.events.map((e) => poseidonHashMany([e.fromAddress, t.hash, BigInt(e.keys.length), ...e.keys, BigInt(e.data.length), ...e.data])),
  );
  const writes = txs.flatMap((t) => t.outcome.storageWrites.flatMap((w) => [w.contractAddress, w.key, w.value]));
  const receipts = txs.map((t) => {
    const messages = t.outcome.messages.flatMap((m) => [m.fromAddress, m.toAddress, BigInt(m.payload.length), ...m.payload]);
    return poseidonHashMany([t.hash, t.actualFee, poseidonHashMany(messages), t.gasConsumed]);
  });
  const counts = (BigInt(txs.length) << 192n) + (BigInt(events.length) << 128n) + (BigInt(writes.length / 3) << 64n);
  return poseidonHashMany([
    BLOCK_HASH_0,
    h.number,
    h.newRoot,
    h.sequencerAddress,
    h.timestamp,
    counts,
    commit(writes),
    commit(txs.flatMap((t) => [t.hash, ...t.tx.signature])),
    commit(events),
    commit(receipts),
    gasPricesHash(h.gasPrices),
    shortString(h.starknetVersion),
    0n,
    h.parentHash,
  ]);
}
