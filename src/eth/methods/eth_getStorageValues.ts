import { Address } from '@ethereumjs/util';
import { InvalidArgument } from '../../errors.js';
import { defineMethod, optional, required } from '../../rpc/method.js';
import { RpcError } from '../../rpc/errors.js';
import { blockNumberOrHash } from '../../rpc/params.js';
import type { EthContext } from '../context.js';
import { MAX_STORAGE_SLOTS, storageRequests } from '../gethParams.js';
import { stateBlock } from '../params.js';
import { wordHex } from './eth_getStorageAt.js';
import { storageValuesReveals } from './reveals.js';

/** Storage reads between two turns of the event loop (1024 slots in one go held eth_blockNumber back by ~14 ms p50 at load 23). */
const YIELD_EVERY = 64;

/** geth's error code for a request over a client limit (errCodeClientLimitExceeded). */
const CLIENT_LIMIT_EXCEEDED = -38026;

/**
 * eth_getStorageValues: the 32-byte values of many storage slots of many addresses at one block, in one read (as
 * geth): `{address: [slot, ...]}` in, `{address: [value, ...]}` out (addresses lowercase, in order, as geth's map;
 * values in the order asked). Slots are 32-byte hashes; at most 1024 in all (-38026 `too many slots (max 1024)`);
 * none is -32602 `empty request`. The block defaults to latest.
 * @example {"jsonrpc":"2.0","id":1,"method":"eth_getStorageValues","params":[{"0x7dcd17433742f4c0ca53122ab541d0ba67fc27df":["0x0000000000000000000000000000000000000000000000000000000000000000"]},"latest"]}
 */
export const eth_getStorageValues = defineMethod({
  name: 'eth_getStorageValues',
  facts: { heavy: true, reveals: storageValuesReveals },
  params: [required('requests', storageRequests), optional('block', blockNumberOrHash)],
  handler: async (ctx: EthContext, requests, sel) => {
    let total = 0;
    for (const { slots } of requests.values()) {
      total += slots.length;
      if (total > MAX_STORAGE_SLOTS) throw new RpcError(CLIENT_LIMIT_EXCEEDED, `too many slots (max ${MAX_STORAGE_SLOTS})`);
    }
    if (total === 0) throw new InvalidArgument('empty request');
    const block = await stateBlock(ctx.node, sel);
    const out: Record<string, string[]> = {};
    let read = 0;
    for (const key of [...requests.keys()].sort()) {
      const { address, slots } = requests.get(key)!;
      const account = new Address(address);
      const values: string[] = [];
      for (const slot of slots) {
        // Reads of a warm state resolve without I/O: give other requests a turn every few of them.
        if (++read % YIELD_EVERY === 0) await new Promise(setImmediate);
        values.push(wordHex(await ctx.chain.getStorage(account, slot, block)));
      }
      out['0x' + key] = values;
    }
    return out;
  },
});
