/**
 * eth_estimateGas and eth_createAccessList run the call as a transaction on call VMs (withTxVmAt):
 * the same estimates, access lists, gas and errors as on a VM over a MerkleStateManager copy, at
 * every block, also on a VM an eth_call used just before (its journal must not leak into runTx).
 */
import { readFileSync } from 'node:fs';
import { createAddressFromString, hexToBytes } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { encodeFunctionData, parseAbi, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccessList } from '../../../../src/eth/engine/exec/accessList.js';
import { callAt, withTxVmAt, type CallRequest } from '../../../../src/eth/engine/exec/call.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import { estimateGas } from '../../../../src/eth/engine/exec/estimate.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { ACCOUNT0, ACCOUNT1, ACCOUNT2, REVERTER, STORAGE_LAYOUT, TOKEN, readSurfaceSeed } from '../../methods/seed.js';

const addr = (s: string) => createAddressFromString(s);
const abi = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function increment() returns (uint256)',
  'function revertWithReason()',
  'function burnGas(uint256 rounds) returns (bytes32)',
  'function setBalance(address holder, uint256 value)',
  'function pushItem(uint256 value)',
]);
const data = (functionName: string, args: unknown[] = []) => hexToBytes(encodeFunctionData({ abi, functionName, args } as never) as Hex);
const tokenInitCode = hexToBytes(JSON.parse(readFileSync('chains/contracts/Token.json', 'utf8')).bytecode as Hex);

const REQUESTS: CallRequest[] = [
  { from: addr(ACCOUNT0), to: addr(ACCOUNT1), value: 1n },
  { from: addr(ACCOUNT0), to: addr(TOKEN), data: data('transfer', [ACCOUNT2, 5n]) },
  { from: addr(ACCOUNT2), to: addr(TOKEN), data: data('transfer', [ACCOUNT1, 10n ** 30n]) },
  { from: addr(ACCOUNT1), to: addr(REVERTER), data: data('increment') },
  { from: addr(ACCOUNT1), to: addr(REVERTER), data: data('revertWithReason') },
  { from: addr(ACCOUNT1), to: addr(REVERTER), data: data('burnGas', [50n]) },
  { from: addr(ACCOUNT0), to: addr(STORAGE_LAYOUT), data: data('setBalance', [ACCOUNT1, 0n]) },
  { from: addr(ACCOUNT0), to: addr(STORAGE_LAYOUT), data: data('pushItem', [7n]), maxFeePerGas: 10n ** 10n },
  { from: addr(ACCOUNT0), data: tokenInitCode },
  { to: addr(TOKEN), data: data('transfer', [ACCOUNT2, 1n]), gasPrice: 10n ** 9n },
];

/** An answer or the error it gave, comparable across VMs. */
async function settle<T>(run: () => Promise<T>): Promise<T | string> {
  try {
    return await run();
  } catch (err) {
    return `error: ${err instanceof Error ? `${err.constructor.name} ${err.message}` : String(err)}`;
  }
}

async function both(vm: VM, block: MinedBlock, req: CallRequest) {
  return { estimate: await settle(() => estimateGas(vm, block, req)), accessList: await settle(() => createAccessList(vm, block, req)) };
}

let chain: EthChain;
beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(readSurfaceSeed(), 'read-surface seed'));
});

describe('estimateGas and createAccessList on call VMs', () => {
  it('answer as on a VM over a state copy, at every block, after an eth_call on the same VM too', async () => {
    let answered = 0;
    for (const block of chain.blocks()) {
      for (const req of REQUESTS) {
        const want = await both(await chain.vmAt(block), block, req);
        if (typeof want.estimate === 'bigint') answered++;
        // A call first, so the VM the runs get has a used journal (touched and warm accounts).
        await settle(() => callAt(chain, block, { from: addr(ACCOUNT0), to: addr(TOKEN), data: data('transfer', [ACCOUNT1, 1n]) }));
        const got = await withTxVmAt(chain, block, (vm) => both(vm, block, req));
        expect(got, `block ${block.number} request ${REQUESTS.indexOf(req)}`).toEqual(want);
      }
    }
    expect(answered).toBeGreaterThan(REQUESTS.length);
  });
});
