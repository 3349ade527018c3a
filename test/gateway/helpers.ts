/** Test helpers for the gateway policy: Basic auth, WebSocket upgrades with headers, refused upgrades. */
import WebSocket from 'ws';

/** The Authorization header `curl --user :SECRET` sends. */
export function basic(secret: string, user = ''): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` };
}

export const rpc = (method: string, params: unknown[] = [], id: number | string | null = 1) => ({ jsonrpc: '2.0', id, method, params });

/** Opens a WebSocket with request headers; rejects when the upgrade is refused. */
export function openWs(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Tries an upgrade that should be refused: its status, headers and body. */
export function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      reject(new Error('upgrade was accepted'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('error', () => {});
  });
}

/** Sends a message and waits for the next message (parsed). */
export function ask(ws: WebSocket, body: unknown, timeoutMs = 5000): Promise<any> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no answer')), timeoutMs);
    ws.once('message', (data) => {
      clearTimeout(t);
      resolve(JSON.parse(data.toString()));
    });
    ws.send(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** The close code of a socket (waits for it). */
export function closeCode(ws: WebSocket, timeoutMs = 5000): Promise<number> {
  if (ws.readyState === ws.CLOSED) return Promise.reject(new Error('already closed'));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('socket stayed open')), timeoutMs);
    ws.once('close', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

/** A minimal eth network seed. */
export const chain = (name: string, chainId = 1) => ({ name, kind: 'eth', chainId });
