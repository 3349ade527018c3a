/**
 * Which failures reach devgate's stderr: a bug (an unexpected throw) is reported with its stack, so it is seen; a
 * domain error that answers -32603 on purpose (eth_simulateV1's geth "method handler crashed") is not, as no other
 * domain error is. The client gets the same answer either way, without a stack.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulationError } from '../../src/errors.js';
import { MethodTable } from '../../src/rpc/dispatch.js';
import { defineMethod } from '../../src/rpc/method.js';

const table = new MethodTable<null>([
  defineMethod({
    name: 'bug',
    params: [],
    handler: () => {
      throw new TypeError('x is undefined');
    },
  }),
  defineMethod({
    name: 'crashed',
    params: [],
    handler: async () => {
      throw new SimulationError(-32603, 'method handler crashed');
    },
  }),
]);

afterEach(() => vi.restoreAllMocks());

describe('internal error reports', () => {
  it('a bug goes to stderr with its stack; the client gets -32603 "internal error" only', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await table.execute(null, { id: 1, method: 'bug', params: [] });
    expect(res).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'internal error' } });
    expect(stderr).toHaveBeenCalledTimes(1);
    expect(String(stderr.mock.calls[0]![0])).toContain('TypeError: x is undefined');
  });

  it('a deliberate -32603 of a domain error is answered and not reported', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await table.execute(null, { id: 2, method: 'crashed', params: [] });
    expect(res).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'method handler crashed' } });
    expect(stderr).not.toHaveBeenCalled();
  });
});
