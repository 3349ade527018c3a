/**
 * The gateway dashboard's data: keys and plans (secrets never, as listKeys shows them), usage per key and per
 * method, refusals (429s and the rest), outages, limits and connections. It is the admin interface's to show, so
 * it needs the admin token, as `/admin` does (admin/guard.ts: token, Host).
 *
 * `/admin` refuses every request with an Origin header; this read-only view is how the explorer's own page reaches
 * the same facts without weakening that rule. It is a GET that a page of another site cannot read: no CORS headers,
 * an Origin (when the browser sends one) must be this very origin (`http://<Host>`), `Sec-Fetch-Site` must be
 * `same-origin` or `none` (serve.ts), and the token goes in an `Authorization` header, which no cross-origin request
 * can carry without a preflight that the explorer never answers. It calls the read operations of the control only.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayContext } from '../gateway/context.js';

export function gatewayReport(ctx: GatewayContext, headers: IncomingHttpHeaders): { status: number; body: object } {
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${headers.host}`) {
    return { status: 403, body: { error: `the gateway dashboard answers the explorer's own page only, not the origin ${JSON.stringify(origin)}` } };
  }
  const { origin: _origin, ...rest } = headers;
  const refusal = ctx.admin.check(rest);
  if (refusal !== undefined) return { status: refusal.status, body: { error: refusal.message } };
  const control = ctx.control;
  return {
    status: 200,
    body: {
      at: Date.now(),
      keys: control.listKeys(),
      usage: control.getUsage(),
      outages: control.listOutages(),
      limits: control.getLimits(),
      connections: control.connections(),
    },
  };
}
