/**
 * Serves the explorer's page (with the first view's data in it, first.ts), its script and style (named by digest,
 * kept by the browser), and its API under `/explorer/api/`:
 * - `meta`: the networks (name, kind, chain id, the eth network a rollup settles on) and the ABIs devgate knows (the
 *   shipped contracts' artifacts, each seed's and those a seed names by path), which the page decodes inputs and logs
 *   with (also in the page);
 * - `rpc/<network>`: the page's JSON-RPC, read methods only, as reads.ts says who; `live`: its live stream (live.ts);
 * - `l1/<network>/<number>`: the eth block that accepted a rollup block on L1, where the seed ties them;
 * - `gateway`: the dashboard's keys, plans, usage, refusals, outages and limits (dashboard.ts), behind the admin token.
 * Nothing here writes: the explorer is no control surface.
 *
 * Browsers: no CORS headers (a page of another site cannot read these answers), `Cross-Origin-Resource-Policy:
 * same-origin` (nor embed them), a Host that is not this machine's is refused as the admin interface refuses it (a
 * DNS-rebound page sends its own name), `Sec-Fetch-Site` of another site refused on the API, a JSON body required of
 * the JSON-RPC (no form of another site can send one without a preflight, never answered), and a strict
 * Content-Security-Policy: the page loads nothing but itself and talks to nothing but its own origin.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayContext } from '../gateway/context.js';
import type { RollupChain } from '../rollup/engine/chain.js';
import { knownAbis, type KnownAbi } from './abis.js';
import { appBundle, appCss } from './bundle.js';
import { gatewayReport } from './dashboard.js';
import { firstData } from './first.js';
import { LiveStreams } from './live.js';
import { pageHtml } from './page.js';
import { answerRead, readerOf } from './reads.js';
import { EXPLORER_PATH, type ExplorerSettings, SECURITY } from './settings.js';

/** Script and style are named by their content's digest and kept by the browser for a year: a warm load fetches neither. */
interface Assets {
  readonly js: string;
  readonly css: string;
  readonly jsPath: string;
  readonly cssPath: string;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function explorerServer(ctx: GatewayContext, settings: ExplorerSettings): (req: IncomingMessage, res: ServerResponse) => void {
  let meta: string | undefined;
  let assets: Promise<Assets> | undefined;
  const live = new LiveStreams(ctx, settings.prefix);
  const metaText = (): string => (meta ??= JSON.stringify(explorerMeta(ctx, settings, knownAbis(settings.artifacts(), settings.given))));
  const loadAssets = (): Promise<Assets> => {
    assets ??= appBundle().then((js) => {
      const css = appCss();
      return { js, css, jsPath: `${EXPLORER_PATH}/assets/app-${digest(js)}.js`, cssPath: `${EXPLORER_PATH}/assets/app-${digest(css)}.css` };
    });
    assets.catch(() => (assets = undefined));
    return assets;
  };
  const failed = (req: IncomingMessage, res: ServerResponse) => () =>
    send(req, res, 500, 'text/plain; charset=utf-8', 'the explorer script could not be built\n');
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
    if (path.startsWith(`${EXPLORER_PATH}/assets/`)) {
      loadAssets().then(
        (a) => {
          // The unnamed paths (`app.js`, `app.css`) answer too, revalidated each time.
          if (path === a.jsPath || path === `${EXPLORER_PATH}/assets/app.js`)
            return send(req, res, 200, 'text/javascript; charset=utf-8', a.js, path === a.jsPath ? IMMUTABLE : 'no-cache');
          if (path === a.cssPath || path === `${EXPLORER_PATH}/assets/app.css`)
            return send(req, res, 200, 'text/css; charset=utf-8', a.css, path === a.cssPath ? IMMUTABLE : 'no-cache');
          send(req, res, 404, 'text/plain; charset=utf-8', `not found: ${path}\n`);
        },
        failed(req, res),
      );
      return;
    }
    if (path.startsWith(`${EXPLORER_PATH}/api/`)) {
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        return send(req, res, 403, JSON_TYPE, JSON.stringify({ error: `the explorer's data answers its own pages only (Sec-Fetch-Site: ${site})` }));
      }
      if (path.startsWith(`${EXPLORER_PATH}/api/rpc/`))
        return void rpc(req, res, path.slice(`${EXPLORER_PATH}/api/rpc/`.length), q < 0 ? '' : url.slice(q + 1));
      if (req.method === 'POST') return send(req, res, 405, JSON_TYPE, JSON.stringify({ error: `${path} answers GET only` }));
      if (path === `${EXPLORER_PATH}/api/meta`) return send(req, res, 200, JSON_TYPE, metaText());
      if (path === `${EXPLORER_PATH}/api/live`) {
        const reader = readerOf(ctx, req);
        if ('status' in reader) return send(req, res, reader.status, JSON_TYPE, JSON.stringify({ error: reader.message }));
        return live.open(req, res, reader.caller);
      }
      if (path.startsWith(`${EXPLORER_PATH}/api/l1/`)) {
        const { status, body } = l1Link(ctx, settings, path.slice(`${EXPLORER_PATH}/api/l1/`.length));
        return send(req, res, status, JSON_TYPE, JSON.stringify(body));
      }
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
    void page(req, res, path).catch(failed(req, res));
  };

