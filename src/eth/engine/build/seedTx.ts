/**
 * Seeded transactions: a seed's transaction spec becomes a signed @ethereumjs transaction (fees,
 * nonce and gas filled in as a wallet would), or a raw one is decoded. Each knows its sender from
 * then on (see withSender): a spec's from its key, a raw one's recovered once.
 */
import { createTx, createTxFromRLP, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx';
import type { Common } from '@ethereumjs/common';
import { Address, bigIntToUnpaddedBytes, generateAddress, hexToBytes, privateToPublic, type PrefixedHexString } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { TxSpec } from '../../../seed/eth.js';
import { type Artifacts, callData, deployData } from './abi.js';
import type { BlockDraft } from '../mining/draft.js';
import type { DevAccount } from '../chain/types.js';
import type { RecoveredTx } from './senders.js';

const GWEI = 1_000_000_000n;
/** Tip of seeded fee-market transactions without one (1 gwei, as wallets default). */
export const DEFAULT_PRIORITY_FEE = GWEI;

/** What building seeded transactions needs across a whole seed. */
export class SeedTxFactory {
  /** Contracts created so far, by label. */
  readonly labels = new Map<string, Address>();
  private readonly publicKeys = new Map<string, Uint8Array>();

  constructor(
    private readonly accounts: readonly DevAccount[],
    private readonly artifacts: Artifacts,
  ) {}

  /**
   * Builds the transaction of `spec` for the block `draft` is building (its base fee and state);
   * `nonceOffset` counts the sender's transactions queued ahead of it outside the state (pending pool);
   * `recovered` is what the sender worker gave of a raw transaction (senders.ts), if anything.
   */
  async build(
    spec: TxSpec,
    draft: BlockDraft,
    nonceOffset: (sender: Address) => bigint = () => 0n,
    recovered?: RecoveredTx,
  ): Promise<{ tx: TypedTransaction; sender: Address }> {
    const common = draft.vm.common;
    if (spec.raw !== undefined) return decodeRawTx(hexToBytes(spec.raw as PrefixedHexString), common, recovered);
    const account = this.sender(spec.from);
    const sender = account.address;
    const header = draft.context.header;
    const baseFee = header.baseFeePerGas;
    const london = common.gteHardfork('london');
    const type = spec.type ?? (london ? 2 : 0);
    if (type === 1 && !common.gteHardfork('berlin')) throw new Error('type: type 1 transactions need berlin or later');
    if (type === 2 && !london) throw new Error('type: type 2 transactions need london or later');
    if (type !== 2 && (spec.maxFeePerGas !== undefined || spec.maxPriorityFeePerGas !== undefined))
      throw new Error(`maxFeePerGas: not a field of type ${type} transactions`);
    if (type === 2 && spec.gasPrice !== undefined) throw new Error('gasPrice: not a field of type 2 transactions (use maxFeePerGas)');
    if (type === 0 && spec.accessList !== undefined) throw new Error('accessList: not a field of type 0 transactions');

    const to = spec.to === undefined ? undefined : this.resolveAddress(spec.to, 'to');
    const data = this.data(spec, to);
    const nonce = spec.nonce !== undefined ? BigInt(spec.nonce) : ((await draft.vm.stateManager.getAccount(sender))?.nonce ?? 0n) + nonceOffset(sender);
    const value = BigInt(spec.value ?? 0);
    const fees =
      type === 2
        ? {
            maxPriorityFeePerGas: BigInt(spec.maxPriorityFeePerGas ?? DEFAULT_PRIORITY_FEE),
            maxFeePerGas:
              spec.maxFeePerGas !== undefined ? BigInt(spec.maxFeePerGas) : 2n * (baseFee ?? 0n) + BigInt(spec.maxPriorityFeePerGas ?? DEFAULT_PRIORITY_FEE),
          }
        : { gasPrice: spec.gasPrice !== undefined ? BigInt(spec.gasPrice) : (baseFee ?? 0n) + GWEI };
    const txData: TypedTxData = {
      type,
      nonce,
      to: to?.bytes,
      value,
      data,
      ...fees,
      ...(type === 0
        ? {}
        : {
            chainId: common.chainId(),
            accessList: spec.accessList?.map((a) => ({ address: a.address as PrefixedHexString, storageKeys: a.storageKeys as PrefixedHexString[] })) ?? [],
          }),
    };
    const gasLimit = spec.gas !== undefined ? BigInt(spec.gas) : await estimateGas(draft, txData, sender);
    const tx = withSender(createTx({ ...txData, gasLimit }, { common, freeze: false }).sign(account.privateKey), this.publicKey(account), common, sender);
    if (to === undefined && spec.label !== undefined) {
      if (this.labels.has(spec.label)) throw new Error(`label: @${spec.label} is already taken`);
      this.labels.set(spec.label, new Address(generateAddress(sender.bytes, bigIntToUnpaddedBytes(nonce))));
    }
    return { tx, sender };
  }

  private sender(from: number | string | undefined): DevAccount {
    if (typeof from === 'string') {
      const found = this.accounts.find((a) => a.address.toString() === from.toLowerCase());
      if (found === undefined) throw new Error(`from: ${from} is not a dev account (its key is unknown)`);
      return found;
    }
    const account = this.accounts[from ?? 0];
    if (account === undefined) throw new Error(`from: there is no dev account ${from ?? 0} (the seed has ${this.accounts.length})`);
    return account;
  }

  private resolveAddress(value: string, field: string): Address {
    if (!value.startsWith('@')) return new Address(hexToBytes(value as PrefixedHexString));
    const found = this.labels.get(value.slice(1));
    if (found === undefined) throw new Error(`${field}: no contract labelled ${value} was created before this transaction`);
    return found;
  }

  private data(spec: TxSpec, to: Address | undefined): Uint8Array {
    const raw = spec.data === undefined ? undefined : hexToBytes(spec.data as PrefixedHexString);
    const args = (spec.args ?? []).map((a) => this.resolveArg(a));
    const artifact = spec.artifact === undefined ? undefined : this.artifacts.get(spec.artifact);
    if (spec.function !== undefined) {
      if (raw !== undefined) throw new Error('data: give either data or function, not both');
      return callData(spec.function, args, artifact);
    }
    if (to === undefined && artifact !== undefined) {
      if (raw !== undefined) throw new Error('data: give either data or artifact, not both');
      return deployData(artifact, args);
    }
    if (spec.args !== undefined) throw new Error('args: arguments need `function` or a deployed `artifact`');
    return raw ?? new Uint8Array();
  }

  /** `@label` strings in arguments become contract addresses (`@@x` is the string `@x`); arrays are walked. */
  private resolveArg(arg: unknown): unknown {
    if (typeof arg === 'string' && arg.startsWith('@@')) return arg.slice(1);
    if (typeof arg === 'string' && arg.startsWith('@')) return this.resolveAddress(arg, 'args').toString();
    if (Array.isArray(arg)) return arg.map((a) => this.resolveArg(a));
    return arg;
  }

  private publicKey(account: DevAccount): Uint8Array {
    const k = account.address.toString();
    let pub = this.publicKeys.get(k);
    if (pub === undefined) this.publicKeys.set(k, (pub = privateToPublic(account.privateKey)));
    return pub;
  }
}

/**
 * A raw signed transaction decoded, its sender recovered (throws for a bad signature, as @ethereumjs does).
 * With a hash from the sender worker, which checked that `bytes` are what the transaction serializes to,
 * the transaction's serialize() answers `bytes` and its hash is that one: building a block serializes
 * each transaction for its hash, the transaction trie and the chain image (~40 us a transaction), all
 * of them the same bytes.
 */
export function decodeRawTx(bytes: Uint8Array, common: Common, recovered?: RecoveredTx): { tx: TypedTransaction; sender: Address } {
  const tx = createTxFromRLP(bytes, { common, freeze: false });
  if (recovered?.hash !== undefined) {
    tx.cache.hash = recovered.hash;
    tx.serialize = () => bytes;
  }
  const address = recovered?.address === undefined ? undefined : new Address(recovered.address);
  return { tx: withSender(tx, recovered?.publicKey ?? tx.getSenderPublicKey(), common, address), sender: tx.getSenderAddress() };
}

/**
 * `tx` (made with `freeze: false`) frozen, as @ethereumjs freezes it, after its sender's public key
 * went into its cache and getSenderAddress was made to answer the address hashed from it once, or
 * the one given (a dev account's, or the sender worker's) (a frozen tx only gets the key):
 * @ethereumjs's hashes the key again (pure-JS keccak) on every call, and running a transaction calls it.
 */
function withSender(tx: TypedTransaction, senderPubKey: Uint8Array, common: Common, address?: Address): TypedTransaction {
  tx.cache.senderPubKey = senderPubKey;
  if (Object.isFrozen(tx)) return tx;
  const sender = address ?? new Address((common.customCrypto.keccak256 ?? keccak_256)(senderPubKey).slice(12));
  tx.getSenderAddress = () => sender;
  Object.freeze(tx);
  return tx;
}

/**
 * A gas limit for a seeded transaction without one: the transaction is run as a call in the draft's
 * state (then reverted), and gets intrinsic + execution gas with a 25% margin (exactly the intrinsic
 * gas when no code runs), never under the EIP-7623 floor nor over the block's / EIP-7825 cap.
 */
async function estimateGas(draft: BlockDraft, txData: TypedTxData, sender: Address): Promise<bigint> {
  const vm = draft.vm;
  const common = vm.common;
  const header = draft.context.header;
  let cap = header.gasLimit;
  if (common.isActivatedEIP(7825)) {
    const max = common.param('maxTransactionGasLimit');
    if (max < cap) cap = max;
  }
  const probe = createTx({ ...txData, gasLimit: cap }, { common });
  const intrinsic = probe.getIntrinsicGas();
  await vm.evm.journal.checkpoint();
  let exec: bigint;
  try {
    const result = await vm.evm.runCall({
      caller: sender,
      origin: sender,
      to: probe.to,
      value: probe.value,
      data: probe.data,
      gasLimit: cap - intrinsic,
      gasPrice: 'gasPrice' in probe ? probe.gasPrice : (header.baseFeePerGas ?? 0n) + probe.maxPriorityFeePerGas,
      block: draft.context,
    });
    exec = result.execResult.executionGasUsed;
  } finally {
    await vm.evm.journal.revert();
  }
  const noCode = exec === 0n;
  let gas = noCode ? intrinsic : ((intrinsic + exec) * 5n) / 4n;
  if (common.isActivatedEIP(7623)) {
    let tokens = 0n;
    for (const b of probe.data) tokens += b === 0 ? 1n : 4n;
    const floor = common.param('txGas') + common.param('totalCostFloorPerToken') * tokens;
    if (gas < floor) gas = floor;
  }
  return gas < cap ? gas : cap;
}
