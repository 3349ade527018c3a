/** start() and stop(): the handle, freeing the port, isolation of two gateways, clear errors for bad options and seeds. */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { start } from '../../src/index.js';
import { call, WsClient, closed } from '../support/http.js';

const alpha = { name: 'alpha', kind: 'eth', chainId: 1 };

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

describe('start and stop', () => {
  it('starts and stops twice in one process, freeing the port and closing WebSockets', async () => {
    for (let round = 0; round < 2; round++) {
      const gw = await start({ port: 0, chains: [alpha] });
      expect(gw.networks).toEqual([{ name: 'alpha', kind: 'eth', chainId: '1' }]);
      expect(gw.url('alpha')).toBe(`http://127.0.0.1:${gw.port}/alpha/v3/devgate`);
      expect(gw.wsUrl('alpha', 'k1')).toBe(`ws://127.0.0.1:${gw.port}/alpha/ws/v3/k1`);
      expect((await call(gw.url('alpha'), 'eth_chainId')).result).toBe('0x1');
      const ws = await WsClient.open(gw.wsUrl('alpha'));
      const wasClosed = closed(ws.socket);
      await gw.stop();
      expect(await wasClosed).not.toBe('open');
      expect(await portIsFree(gw.port)).toBe(true);
      await gw.stop(); // a second stop is harmless
    }
  });

  it('runs two gateways side by side that share nothing', async () => {
    const a = await start({ port: 0, chains: [alpha] });
    const b = await start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 7 }] });
    try {
      expect(a.port).not.toBe(b.port);
      expect((await call(a.url('alpha'), 'eth_chainId')).result).toBe('0x1');
      expect((await call(b.url('alpha'), 'eth_chainId')).result).toBe('0x7');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('rejects invalid options with a message naming the option', async () => {
    await expect(start({ port: -1, chains: [alpha] })).rejects.toThrow(/port/);
    await expect(start({ port: 0, chains: [] })).rejects.toThrow(/chains/);
    await expect(start({ port: 0, chains: [alpha], nope: 1 } as never)).rejects.toThrow(/nope/);
  });

  it('rejects an invalid seed with a message naming the field', async () => {
    await expect(start({ port: 0, chains: [{ name: 'alpha', kind: 'eth', chainId: 'one' }] })).rejects.toThrow(/chainId/);
    await expect(start({ port: 0, chains: [{ name: 'x', kind: 'nope' }] })).rejects.toThrow(/kind/);
    await expect(start({ port: 0, chains: ['/no/such/seed.json'] })).rejects.toThrow(/cannot read seed file/);
    await expect(start({ port: 0, chains: [alpha, alpha] })).rejects.toThrow(/unique/);
  });

  it('names an unknown network in url()', async () => {
    const gw = await start({ port: 0, chains: [alpha] });
    try {
      expect(() => gw.url('nope')).toThrow(/unknown network "nope"/);
    } finally {
      await gw.stop();
    }
  });

  it('rejects a port in use with the listen error and leaves nothing running', async () => {
    const a = await start({ port: 0, chains: [alpha] });
    try {
      await expect(start({ port: a.port, chains: [alpha] })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await a.stop();
    }
  });
});
