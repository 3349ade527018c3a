/**
 * Applying one INVOKE transaction to a state: sender and nonce checks, signature validation against
 * the account's public key, the outcome (given, or derived from the calls), gas and fee.
 */
import { Point, poseidonHashMany, Signature, verify } from '@scure/starknet';
import { RollupError } from '../../errors.js';
import { balanceIn, ERC20Failure, moveBalance, TokenRun, writeStorage } from './feeToken.js';
import { feeUnit, gasConsumed, gasPriceFor, maxFeeOf } from './fees.js';
import { deployedAddress, transactionHash } from './hash.js';
import type {
  ContractState,
  ExecutedTx,
  Felt,
  GasPrices,
  InvokeTransaction,
  L1HandlerTx,
  OutcomeInput,
  RollupEvent,
  RollupState,
  RollupTransaction,
  TxOutcome,
} from './types.js';
import { bytesHex } from '../../hex.js';

/** Why a transaction could not be applied; the chain turns it into the right RollupError. */
export type FailureKind = 'not-deployed' | 'nonce' | 'validation' | 'resources' | 'balance' | 'execution' | 'class' | 'declared';

export class TransactionFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export interface ApplyOptions {
  readonly chainId: Felt;
  readonly gasPrices: GasPrices;
  readonly sequencerAddress: Felt;
  /** The fee-token contracts: fees are charged from their balances, calls to them run natively (feeToken.ts). */
  readonly feeTokens: { readonly eth: Felt; readonly strk: Felt };
  /** Check the signature against the account's public key (estimates may skip it). */
  readonly validate: boolean;
  /** Check max fee, resource bounds and balance, and charge the fee (estimates only measure it). */
  readonly charge: boolean;
  /** Whether a class is declared in the state applied to (DEPLOY_ACCOUNT needs it declared, DECLARE not yet). */
  readonly isDeclared?: (classHash: Felt) => boolean;
}

const felt = (n: bigint) => '0x' + n.toString(16);

/** The contract deployed at an address; undefined when none is (an address with only balances has none). */
export function deployedAt(state: RollupState, address: Felt): ContractState | undefined {
  const c = state.get(address);
  return c === undefined || c.deployed === false ? undefined : c;
}

/** One call of an account's multicall: `[n, (to, selector, len, ...data) * n]` (Cairo 1 accounts). */
export interface Call {
  readonly to: Felt;
  readonly selector: Felt;
  readonly calldata: readonly Felt[];
}

/** Decodes an account's `__execute__` calldata into calls, or undefined when it is not a multicall. */
export function decodeCalls(calldata: readonly Felt[]): Call[] | undefined {
  if (calldata.length === 0) return undefined;
  const n = calldata[0]!;
  const calls: Call[] = [];
  let i = 1;
  for (let k = 0n; k < n; k++) {
    if (i + 3 > calldata.length) return undefined;
    const len = Number(calldata[i + 2]!);
    if (i + 3 + len > calldata.length) return undefined;
    calls.push({ to: calldata[i]!, selector: calldata[i + 1]!, calldata: calldata.slice(i + 3, i + 3 + len) });
    i += 3 + len;
  }
  return i === calldata.length ? calls : undefined;
}

/** The outcome the simulation gives a call when the submitter gives none: one slot written, one event. */
export function derivedOutcome(calls: readonly Call[], given: OutcomeInput = {}): TxOutcome {
  return {
    storageWrites: given.storageWrites ?? calls.map((c) => ({ contractAddress: c.to, key: c.selector, value: poseidonHashMany([...c.calldata]) })),
    events: given.events ?? calls.map((c) => ({ fromAddress: c.to, keys: [c.selector], data: c.calldata })),
    messages: given.messages ?? [],
  };
}

function signatureValid(hash: Felt, signature: readonly Felt[], publicKey: Felt): boolean {
  if (signature.length !== 2) return false;
  const [r, s] = signature as [bigint, bigint];
  let sig: InstanceType<typeof Signature>;
  try {
    sig = new Signature(r, s);
  } catch {
    return false;
  }
  // A Stark key is an x coordinate; Cairo's check accepts either point with that x. Try the one that verified last first.
  const points = publicPoints(publicKey);
  for (const [i, point] of points.entries()) {
    let ok = false;
    try {
      ok = verify(sig, felt(hash), point);
    } catch {
      // out of range: invalid
    }
    if (ok) {
      if (i > 0) pointCache.set(publicKey, [point, ...points.filter((p) => p !== point)]);
      return true;
    }
  }
  return false;
}

