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

export async function countingProxy(target: string): Promise<CountingProxy> {
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
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
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
