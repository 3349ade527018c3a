/**
 * Issue 25, slow readers: a WebSocket peer that never reads must not leave thousands of frames in its socket's write
 * buffer. Node writes a socket's whole buffer in one turn when the peer reads again (one writev of them all), and
 * fails each with an error object when the socket is destroyed: with 48 such peers those turns stalled every network
 * (probe p99 160-800 ms). The gateway hands frames to the socket at most SEND_IN_FLIGHT bytes at a time; the rest wait
 * as texts and follow a slice per turn.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { start, type Gateway } from '../../src/index.js';
import { SEND_IN_FLIGHT } from '../../src/gateway/sendQueue.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 5, accounts: { count: 0 } }], dev: {}, bare: 'dev' });
});
afterAll(() => gw.stop());

/** The gateway's end of a client connection (same process): the socket whose peer is the client's local port. */
function serverSocketOf(client: WebSocket): Socket {
  const port = (client as unknown as { _socket: Socket })._socket.localPort;
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  const found = handles.find((h): h is Socket => (h as Socket)?.remotePort === port && (h as Socket).localPort !== port);
  if (found === undefined) throw new Error('server socket not found');
  return found;
}

it('a peer that never reads holds at most SEND_IN_FLIGHT bytes (and one frame) in its socket, however much is sent', async () => {
  const ws = new WebSocket(gw.wsUrl('dev'));
  await new Promise((r) => ws.once('open', r));
  ws.on('error', () => {});
  // 500 newHeads subscriptions on one connection: every block is ~350 KB of notifications.
  const subs = 500;
  let answered = 0;
  const ready = new Promise<void>((resolve) =>
    ws.on('message', () => {
      if (++answered === subs) resolve();
    }),
  );
  for (let i = 0; i < subs; i++) ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['newHeads'] }));
  await ready;
  ws.pause();
  const server = serverSocketOf(ws);
  // 60 blocks: ~20 MB of notifications, past what the kernel's loopback buffers take, under the budgets of unsent bytes.
  await gw.provider('dev').request({ method: 'anvil_mine', params: ['0x3c'] });
  // The notifications go out a slice per turn: the socket's buffer is looked at after each turn while they are made.
  let most = 0;
  for (let turn = 0; turn < 3000 && most < 1024 * 1024; turn++) {
    await new Promise((r) => setImmediate(r));
    most = Math.max(most, server.writableLength);
  }
  // The kernel's buffers filled (something waited in the socket), and never more than a slice did.
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThan(SEND_IN_FLIGHT + 4096);
  ws.terminate();
}, 60_000);
