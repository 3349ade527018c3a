/**
 * Issue 25, the log fan-out: a write per notification was ~75% of the fan-out's CPU (writev in a V8 profile of the
 * attack's server: the kernel's per-write work on loopback). The frames a connection is handed in one tick leave in
 * one write: the queue corks the socket at the first and uncorks it on the next tick.
 */
import { expect, it } from 'vitest';
import { SendQueue } from '../../src/gateway/sendQueue.js';

it("a tick's frames are written together: one cork, one uncork after the tick, the frames in order", async () => {
  const calls: string[] = [];
  const q = new SendQueue({
    send: (data, cb) => {
      calls.push(data);
      setImmediate(cb);
    },
    cork: () => calls.push('cork'),
    uncork: () => calls.push('uncork'),
  });
  let written = 0;
  for (let i = 0; i < 100; i++) q.send(`frame ${i}`, 7, () => written++);
  expect(calls.filter((c) => c === 'uncork')).toHaveLength(0);
  await new Promise((r) => process.nextTick(r));
  expect(calls[0]).toBe('cork');
  expect(calls.at(-1)).toBe('uncork');
  expect(calls.slice(1, -1)).toEqual(Array.from({ length: 100 }, (_, i) => `frame ${i}`));
  await new Promise((r) => setImmediate(r));
  expect(written).toBe(100);
});
