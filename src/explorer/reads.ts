/**
 * The explorer's reads: the page's JSON-RPC (`POST /explorer/api/rpc/<network>`), its live stream (live.ts) and the
 * first view's data in the page (first.ts) run here, through the gateway's own policy and dispatch (serveText), as
 * one of two callers:
 * - a client on this machine (its TCP peer a loopback address): the explorer itself, a caller of its own named
 *   `(explorer)` (no key can be named so, no keys file lists or refuses it): no rate or daily limit, no dev methods,
 *   in no key's usage (the dashboard lists keys only). The developer reading their own chains is no client of the gateway
 *   being emulated, and their browsing never spends a test key's credits nor trips its rate limit;
 * - a client on another machine (devgate bound to another `--host`): the bare-address key `devgate` with whatever
 *   Basic secret the browser sends, as any client, so a keys file decides what it may read.
 * Either way only the methods the page reads with are served (READS): the explorer changes nothing.
 */
import type { IncomingMessage } from 'node:http';
import type { Network, NetworkConnection } from '../networkTypes.js';
import { parseJson, responseText } from '../rpc/envelope.js';
import { serveText } from '../gateway/answer.js';
import type { GatewayContext } from '../gateway/context.js';
import type { Caller } from '../gateway/policy/index.js';
import { effectiveLimits } from '../gateway/policy/plans.js';
import { refusalBody } from '../gateway/replies.js';
import { BARE_KEY } from '../gateway/route.js';
import { specName } from './web/overview.js';

/** The name the explorer's own reads are counted under: not a valid key, so no key of a keys file can be it. */
export const EXPLORER_CALLER = '(explorer)';

/** The methods the page reads with; anything else is refused before it runs. */
export const READS: ReadonlySet<string> = new Set([
  'eth_blockNumber',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'txpool_content',
  'debug_traceTransaction',
  'ots_searchTransactionsBefore',
  'starknet_blockNumber',
  'starknet_getBlockWithTxHashes',
  'starknet_getBlockWithReceipts',
  'starknet_getTransactionByHash',
  'starknet_getTransactionReceipt',
  'starknet_getTransactionStatus',
  'starknet_getNonce',
  'starknet_getClassHashAt',
]);

/** The subscriptions of the live stream (live.ts): served only on a stream's connection. */
export const SUBSCRIPTIONS: ReadonlySet<string> = new Set([
  'eth_subscribe',
  'starknet_subscribeNewHeads',
  'starknet_subscribePendingTransactions',
  'starknet_subscribeTransactionStatus',
]);

const OWN: Caller = {
  key: { key: EXPLORER_CALLER, plan: 'unlimited', requireSecret: false, limits: effectiveLimits('unlimited'), devMethods: false, listed: false },
  secretGiven: false,
  failover: false,
};

/** Whether the request's TCP peer is this machine (127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6). */
export function fromThisMachine(req: IncomingMessage): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '::1' || /^(::ffff:)?127\./.test(a);
}

/** Who the explorer reads as for this request (see above), or why it may not read (HTTP status and message). */
export function readerOf(ctx: GatewayContext, req: IncomingMessage): { caller: Caller } | { status: number; message: string } {
  if (fromThisMachine(req)) return { caller: OWN };
  const auth = ctx.policy.authenticate(BARE_KEY, req.headers.authorization);
  if (!auth.ok) {
    return { status: 401, message: `the explorer reads from another machine as the key ${JSON.stringify(BARE_KEY)}, which the keys file does not let in` };
  }
  if (ctx.policy.overDailyQuota(auth.key)) return { status: 429, message: 'daily request count exceeded, request rate limited' };
  return { caller: { ...auth, failover: false } };
}

/** The first method of a message that the explorer does not serve, if any (unparsable text is serveText's to answer). */
function refusedMethod(text: string, allowed: (method: string) => boolean): string | undefined {
  const parsed = parseJson(text);
  if (!parsed.ok) return undefined;
  const calls = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  for (const c of calls) {
    const method = (c as { method?: unknown } | null)?.method;
    if (typeof method === 'string' && !allowed(method)) return method;
  }
  return undefined;
}

/**
 * One message of the page, answered as the gateway answers it (HTTP status and JSON text); `conn`: a live stream's.
 * `prefix`: a rollup network's method prefix, under which READS and SUBSCRIPTIONS (named by their spec names) are served.
 */
export async function answerRead(
  ctx: GatewayContext,
  network: Network,
  prefix: string | undefined,
  text: string,
  caller: Caller,
  conn?: NetworkConnection,
): Promise<{ status: number; text: string }> {
  const allowed = (served: string) => {
    const m = specName(served, prefix);
    return READS.has(m) || (conn !== undefined && SUBSCRIPTIONS.has(m));
  };
  const refused = refusedMethod(text, allowed);
  if (refused !== undefined) {
    const message = `the explorer reads only; it does not serve ${JSON.stringify(refused)}${SUBSCRIPTIONS.has(specName(refused, prefix)) ? ' outside its live stream' : ''}`;
    return { status: 200, text: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32601, message } }) };
  }
  const target = conn === undefined ? network : { name: network.name, methods: network.methods, execute: conn.execute.bind(conn) };
  const outcome = await serveText(text, target, caller, ctx.policy, ctx.limits());
  if (outcome.kind === 'refused') {
    const { status, body } = refusalBody(outcome.refusal, outcome.id, 'http');
    return { status, text: JSON.stringify(body) };
  }
  const response = outcome.response;
  if (response === undefined) return { status: 204, text: '' };
  // Notifications a new subscription held back go out once its answer is on its way.
  if (conn !== undefined) setImmediate(() => conn.flush?.(response));
  return { status: 200, text: responseText(response) };
}
