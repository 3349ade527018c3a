/**
 * Serves the explorer's page, its script and style, and two JSON documents:
 * - `/explorer/api/meta`: the networks (name, kind, chain id, the eth network a rollup settles on) and the ABIs
 *   devgate knows (the shipped contracts' artifacts and each seed's), which the page decodes inputs and logs with;
 * - `/explorer/api/gateway`: the dashboard's keys, plans, usage, refusals, outages and limits (dashboard.ts),
 *   behind the admin token.
 * Everything else the page shows it reads itself over the gateway's JSON-RPC and WebSocket, as the bare-address key,
 * through the same policy as any client. Nothing here writes: the explorer is no control surface.
 *
 * Browsers: no CORS headers (a page of another site cannot read these answers), `Cross-Origin-Resource-Policy:
 * same-origin` (nor embed them), a Host that is not this machine's is refused as the admin interface refuses it (a
 * DNS-rebound page sends its own name), and a strict Content-Security-Policy: the page loads nothing but itself and
 * talks to nothing but its own origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayContext } from '../gateway/context.js';
import { knownAbis, type KnownAbi } from './abis.js';
import { appBundle, appCss } from './bundle.js';
import { gatewayReport } from './dashboard.js';
import { EXPLORER_PATH, type ExplorerSettings } from './settings.js';
import { pageHtml } from './page.js';

const SECURITY: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

export function explorerServer(ctx: GatewayContext, settings: ExplorerSettings): (req: IncomingMessage, res: ServerResponse) => void {
  let meta: string | undefined;
  let page: string | undefined;
  const metaText = (): string => (meta ??= JSON.stringify(explorerMeta(ctx, settings, knownAbis(settings.artifactDirs))));
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!ctx.admin.allowsHost(req.headers.host)) {
      send(
        req,
        res,
        403,
        'text/plain; charset=utf-8',
        `the explorer answers only a loopback Host or the configured host, got ${JSON.stringify(req.headers.host ?? null)}\n`,
      );
      return;
    }
    if (path === `${EXPLORER_PATH}/assets/app.js`) {
      appBundle().then(
        (js) => send(req, res, 200, 'text/javascript; charset=utf-8', js, 'no-cache'),
        () => send(req, res, 500, 'text/plain; charset=utf-8', 'the explorer script could not be built\n'),
      );
      return;
    }
    if (path === `${EXPLORER_PATH}/assets/app.css`) return send(req, res, 200, 'text/css; charset=utf-8', appCss(), 'no-cache');
    if (path.startsWith(`${EXPLORER_PATH}/api/`)) {
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        return send(req, res, 403, JSON_TYPE, JSON.stringify({ error: `the explorer's data answers its own pages only (Sec-Fetch-Site: ${site})` }));
      }
      if (path === `${EXPLORER_PATH}/api/meta`) return send(req, res, 200, JSON_TYPE, metaText());
      if (path === `${EXPLORER_PATH}/api/gateway`) {
        const { status, body } = gatewayReport(ctx, req.headers);
        return send(
          req,
          res,
          status,
          JSON_TYPE,
          JSON.stringify(body),
          'no-store',
          status === 401 ? { 'WWW-Authenticate': 'Bearer realm="devgate admin"' } : {},
        );
      }
      return send(req, res, 404, JSON_TYPE, JSON.stringify({ error: `not found: ${path}` }));
    }
    send(req, res, 200, 'text/html; charset=utf-8', (page ??= pageHtml(metaText())), 'no-cache');
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  cache = 'no-store',
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, { ...SECURITY, ...extra, 'Content-Type': type, 'Cache-Control': cache, 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** What the page learns of the gateway: its networks, the bare address's, the key it reads as, the ABIs known. */
export interface ExplorerMeta {
  readonly networks: readonly { name: string; kind: string; chainId: string; l1?: string }[];
  readonly bare: string | null;
  readonly key: string;
  readonly abis: readonly KnownAbi[];
}

function explorerMeta(ctx: GatewayContext, settings: ExplorerSettings, abis: readonly KnownAbi[]): ExplorerMeta {
  const networks = [...ctx.networks.values()].map((n) => {
    const l1 = settings.l1[n.name];
    return { name: n.name, kind: n.kind, chainId: n.chainId, ...(l1 === undefined ? {} : { l1 }) };
  });
  return { networks, bare: ctx.bare ?? null, key: 'devgate', abis };
}
