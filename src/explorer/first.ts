/**
 * The first view's data, put in the page as it is served: for an overview (`/`, `/explorer`, `/explorer/<network>`)
 * the server runs the reads the page would send (web/overview.ts) through the explorer's read path (reads.ts: the
 * same policy and dispatch as the page's own requests) and the page draws from their answers without a round trip.
 * A network whose reads fail is left out: the page reads it itself and shows the error.
 */
import type { GatewayContext } from '../gateway/context.js';
import type { Caller } from '../gateway/policy/index.js';
import type { Network } from '../networkTypes.js';
import { answerRead } from './reads.js';
import type { ExplorerSettings } from './settings.js';
import { type Calls, type FirstData, headMethod, headNumber, overviewCalls, overviewOf, served } from './web/overview.js';

export async function firstData(ctx: GatewayContext, settings: ExplorerSettings, caller: Caller, path: string): Promise<FirstData> {
  const view = overviewOf(path, [...ctx.networks.keys()]);
  if (view === undefined) return {};
  const each = await Promise.all(
    view.names.map(async (name): Promise<FirstData[string] | undefined> => {
      const network = ctx.networks.get(name)!;
      const prefix = settings.prefix[name];
      const [head] = (await run(ctx, network, prefix, caller, [[headMethod(network.kind), []]])) ?? [];
      if (head?.result === undefined) return undefined;
      const calls = overviewCalls(network.kind, headNumber(head.result), view.count);
      const answers = await run(ctx, network, prefix, caller, calls);
      return answers === undefined ? undefined : { head: headNumber(head.result), calls, answers };
    }),
  );
  const data: FirstData = {};
  view.names.forEach((name, i) => {
    if (each[i] !== undefined) data[name] = each[i];
  });
  return data;
}

/**
 * The calls' answers in call order (ids 1..n), or undefined when the request as a whole was refused. The calls are
 * kept by their spec names (the page's batch() matches them so) and sent under the rollup's prefix, as the page sends them.
 */
async function run(
  ctx: GatewayContext,
  network: Network,
  prefix: string | undefined,
  caller: Caller,
  calls: Calls,
): Promise<FirstData[string]['answers'] | undefined> {
  const body = JSON.stringify(calls.map(([method, params], i) => ({ jsonrpc: '2.0', id: i + 1, method: served(method, prefix), params })));
  const { status, text } = await answerRead(ctx, network, prefix, body, caller);
  if (status !== 200) return undefined;
  const answers = JSON.parse(text) as FirstData[string]['answers'];
  return Array.isArray(answers) ? answers.sort((a, b) => a.id - b.id) : undefined;
}