/** The uncompressed points whose x is the key (none if it is not on the curve), by public key. */
const pointCache = new Map<Felt, string[]>();

function publicPoints(publicKey: Felt): string[] {
  let points = pointCache.get(publicKey);
  if (points === undefined) {
    const x = publicKey.toString(16).padStart(64, '0');
    points = [];
    for (const prefix of ['02', '03']) {
      try {
        points.push(Point.fromHex(prefix + x).toHex(false));
      } catch {
        // not on the curve
      }
    }
    if (pointCache.size > 10_000) pointCache.clear();
    pointCache.set(publicKey, points);
  }
  return points;
}

/** Applies an INVOKE transaction to `state` (see applyTransaction). */
export function applyInvoke(
  state: RollupState,
  tx: InvokeTransaction,
  given: OutcomeInput | undefined,
  opts: ApplyOptions,
): { state: RollupState; executed: ExecutedTx } {
  return applyTransaction(state, tx, given, opts);
}

const NO_OUTCOME: TxOutcome = { events: [], messages: [], storageWrites: [] };

/** Who pays and signs a transaction: its account (deployed, or being deployed by a DEPLOY_ACCOUNT). */
function payerOf(
  state: RollupState,
  tx: Exclude<RollupTransaction, L1HandlerTx>,
  opts: ApplyOptions,
): { address: Felt; account: ContractState; publicKey: Felt } {
  if (tx.kind === 'DEPLOY_ACCOUNT') {
    const address = deployedAddress(tx);
    if (deployedAt(state, address) !== undefined)
      throw new TransactionFailure('execution', `Requested contract address ${felt(address)} is unavailable for deployment: a contract is deployed there.`);
    if (!(opts.isDeclared?.(tx.classHash) ?? false)) throw new TransactionFailure('class', `Class with hash ${felt(tx.classHash)} is not declared.`);
    const publicKey = tx.constructorCalldata[0];
    if (publicKey === undefined)
      throw new TransactionFailure(
        'validation',
        'Account validation failed: the constructor calldata has no public key (an account constructor takes public_key first).',
      );
    if (tx.nonce !== 0n) throw new TransactionFailure('nonce', `Invalid transaction nonce. Expected: 0x0, got: ${felt(tx.nonce)}`);
    const storage = state.get(address)?.storage ?? new Map<Felt, Felt>();
    return { address, account: { classHash: tx.classHash, publicKey, nonce: 0n, storage }, publicKey };
  }
  const sender = deployedAt(state, tx.senderAddress);
  if (sender === undefined) throw new TransactionFailure('not-deployed', `Requested contract address ${felt(tx.senderAddress)} is not deployed.`);
  if (sender.publicKey === undefined) throw new TransactionFailure('validation', `Contract ${felt(tx.senderAddress)} is not an account: it has no public key.`);
  if (tx.nonce !== sender.nonce) throw new TransactionFailure('nonce', `Invalid transaction nonce. Expected: ${felt(sender.nonce)}, got: ${felt(tx.nonce)}`);
  if (tx.kind === 'DECLARE' && (opts.isDeclared?.(tx.classHash) ?? false))
    throw new TransactionFailure('declared', `Class with hash ${felt(tx.classHash)} is already declared.`);
  return { address: tx.senderAddress, account: sender, publicKey: sender.publicKey };
}

/** What an INVOKE did and, when a call failed, why it reverted (then it did nothing). */
interface Execution {
  readonly outcome: TxOutcome;
  readonly revertReason?: string;
}

const asciiHex = (s: string) => bytesHex(Buffer.from(s, 'latin1'));

/** A revert reason shaped as Starknet's: the failing call and the Cairo error (felt and text). */
function revertReason(index: number, call: Call, message: string): string {
  return (
    `Transaction execution has failed:\n${index}: Error in the called contract (contract address: ${felt(call.to)}, selector: ${felt(call.selector)}):\n` +
    `Execution failed. Failure reason: ${asciiHex(message.slice(0, 31))} ('${message}').\n`
  );
}

