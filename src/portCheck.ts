/** Whether a TCP port is free, checked before a start builds its chains (a busy port is reported in milliseconds, not after the build). */
import { createServer } from 'node:net';

/** Resolves when `port` on `host` can be bound (then frees it); rejects with a message naming the port when it is in use. */
export function checkPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(new Error(`port ${port} on ${host} is in use (EADDRINUSE: another devgate or anvil?); pick another with --port, or 0 for a free one`));
      else if (err.code === 'EACCES') reject(new Error(`port ${port} on ${host} is not allowed for this user (EACCES); pick another with --port`));
      else reject(err);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
