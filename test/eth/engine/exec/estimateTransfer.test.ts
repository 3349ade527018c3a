/**
 * eth_estimateGas of a plain transfer that surely succeeds with 21,000 gas answers without running it (issue 26): the
 * same answers and errors as the run (`predict` off) for every case where the run could fail or be reported (a
 * precompile recipient, also one moved there by a state override; the console address; a sender with code; a priced
 * call; an access list; an authorization list; a nonce at EIP-2681's bound; a value past the balance), and no
 * transaction run for the plain ones.
 */
import { createAddressFromString, MAX_INTEGER } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { type CallRequest, withTxVmAt } from '../../../../src/eth/engine/exec/call.js';
import { estimateGas } from '../../../../src/eth/engine/exec/estimate.js';
import { type StateOverride, withStateOverride } from '../../../../src/eth/engine/exec/overrides.js';
import { CONSOLE_ADDRESS } from '../../../../src/eth/engine/evm/consoleLog.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { ACCOUNT0, ACCOUNT1, TOKEN, readSurfaceSeed } from '../../methods/seed.js';

const addr = (s: string) => createAddressFromString(s);
const FRESH = addr('0x00000000000000000000000000000000000f4e51');
const MOVED = addr('0x00000000000000000000000000000000000c0de1');
const RICH = addr('0x00000000000000000000000000000000000ffff1');
/** ecrecover moved to MOVED (its own address then has no precompile); RICH holds the most wei there is. */
const OVERRIDE: StateOverride = [
  [addr('0x0000000000000000000000000000000000000001'), { movePrecompileToAddress: MOVED }],
  [RICH, { balance: MAX_INTEGER }],
];

const REQUESTS: CallRequest[] = [
  { from: addr(ACCOUNT0), to: addr(ACCOUNT1), value: 1n },
  { from: addr(ACCOUNT0), to: FRESH, value: 10n ** 18n },
  { to: FRESH },
  { from: addr(ACCOUNT0), to: addr(ACCOUNT0), value: 5n },
  { from: addr(ACCOUNT0), to: addr('0x0000000000000000000000000000000000000002'), value: 1n },
  { from: addr(ACCOUNT0), to: addr('0x0000000000000000000000000000000000000004') },
  { from: addr(ACCOUNT0), to: addr('0x0000000000000000000000000000000000000001') },
  { from: addr(ACCOUNT0), to: MOVED },
  { from: addr(ACCOUNT0), to: addr(CONSOLE_ADDRESS) },
  { from: addr(TOKEN), to: FRESH },
  { from: addr(ACCOUNT0), to: FRESH, gasPrice: 10n ** 9n },
  { from: addr(ACCOUNT0), to: FRESH, maxFeePerGas: 10n ** 10n },
  { from: addr(ACCOUNT0), to: FRESH, maxPriorityFeePerGas: 1n },
  { from: addr(ACCOUNT0), to: FRESH, accessList: [[FRESH.bytes, []]] },
  { from: addr(ACCOUNT0), to: FRESH, accessList: [] },
  { from: addr(ACCOUNT0), to: FRESH, nonce: 2n ** 64n - 1n },
  { from: addr(ACCOUNT0), to: FRESH, nonce: 2n ** 64n - 2n },
  { from: addr(ACCOUNT0), to: FRESH, value: 10n ** 40n },
  { from: FRESH, to: addr(ACCOUNT0), value: 1n },
  { from: addr(ACCOUNT0), to: RICH, value: 1n },
  { from: RICH, to: FRESH, value: MAX_INTEGER },
  { from: addr(ACCOUNT0), to: FRESH, gas: 20_000n },
  { from: addr(ACCOUNT0), to: FRESH, authorizationList: [] },
];

async function settle<T>(run: () => Promise<T>): Promise<T | string> {
  try {
    return await run();
  } catch (err) {
    return `error: ${err instanceof Error ? `${err.constructor.name} ${err.message}` : String(err)}`;
  }
}

/** The estimate of `req` at head with the override in place, with the shortcut or not; and the transactions run. */
async function estimate(req: CallRequest, predict: boolean): Promise<{ answer: bigint | string; txs: number }> {
  const block = chain.head();
  let txs = 0;
  const answer = await withTxVmAt(chain, block, async (vm) => {
    const count = () => void txs++;
    vm.events.on('afterTx', count);
    try {
      return await withStateOverride(vm, OVERRIDE, () => settle(() => estimateGas(vm, block, req, undefined, predict)));
    } finally {
      vm.events.off('afterTx', count);
    }
  });
  return { answer, txs };
}

let chain: EthChain;
beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(readSurfaceSeed(), 'read-surface seed'));
});

describe('eth_estimateGas of a plain transfer', () => {
  it('answers as the run does, for transfers the run could fail or report', async () => {
    for (const [i, req] of REQUESTS.entries()) {
      const full = await estimate(req, false);
      const got = await estimate(req, true);
      expect(got.answer, `request ${i}`).toEqual(full.answer);
    }
  });

  it('runs no transaction for a transfer that surely succeeds with 21,000 gas', async () => {
    for (const req of REQUESTS.slice(0, 4)) {
      const got = await estimate(req, true);
      expect(got.answer).toBe(21_000n);
      expect(got.txs).toBe(0);
    }
    // A precompile (also one moved by the override) and the console address still run; a contract sender still fails.
    for (const i of [4, 5, 7, 8]) expect((await estimate(REQUESTS[i]!, true)).txs, `request ${i}`).toBeGreaterThan(0);
    // ecrecover moved away by the override: its old address is a plain account.
    expect(await estimate(REQUESTS[6]!, true)).toEqual({ answer: 21_000n, txs: 0 });
    expect((await estimate(REQUESTS[9]!, true)).answer).toMatch(/not EOA \(EIP-3607\)/);
  });
});
