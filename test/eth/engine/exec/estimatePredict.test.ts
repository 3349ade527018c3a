/**
 * eth_estimateGas reads the search's later runs off the first one when that run's path cannot depend on its gas
 * (evm/gasWatch.ts): the same answers and errors as running every step of geth's search (`predict` off), for calls
 * whose gas matters (GAS, calls, SSTORE's EIP-2200 sentry, BALANCE of a priced sender) and calls whose gas does not;
 * an ERC-20 transfer's estimate runs the EVM once instead of four to six times (issue 26).
 */
import { readFileSync } from 'node:fs';
import { type Address, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { encodeFunctionData, parseAbi, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import { type CallRequest, runCallTx, withTxVmAt } from '../../../../src/eth/engine/exec/call.js';
import { estimateGas } from '../../../../src/eth/engine/exec/estimate.js';
import { type StateOverride, withStateOverride } from '../../../../src/eth/engine/exec/overrides.js';
import { fastLoopRuns } from '../../../../src/eth/engine/evm/loop.js';
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

/** Contracts put in place by a state override, each at its own address. */
const CODES: Record<string, string> = {
  // SSTORE of the value a slot holds: 2,200 gas, but EIP-2200 wants more than 2,300 left.
  sentry: '0x600060005500',
  // The same, then memory to 0x400 and a store of a new value.
  sentryThenMore: '0x600060005560ff61040052600160015500',
  // Reverts when less than 100,000 gas is left at GAS.
  gasGate: '0x620186a05a10600a57005b60006000fd',
  // CALLs the gas gate with all gas but 10,000.
  callsGate: `0x600060006000600060007300000000000000000000000000000000000000c26127105a03f100`,
  // BALANCE of the caller, kept in slot 1.
  callerBalance: '0x3331600155600060005500',
  // Clears slot 0 (a 4,800 refund), then stores the value slot 1 holds: needs the sentry's 2,301 where 2,200 is charged.
  refundThenSentry: '0x60006000556001600155' + '00',
  // A loop of 200 KECCAK256s over growing memory.
  hashes: '0x60005b80602002600020506001018061' + '00c8116002' + '5700',
};
const codeAt = (i: number): Address => addr(`0x${'00'.repeat(19)}${(0xc0 + i).toString(16)}`);
const word = (n: number) => setLengthLeft(new Uint8Array([n]), 32);
const OVERRIDE: StateOverride = Object.values(CODES).map(
  (code, i) => [codeAt(i), { code: hexToBytes(code as Hex), state: [[word(0), word(1)] as const, [word(1), word(1)] as const] }] as const,
);
const at = (name: string) => codeAt(Object.keys(CODES).indexOf(name));

const REQUESTS: CallRequest[] = [
  { from: addr(ACCOUNT0), to: addr(ACCOUNT1), value: 1n },
  { from: addr(ACCOUNT0), to: addr(TOKEN), data: data('transfer', [ACCOUNT2, 5n]) },
  { from: addr(ACCOUNT0), to: addr(TOKEN), data: data('transfer', ['0x00000000000000000000000000000000000b0b01', 5n]) },
  { from: addr(ACCOUNT2), to: addr(TOKEN), data: data('transfer', [ACCOUNT1, 10n ** 30n]) },
  { from: addr(ACCOUNT1), to: addr(REVERTER), data: data('increment') },
  { from: addr(ACCOUNT1), to: addr(REVERTER), data: data('revertWithReason') },
  { from: addr(ACCOUNT1), to: addr(REVERTER), data: data('burnGas', [50n]) },
  { from: addr(ACCOUNT0), to: addr(STORAGE_LAYOUT), data: data('setBalance', [ACCOUNT1, 0n]) },
  { from: addr(ACCOUNT0), to: addr(STORAGE_LAYOUT), data: data('pushItem', [7n]), maxFeePerGas: 10n ** 10n },
  { from: addr(ACCOUNT0), data: tokenInitCode },
  { to: addr(TOKEN), data: data('transfer', [ACCOUNT2, 1n]), gasPrice: 10n ** 9n },
  ...Object.keys(CODES).map((name) => ({ from: addr(ACCOUNT0), to: at(name) })),
  { from: addr(ACCOUNT0), to: at('callerBalance'), maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n },
  { from: addr(ACCOUNT0), to: at('gasGate'), gas: 150_000n },
  { from: addr(ACCOUNT0), to: at('sentry'), gas: 25_000n },
];

async function settle<T>(run: () => Promise<T>): Promise<T | string> {
  try {
    return await run();
  } catch (err) {
    return `error: ${err instanceof Error ? `${err.constructor.name} ${err.message}` : String(err)}`;
  }
}

/** The estimate of `req` at head with the override in place, read off the first run or not; and the frames run. */
async function estimate(req: CallRequest, predict: boolean): Promise<{ answer: bigint | string; frames: number }> {
  const block = chain.head();
  const before = fastLoopRuns.frames;
  const answer = await withTxVmAt(chain, block, (vm) => withStateOverride(vm, OVERRIDE, () => settle(() => estimateGas(vm, block, req, undefined, predict))));
  return { answer, frames: fastLoopRuns.frames - before };
}

let chain: EthChain;
beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(readSurfaceSeed(), 'read-surface seed'));
});

