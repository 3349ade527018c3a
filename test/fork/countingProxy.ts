/** A counting JSON-RPC proxy on 127.0.0.1 in front of an upstream: every call's method is noted (a batch notes each). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  readonly url: string;
  /** The methods called through the proxy, in order (clear it with `seen.length = 0`). */
  readonly seen: string[];
  /** HTTP requests received (a batch counts one). */
  readonly requests: () => number;
  close(): Promise<void>;
}

/** `refuse`: methods answered -32601 "method not found" here (an upstream without them), each alone or in a batch. */
export async function countingProxy(target: string, refuse: (method: string) => boolean = () => false): Promise<CountingProxy> {
  const seen: string[] = [];
  let requests = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      requests++;
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body);
      for (const c of Array.isArray(parsed) ? parsed : [parsed]) seen.push(c.method);
      const calls: { id: unknown; method: string }[] = Array.isArray(parsed) ? parsed : [parsed];
      const refused = calls
        .filter((c) => refuse(c.method))
        .map((c) => ({ jsonrpc: '2.0', id: c.id, error: { code: -32601, message: `method ${c.method} not found` } }));
      const json = { 'content-type': 'application/json' };
      if (refused.length === 0) {
        const answer = await fetch(target, { method: 'POST', headers: json, body });
        return res.writeHead(answer.status, json).end(await answer.text());
      }
      const rest = calls.filter((c) => !refuse(c.method));
      const answered = rest.length === 0 ? [] : await (await fetch(target, { method: 'POST', headers: json, body: JSON.stringify(rest) })).json();
      const all = [...refused, ...(answered as unknown[])];
      res.writeHead(200, json).end(JSON.stringify(Array.isArray(parsed) ? all : all[0]));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    requests: () => requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
