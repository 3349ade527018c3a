/**
 * An empty block runs no contract code (issue 26: `anvil_mine` of 100 empty blocks was ~7x anvil's time): the
 * EIP-7002/7251 system calls that end every Prague block are answered without running their contracts while their
 * queues are empty (evm/requestCalls.ts), on a chain built from its genesis and on one restored from its parts (a
 * chain image: what `start()` serves from its cache), whose head VM was made without it. The blocks are the same
 * either way: both chains mine the same hashes and state roots.
 */
import type { VM } from '@ethereumjs/vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../src/eth/engine/build/chainFromSeed.js';
import { EthChain } from '../../../src/eth/engine/chain/chain.js';
import { standaloneNode } from '../../../src/eth/node/standalone.js';
import { parseSeed } from '../../../src/seed/load.js';
import { devSeed } from '../../../src/seed/dev.js';

/** Counts the interpreter runs of `vm` (each runs contract code: a call's frame). */
function countRuns(vm: VM): () => number {
  const evm = vm.evm as unknown as { runInterpreter(...args: unknown[]): Promise<unknown> };
  const stock = evm.runInterpreter;
  let runs = 0;
  evm.runInterpreter = function (this: unknown, ...args: unknown[]) {
    runs++;
    return stock.apply(this, args);
  };
  return () => runs;
}

let built: EthChain;
let restored: EthChain;

beforeAll(async () => {
  built = await chainFromSeed(parseSeed(devSeed(), 'dev'));
  restored = await EthChain.restore(built.parts());
});

describe('an empty block', () => {
  it('runs no contract code on a built chain and on a restored one, and both mine the same blocks', async () => {
    expect(built.common.isActivatedEIP(7685)).toBe(true);
    const runsBuilt = countRuns(await built.vmAtHead());
    const runsRestored = countRuns(await restored.vmAtHead());
    const a = await standaloneNode(built).mine(3n);
    const b = await standaloneNode(restored).mine(3n);
    expect(runsBuilt()).toBe(0);
    expect(runsRestored()).toBe(0);
    expect(b.map((r) => r.block.header.stateRoot)).toEqual(a.map((r) => r.block.header.stateRoot));
    expect(b.map((r) => r.block.hash)).toEqual(a.map((r) => r.block.hash));
    expect(a[2]!.block.number).toBe(built.head().number);
  });
});
