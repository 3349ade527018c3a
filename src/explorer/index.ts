/**
 * The explorer: a browser's GET of `/explorer...` (or of the bare address `/` with `Accept: text/html`) is served a
 * read-only page that reads the chains through its own read-only JSON-RPC and live stream (reads.ts, live.ts).
 * This module only decides, synchronously, whether a request is the explorer's; the serving code (serve.ts) loads
 * on the first such request, so a start that serves no page pays nothing for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayContext } from '../gateway/context.js';
import { EXPLORER_PATH, type ExplorerSettings } from './settings.js';

/** Whether a request is the explorer's: a GET or HEAD of `/explorer[/...]` or of `/` asking for HTML, a POST to its API. */
export function isExplorerRequest(method: string | undefined, url: string | undefined, accept: string | undefined): boolean {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  if (method === 'POST') return path.startsWith(`${EXPLORER_PATH}/api/`);
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path === EXPLORER_PATH || path.startsWith(`${EXPLORER_PATH}/`)) return true;
  return path === '/' && accept !== undefined && /\btext\/html\b/i.test(accept);
}

/** The gateway's explorer hook (GatewayOptions.explorer): answers true for the requests it serves. */
export function explorerHook(settings: ExplorerSettings): (ctx: GatewayContext) => (req: IncomingMessage, res: ServerResponse) => boolean {
  return (ctx) => {
    let serve: Promise<(req: IncomingMessage, res: ServerResponse) => void> | undefined;
    return (req, res) => {
      if (!isExplorerRequest(req.method, req.url, req.headers.accept)) return false;
      serve ??= import('./serve.js').then((m) => m.explorerServer(ctx, settings));
      serve.then((handle) => handle(req, res)).catch(() => res.destroy());
      return true;
    };
  };
}