/**
 * What an INVOKE did: calls to a deployed fee token run natively (src/rollup/engine/feeToken.ts: balances
 * move, OZ's Transfer/Approval events), the others as the simulation derives a call (or as given). A given
 * part replaces that part for the whole transaction, except the token's balance writes, which always apply
 * (given writes come after them). DEPLOY_ACCOUNT and DECLARE emit nothing in the simulation.
 */
function executionOf(state: RollupState, tx: Exclude<RollupTransaction, L1HandlerTx>, given: OutcomeInput | undefined, opts: ApplyOptions): Execution {
  if (tx.kind === 'DEPLOY_ACCOUNT' || tx.kind === 'DECLARE') return { outcome: NO_OUTCOME };
  const calls = decodeCalls(tx.calldata);
  if (calls === undefined)
    throw new TransactionFailure(
      'execution',
      'Execution failed: calldata is not an account multicall [n_calls, (to, selector, calldata_len, ...calldata) * n_calls].',
    );
  const isToken = (c: Call) => (c.to === opts.feeTokens.eth || c.to === opts.feeTokens.strk) && deployedAt(state, c.to) !== undefined;
  const others = calls.filter((c) => !isToken(c));
  const derived = derivedOutcome(others, given);
  for (const target of [...others.map((c) => c.to), ...derived.storageWrites.map((w) => w.contractAddress)]) {
    if (deployedAt(state, target) === undefined) throw new TransactionFailure('execution', `Requested contract address ${felt(target)} is not deployed.`);
  }
  const runs = new Map<Felt, TokenRun>();
  const events: RollupEvent[] = [];
  for (const [i, c] of calls.entries()) {
    if (!isToken(c)) {
      events.push({ fromAddress: c.to, keys: [c.selector], data: c.calldata });
      continue;
    }
    const run = runs.get(c.to) ?? runs.set(c.to, new TokenRun(state, c.to)).get(c.to)!;
    const before = run.events.length;
    try {
      run.call(tx.senderAddress, c.selector, c.calldata);
    } catch (err) {
      if (err instanceof ERC20Failure) return { outcome: NO_OUTCOME, revertReason: revertReason(i, c, err.message) };
      throw err;
    }
    events.push(...run.events.slice(before));
  }
  const tokenWrites = [...runs.values()].flatMap((r) => r.writes);
  return {
    outcome: {
      events: given?.events ?? events,
      messages: derived.messages,
      storageWrites: [...tokenWrites, ...derived.storageWrites],
    },
  };
}

/**
 * Applies a transaction to `state`: its account's nonce and signature, what it did, its gas and fee
 * (checked against its bounds and the balance, and charged when `opts.charge` from the fee token's
 * balance of the payer to the sequencer's, after execution as Starknet does). A call that fails
 * (ERC20: insufficient balance, ...) reverts the transaction: it is still included, its nonce moves and
 * its fee is charged, its calls change nothing. Returns the new state (a copy) and the executed
 * transaction; throws TransactionFailure for what Starknet refuses at submission.
 */