  /** The page, with the first view's data in it when the path is an overview (first.ts). */
  async function page(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const reader = readerOf(ctx, req);
    const [a, first] = await Promise.all([loadAssets(), 'caller' in reader && req.method === 'GET' ? firstData(ctx, settings, reader.caller, path) : {}]);
    send(req, res, 200, 'text/html; charset=utf-8', pageHtml(metaText(), JSON.stringify(first), a.jsPath, a.cssPath), 'no-store');
  }

  /** `POST /explorer/api/rpc/<network>[?stream=<id>]`: a message of the page, read as reads.ts says. */
  async function rpc(req: IncomingMessage, res: ServerResponse, name: string, query: string): Promise<void> {
    if (req.method !== 'POST') return send(req, res, 405, JSON_TYPE, JSON.stringify({ error: "the explorer's JSON-RPC takes POST" }));
    // A JSON body: a form of another site (text/plain, no preflight) cannot send one.
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return send(req, res, 415, JSON_TYPE, JSON.stringify({ error: "the explorer's JSON-RPC takes Content-Type: application/json" }));
    }
    const network = ctx.networks.get(decodeURIComponent(name));
    if (network === undefined) {
      return send(req, res, 404, JSON_TYPE, JSON.stringify({ error: `no network ${JSON.stringify(name)}; networks: ${[...ctx.networks.keys()].join(', ')}` }));
    }
    const reader = readerOf(ctx, req);
    if ('status' in reader) return send(req, res, reader.status, JSON_TYPE, JSON.stringify({ error: reader.message }));
    const text = await readBody(req, ctx.limits().maxBodyBytes);
    if (text === undefined) return send(req, res, 413, JSON_TYPE, JSON.stringify({ error: `body over ${ctx.limits().maxBodyBytes} bytes` }));
    const stream = new URLSearchParams(query).get('stream');
    const answer =
      stream === null
        ? await answerRead(ctx, network, settings.prefix[network.name], text, reader.caller)
        : await live.call(stream, network, text, reader.caller);
    send(req, res, answer.status, JSON_TYPE, answer.text);
  }
}

/** A request's body as text, or undefined once it passes `max` bytes (the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.resume();
        return resolve(undefined);
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * `GET /explorer/api/l1/<rollup network>/<block number>`: the eth block that accepted the rollup block on L1, where
 * the seed ties them (`l1Acceptance: { kind: 'blocks', network }`); `block` null when none did (yet).
 */
function l1Link(ctx: GatewayContext, settings: ExplorerSettings, rest: string): { status: number; body: object } {
  const [name = '', number = ''] = rest.split('/');
  const network = ctx.networks.get(name);
  if (network?.kind !== 'rollup') return { status: 404, body: { error: `no rollup network ${JSON.stringify(name)}` } };
  if (!/^\d{1,15}$/.test(number)) return { status: 400, body: { error: `a block number is decimal digits, got ${JSON.stringify(number)}` } };
  const l1 = settings.l1[name];
  if (l1 === undefined) return { status: 200, body: { l1: null, block: null } };
  const block = (network.engine as RollupChain).l1AcceptedBy(BigInt(number));
  return { status: 200, body: { l1, block: block === undefined ? null : Number(block) } };
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

/** What the page learns of the gateway: its networks, the bare address's, the ABIs known. */
export interface ExplorerMeta {
  readonly networks: readonly { name: string; kind: string; chainId: string; l1?: string; prefix?: string }[];
  readonly bare: string | null;
  readonly abis: readonly KnownAbi[];
}

function explorerMeta(ctx: GatewayContext, settings: ExplorerSettings, abis: readonly KnownAbi[]): ExplorerMeta {
  const networks = [...ctx.networks.values()].map((n) => {
    const l1 = settings.l1[n.name];
    const prefix = settings.prefix[n.name];
    return { name: n.name, kind: n.kind, chainId: n.chainId, ...(l1 === undefined ? {} : { l1 }), ...(prefix === undefined ? {} : { prefix }) };
  });
  return { networks, bare: ctx.bare ?? null, abis };
}
