/**
 * One JSON-RPC message text through policy and dispatch: the part HTTP and WebSocket share. The
 * whole batch is seen (methods and params of every call) before anything runs.
 */
import { answerChecked, checkMessage, failure, parseJson, type RpcCall, type RpcId, type RpcResponse } from '../rpc/envelope.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import type { Network } from '../network.js';
import type { CallOrigin } from '../networkTypes.js';
import { factsOf } from '../rpc/method.js';
import type { PolicyCall } from './policy/allowlist.js';
import type { Caller, Policy, Refusal } from './policy/index.js';
import { HeavySlots } from './heavy.js';
import type { GatewayLimits } from './limits.js';
import { WAITING_PLANS } from './policy/plans.js';

export type Outcome =
  | { readonly kind: 'answered'; readonly response: RpcResponse | RpcResponse[] | undefined; readonly forwarded: boolean }
  | { readonly kind: 'refused'; readonly refusal: Refusal; readonly id: RpcId };

/** Heavy-call slots per key, one set per gateway (its policy). */
const slotsOf = new WeakMap<Policy, HeavySlots>();

/**
 * Parses, checks against the policy, and runs a message. Every gate reads the facts of the network's method table:
 * allowlists (`reveals`), dev methods (`dev`: per key, and never for a web page), heavy slots (`heavy`).
 */
export async function serveText(
  text: string,
  network: Pick<Network, 'name' | 'execute' | 'methods'>,
  caller: Caller,
  policy: Policy,
  limits: Pick<GatewayLimits, 'maxBatch' | 'maxConcurrentHeavy' | 'maxQueuedHeavyBytes' | 'maxFiltersPerKey'>,
): Promise<Outcome> {
  const maxBatch = limits.maxBatch;
  const parsed = parseJson(text);
  if (!parsed.ok) return { kind: 'answered', response: parsed.response, forwarded: false };
  const message = parsed.value;
  const checked = checkMessage(message, maxBatch);
  // An empty or oversized batch is answered by the envelope alone and costs nothing.
  if (checked.kind === 'answered') return { kind: 'answered', response: checked.response, forwarded: false };
  const calls: PolicyCall[] = [];
  for (const v of checked.items) if (v.ok) calls.push(v.call);
  const methods = network.methods;
  const admission = policy.admit(caller, network.name, calls, methods);
  if (!admission.ok) {
    const id = checked.batch ? null : requestId(message);
    return { kind: 'refused', refusal: admission.refusal, id };
  }
  let slots = slotsOf.get(policy);
  if (slots === undefined) slotsOf.set(policy, (slots = new HeavySlots()));
  const limit = caller.key.maxConcurrentHeavy ?? limits.maxConcurrentHeavy;
  // A batch runs its calls one after another, so one message waits for one slot at a time: it counts its whole text.
  const wait = { bytes: text.length, maxBytes: WAITING_PLANS.has(caller.key.plan) ? limits.maxQueuedHeavyBytes : 0 };
  const origin: CallOrigin = { key: caller.key.key, maxFilters: limits.maxFiltersPerKey };
  const run = (call: RpcCall): Promise<RpcResponse> => {
    const facts = factsOf(methods, call.method);
    if (facts.dev) {
      // A key without dev methods meets them as the hosted gateway would: they do not exist. A web page never reaches them.
      if (!caller.key.devMethods) return Promise.resolve(notFound(call));
      if (caller.page !== undefined) return Promise.resolve(notForPages(call, caller.page));
    }
    return slots.run(caller.key.key, limit, call, facts.heavy === true, (c) => network.execute(c, origin), wait);
  };
  const response = await answerChecked(checked, run);
  return { kind: 'answered', response, forwarded: admission.forwarded };
}

const notFound = (call: RpcCall): RpcResponse =>
  failure(call.id ?? null, new RpcError(ErrorCode.MethodNotFound, `the method ${call.method} does not exist/is not available`));

/** A dev method asked by a web page: -32601 (it does not exist for the page), naming why. */
const notForPages = (call: RpcCall, why: string): RpcResponse =>
  failure(
    call.id ?? null,
    new RpcError(ErrorCode.MethodNotFound, `the method ${call.method} does not exist/is not available: ${why}, and dev methods answer no web page`),
  );

function requestId(message: unknown): RpcId {
  const id = message !== null && typeof message === 'object' ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