describe('eth_estimateGas reads later runs off the first', () => {
  it('answers as the full search does, for calls whose gas matters and calls whose gas does not', async () => {
    const answers: (bigint | string)[] = [];
    for (const [i, req] of REQUESTS.entries()) {
      const full = await estimate(req, false);
      const read = await estimate(req, true);
      expect(read.answer, `request ${i}`).toEqual(full.answer);
      answers.push(full.answer);
    }
    // The gate's answer is past its 100,000 (GAS is read: every run made).
    expect(answers[REQUESTS.findIndex((r) => r.to?.equals(at('gasGate')))]).toBeGreaterThan(100_000n);
    expect(answers.filter((a) => typeof a === 'bigint').length).toBeGreaterThan(12);
  });

  it('counts the SSTORE sentry: the same answers under every gas cap where a search step lands near it', async () => {
    let read = 0;
    for (let cap = 28_000n; cap <= 31_000n; cap += 97n) {
      const req = { from: addr(ACCOUNT0), to: at('refundThenSentry'), gas: cap };
      const full = await estimate(req, false);
      const got = await estimate(req, true);
      expect(got.answer, `gas cap ${cap}`).toEqual(full.answer);
      if (got.frames === 1 && typeof got.answer === 'bigint') read++;
    }
    expect(read).toBeGreaterThan(20);
  });

  it("takes overridden storage as the slots' original values (geth applies overrides before the transaction)", async () => {
    // Clearing slot 0, overridden to 1: 5,000 gas and a 4,800 refund (EIP-3529), on the first run as on every later one.
    const req = { from: addr(ACCOUNT0), to: at('sentry') };
    const block = chain.head();
    const runs = await withTxVmAt(chain, block, (vm) =>
      withStateOverride(vm, OVERRIDE, async () => [await runCallTx(vm, block, req, 100_000n), await runCallTx(vm, block, req, 100_000n)]),
    );
    expect(runs.map((r) => [r.gasUsed, r.gasRefund])).toEqual([
      [21_206n, 4_800n],
      [21_206n, 4_800n],
    ]);
  });

  it('runs an ERC-20 transfer once; a call that reads its gas runs every step', async () => {
    const transfer = REQUESTS[2]!;
    const full = await estimate(transfer, false);
    const read = await estimate(transfer, true);
    expect(read.answer).toBe(full.answer);
    expect(full.frames).toBeGreaterThanOrEqual(4);
    expect(read.frames).toBe(1);
    const gate = { from: addr(ACCOUNT0), to: at('gasGate') };
    expect((await estimate(gate, true)).frames).toBe((await estimate(gate, false)).frames);
  });
});
