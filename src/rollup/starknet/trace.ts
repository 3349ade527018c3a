/**
 * TRANSACTION_TRACE of a simulated transaction, built from what the simulation knows (devgate does not
 * run Cairo): the account's __validate__ (unless skipped), its __execute__ with one nested call per call
 * of the multicall, the events and messages of the outcome placed on the call of the contract that
 * emitted them, the constructor of a deployed account, the fee transfer to the sequencer on the fee
 * token (unless SKIP_FEE_CHARGE), the state diff and the gas. Per-call resources are not modelled: 0.
 */
import { keccak } from '@scure/starknet';
import type { RollupConfig } from '../engine/chain.js';
import { decodeCalls } from '../engine/execute.js';
import { deployedAddress } from '../engine/hash.js';
import { stateDiff } from '../engine/stateDiff.js';
import type { ExecutedTx, Felt, RollupState } from '../engine/types.js';
import { feltHex } from '../format.js';
import { formatStateDiff } from './format.js';

const selector = (name: string): Felt => keccak(new TextEncoder().encode(name));
const U128 = (1n << 128n) - 1n;

interface Invocation {
  readonly to: Felt;
  readonly selector: Felt;
  readonly calldata: readonly Felt[];
  readonly caller: Felt;
  readonly type?: 'EXTERNAL' | 'CONSTRUCTOR';
  readonly calls?: readonly Record<string, unknown>[];
  readonly events?: readonly Record<string, unknown>[];
  readonly messages?: readonly Record<string, unknown>[];
  readonly result?: readonly Felt[];
}

function invocation(state: RollupState, i: Invocation): Record<string, unknown> {
  return {
    contract_address: feltHex(i.to),
    entry_point_selector: feltHex(i.selector),
    calldata: i.calldata.map(feltHex),
    caller_address: feltHex(i.caller),
    class_hash: feltHex(state.get(i.to)?.classHash ?? 0n),
    entry_point_type: i.type ?? 'EXTERNAL',
    call_type: 'CALL',
    result: (i.result ?? []).map(feltHex),
    calls: i.calls ?? [],
    events: i.events ?? [],
    messages: i.messages ?? [],
    execution_resources: { l1_gas: 0, l2_gas: 0 },
    is_reverted: false,
  };
}

export interface TraceOptions {
  readonly validate: boolean;
  readonly charge: boolean;
}

/** The trace of `e`, simulated from `before` to `after`. */
export function formatTrace(e: ExecutedTx, before: RollupState, after: RollupState, config: RollupConfig, opts: TraceOptions): Record<string, unknown> {
  const t = e.tx;
  if (t.kind === 'L1_HANDLER') {
    const call = invocation(after, { to: t.contractAddress, selector: t.entryPointSelector, calldata: t.calldata, caller: 0n });
    return {
      type: 'L1_HANDLER',
      function_invocation: { ...call, entry_point_type: 'L1_HANDLER' },
      state_diff: formatStateDiff(stateDiff(before, after, [e])),
      execution_resources: { l1_gas: Number(e.gasConsumed), l1_data_gas: 0, l2_gas: 0 },
    };
  }
  const account = t.kind === 'DEPLOY_ACCOUNT' ? deployedAddress(t) : t.senderAddress;
  const common: Record<string, unknown> = {};
  if (opts.validate) {
    const [name, calldata] =
      t.kind === 'DEPLOY_ACCOUNT'
        ? ['__validate_deploy__', [t.classHash, t.contractAddressSalt, ...t.constructorCalldata]]
        : t.kind === 'DECLARE'
          ? ['__validate_declare__', [t.classHash]]
          : ['__validate__', t.calldata];
    common.validate_invocation = invocation(after, { to: account, selector: selector(name), calldata, caller: 0n, result: [selector('VALID')] });
  }
  if (opts.charge) {
    const token = t.version === 3 ? config.feeTokens.strk : config.feeTokens.eth;
    common.fee_transfer_invocation = invocation(after, {
      to: token,
      selector: selector('transfer'),
      calldata: [config.sequencerAddress, e.actualFee & U128, e.actualFee >> 128n],
      caller: account,
      result: [1n],
    });
  }
  common.state_diff = formatStateDiff(stateDiff(before, after, [e]));
  common.execution_resources = { l1_gas: Number(e.gasConsumed), l1_data_gas: 0, l2_gas: 0 };
  if (t.kind === 'DECLARE') return { type: 'DECLARE', ...common };
  if (t.kind === 'DEPLOY_ACCOUNT') {
    return {
      type: 'DEPLOY_ACCOUNT',
      constructor_invocation: invocation(after, {
        to: account,
        selector: selector('constructor'),
        calldata: t.constructorCalldata,
        caller: 0n,
        type: 'CONSTRUCTOR',
      }),
      ...common,
    };
  }
  // INVOKE: events and messages go on the first call to the contract that emitted them, else on __execute__.
  const calls = decodeCalls(t.calldata) ?? [];
  const own = (from: Felt) => calls.findIndex((c) => c.to === from);
  const ordered = <T extends { fromAddress: Felt }>(items: readonly T[], shape: (x: T, order: number) => Record<string, unknown>) =>
    items.map((x, order) => ({ at: own(x.fromAddress), item: shape(x, order) }));
  const events = ordered(e.outcome.events, (ev, order) => ({ order, keys: ev.keys.map(feltHex), data: ev.data.map(feltHex) }));
  const messages = ordered(e.outcome.messages, (m, order) => ({
    order,
    from_address: feltHex(m.fromAddress),
    to_address: feltHex(m.toAddress),
    payload: m.payload.map(feltHex),
  }));
  const on = (list: typeof events, at: number) => list.filter((x) => x.at === at).map((x) => x.item);
  const nested = calls.map((c, i) =>
    invocation(after, { to: c.to, selector: c.selector, calldata: c.calldata, caller: account, events: on(events, i), messages: on(messages, i) }),
  );
  const execute = invocation(after, {
    to: account,
    selector: selector('__execute__'),
    calldata: t.calldata,
    caller: 0n,
    calls: nested,
    events: on(events, -1),
    messages: on(messages, -1),
  });
  return { type: 'INVOKE', ...common, execute_invocation: e.revertReason === undefined ? execute : { revert_reason: e.revertReason } };
}