export function applyTransaction(
  state: RollupState,
  tx: RollupTransaction,
  given: OutcomeInput | undefined,
  opts: ApplyOptions,
): { state: RollupState; executed: ExecutedTx } {
  if (tx.kind === 'L1_HANDLER') return applyL1Handler(state, tx, given, opts);
  const payer = payerOf(state, tx, opts);
  const hash = transactionHash(tx, opts.chainId);
  if (opts.validate && !signatureValid(hash, tx.signature, payer.publicKey)) {
    throw new TransactionFailure(
      'validation',
      `Account validation failed: invalid signature for transaction ${felt(hash)} and public key ${felt(payer.publicKey)}.`,
    );
  }
  let execution = executionOf(state, tx, given, opts);

  const price = gasPriceFor(tx, opts.gasPrices);
  const unit = feeUnit(tx);
  const token = unit === 'WEI' ? opts.feeTokens.eth : opts.feeTokens.strk;
  const gas = gasConsumed(tx, execution.outcome);
  const fee = gas * price;
  if (opts.charge) {
    if (tx.version === 1 && tx.maxFee < fee)
      throw new TransactionFailure('resources', `Max fee (${tx.maxFee}) is below the minimal fee (${fee}) of the transaction.`);
    if (tx.version === 3) {
      const l1 = tx.resourceBounds.l1Gas;
      if (l1.maxAmount < gas || l1.maxPricePerUnit < price) {
        throw new TransactionFailure(
          'resources',
          `Resource bounds (l1_gas max_amount ${l1.maxAmount}, max_price_per_unit ${l1.maxPricePerUnit}) do not cover ${gas} gas at ${price} fri.`,
        );
      }
    }
    const maxFee = maxFeeOf(tx);
    const balance = balanceIn(state, token, payer.address);
    if (balance < maxFee)
      throw new TransactionFailure(
        'balance',
        `Account balance (${balance} ${unit === 'WEI' ? 'wei' : 'fri'}) is smaller than the transaction's maximal fee (${maxFee}).`,
      );
  }

  const charged = opts.charge ? fee : 0n;
  const settle = (e: Execution): Map<Felt, ContractState> => {
    const next = new Map(state);
    next.set(payer.address, { ...payer.account, nonce: payer.account.nonce + 1n });
    writeStorage(next, e.outcome.storageWrites);
    if (charged > 0n) moveBalance(next, token, payer.address, opts.sequencerAddress, charged);
    return next;
  };
  let next: Map<Felt, ContractState>;
  try {
    next = settle(execution);
  } catch (err) {
    if (!(err instanceof ERC20Failure)) throw err;
    // The calls spent what the fee needed: they revert, the fee is charged from the balance before them.
    execution = { outcome: NO_OUTCOME, revertReason: `Insufficient fee token balance: the calls left less than the actual fee (${fee}).` };
    next = settle(execution);
  }
  const executed: ExecutedTx = { hash, tx, outcome: execution.outcome, gasConsumed: gas, actualFee: fee };
  return { state: next, executed: execution.revertReason === undefined ? executed : { ...executed, revertReason: execution.revertReason } };
}

/**
 * An L1 handler: the message's call on its target (deployed, else 'not-deployed'), with the outcome the
 * simulation derives for a call; its fee (gas at the L1 gas price in wei) was paid on L1 and must not
 * exceed what the message paid ('resources'). No nonce or signature, nothing charged on L2.
 */
function applyL1Handler(
  state: RollupState,
  tx: L1HandlerTx,
  given: OutcomeInput | undefined,
  opts: ApplyOptions,
): { state: RollupState; executed: ExecutedTx } {
  if (deployedAt(state, tx.contractAddress) === undefined)
    throw new TransactionFailure('not-deployed', `Requested contract address ${felt(tx.contractAddress)} is not deployed.`);
  const outcome = derivedOutcome([{ to: tx.contractAddress, selector: tx.entryPointSelector, calldata: tx.calldata }], given);
  for (const w of outcome.storageWrites) {
    if (deployedAt(state, w.contractAddress) === undefined)
      throw new TransactionFailure('execution', `Requested contract address ${felt(w.contractAddress)} is not deployed.`);
  }
  const gas = gasConsumed(tx, outcome);
  const fee = gas * gasPriceFor(tx, opts.gasPrices);
  if (opts.charge && tx.paidFeeOnL1 < fee)
    throw new TransactionFailure('resources', `The fee paid on L1 (${tx.paidFeeOnL1} wei) is below the L1 handler's fee (${fee} wei).`);
  const next = new Map(state);
  writeStorage(next, outcome.storageWrites);
  return { state: next, executed: { hash: transactionHash(tx, opts.chainId), tx, outcome, gasConsumed: gas, actualFee: fee } };
}

/** The Starknet error a submission failure is answered with. */
export function submitError(err: unknown): unknown {
  if (!(err instanceof TransactionFailure)) return err;
  switch (err.kind) {
    case 'not-deployed':
      return new RollupError(20, 'Contract not found');
    case 'nonce':
      return new RollupError(52, 'Invalid transaction nonce', err.reason);
    case 'validation':
      return new RollupError(55, 'Account validation failed', err.reason);
    case 'resources':
      return new RollupError(53, "The transaction's resources don't cover validation or the minimal transaction fee", err.reason);
    case 'balance':
      return new RollupError(54, "Account balance is smaller than the transaction's maximal fee", err.reason);
    case 'execution':
      return new RollupError(40, 'Contract error', { revert_error: err.reason });
    case 'class':
      return new RollupError(28, 'Class hash not found', err.reason);
    case 'declared':
      return new RollupError(51, 'Class already declared', err.reason);
  }
}
