/**
 * debug_traceCall's `blockOverrides` on the engine (traceCall): the traced call reads the overridden number, time,
 * gas limit, fee recipient, prevRandao, base fee and blob base fee (what callTracer shows as output and the struct
 * logger on the stack), BLOCKHASH reads as geth's GetHashFn (a zero hash at or past the real block, the block's own
 * hash with the number + 1 rule), and the chain keeps its own header and state.
 */
import { bigIntToBytes, bytesToBigInt, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainFromSeed } from '../../../../src/eth/engine/build/chainFromSeed.js';
import type { EthChain } from '../../../../src/eth/engine/chain/chain.js';
import type { MinedBlock } from '../../../../src/eth/engine/chain/types.js';
import type { BlockOverride } from '../../../../src/eth/engine/exec/overrides.js';
import { traceCall, type TraceRequest } from '../../../../src/eth/engine/trace/run.js';
import { formatTrace } from '../../../../src/eth/format/trace.js';
import { parseSeed } from '../../../../src/seed/load.js';
import { ACCOUNT0, traceSeed } from './traceSeed.js';
import { BLOCK_READER_CODE, framesSeed } from './traceGapsCode.js';

const READER = createAddressFromString('0x00000000000000000000000000000000000b10c4');
const callTracer: TraceRequest = { spec: { kind: 'callTracer', opts: { onlyTopCall: false, withLog: false } }, timeoutMs: 5000 };
const structLogger: TraceRequest = {
  spec: { kind: 'structLogger', opts: { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 } },
  timeoutMs: 5000,
};

let chain: EthChain;
let block2: MinedBlock;

beforeAll(async () => {
  chain = await chainFromSeed(parseSeed(traceSeed(), 'trace seed'));
  block2 = chain.blockByNumber(2n)!;
});

/** The 8 words the reader returns when traced at `block` with `o`, asking BLOCKHASH(`hashOf`). */
async function read(block: MinedBlock, o: BlockOverride | undefined, hashOf: bigint, extra: { gasPrice?: bigint; txIndex?: number } = {}) {
  const call = {
    from: createAddressFromString(ACCOUNT0),
    to: READER,
    data: setLengthLeft(bigIntToBytes(hashOf), 32),
    gasPrice: extra.gasPrice,
  };
  const t = formatTrace(await traceCall(chain, block, call, callTracer, extra.txIndex, [[READER, { code: hexToBytes(BLOCK_READER_CODE) }]], o)) as any;
  expect(t.error).toBeUndefined();
  const out = hexToBytes(t.output);
  return Array.from({ length: 8 }, (_, i) => bytesToBigInt(out.subarray(i * 32, i * 32 + 32)));
}

const hashOf = (n: bigint) => bytesToBigInt(chain.blockByNumber(n)!.hash);

describe('debug_traceCall blockOverrides', () => {
  it("without an override the call reads the block's own header", async () => {
    const h = block2.header;
    const [number, time, gasLimit, coinbase, randao, baseFee, blobBaseFee, hash1] = await read(block2, undefined, 1n);
    expect([number, time, gasLimit, coinbase, randao]).toEqual([2n, h.timestamp, h.gasLimit, bytesToBigInt(h.coinbase.bytes), bytesToBigInt(h.prevRandao)]);
    // An unpriced call runs with a zero base fee (geth's NoBaseFee).
    expect(baseFee).toBe(0n);
    expect(blobBaseFee).toBe(h.getBlobGasPrice());
    expect(hash1).toBe(hashOf(1n));
  });

  it('the traced call reads every overridden field', async () => {
    const feeRecipient = createAddressFromString('0x00000000000000000000000000000000000fee00');
    const prevRandao = hexToBytes(`0x${'ab'.repeat(32)}`);
    const o: BlockOverride = {
      number: 1000n,
      time: 2_000_000_000n,
      gasLimit: 12_345_678n,
      feeRecipient,
      prevRandao,
      baseFeePerGas: 7n,
      blobBaseFee: 99n,
    };
    const [number, time, gasLimit, coinbase, randao, baseFee, blobBaseFee] = await read(block2, o, 1n, { gasPrice: 10n });
    expect({ number, time, gasLimit, coinbase, randao, baseFee, blobBaseFee }).toEqual({
      number: 1000n,
      time: 2_000_000_000n,
      gasLimit: 12_345_678n,
      coinbase: bytesToBigInt(feeRecipient.bytes),
      randao: bytesToBigInt(prevRandao),
      baseFee: 7n,
      blobBaseFee: 99n,
    });
    // Unpriced: BASEFEE reads 0 even under an overridden base fee, as geth's TraceCall lowers it.
    expect((await read(block2, o, 1n))[5]).toBe(0n);
  });

  it('the struct logger sees the overridden values on the stack', async () => {
    const call = { to: READER, data: new Uint8Array(32) };
    const t = formatTrace(
      await traceCall(chain, block2, call, structLogger, undefined, [[READER, { code: hexToBytes(BLOCK_READER_CODE) }]], { number: 77n, time: 123n }),
    ) as any;
    const pushedBy = (op: string) => t.structLogs[t.structLogs.findIndex((l: any) => l.op === op) + 1].stack.at(-1);
    expect(pushedBy('NUMBER')).toBe('0x4d');
    expect(pushedBy('TIMESTAMP')).toBe('0x7b');
  });

  it("BLOCKHASH reads as geth's GetHashFn: zero at or past the real block, the block's own hash under number + 1", async () => {
    // The chain holds block 3, but from block 2 moved to number 10 neither 2 nor 3 is seen.
    expect(chain.blockByNumber(3n)).toBeDefined();
    const moved = { number: 10n };
    expect((await read(block2, moved, 1n))[7]).toBe(hashOf(1n));
    expect((await read(block2, moved, 2n))[7]).toBe(0n);
    expect((await read(block2, moved, 3n))[7]).toBe(0n);
    // Number + 1: the block is the parent of the simulated one.
    const next = { number: 3n };
    expect((await read(block2, next, 2n))[7]).toBe(hashOf(2n));
    expect((await read(block2, next, 1n))[7]).toBe(hashOf(1n));
    // Moved back: the window follows the overridden number.
    expect((await read(block2, { number: 2n }, 1n))[7]).toBe(hashOf(1n));
    expect((await read(chain.blockByNumber(3n)!, { number: 2n }, 2n))[7]).toBe(0n);
    expect((await read(chain.blockByNumber(3n)!, { number: 2n }, 1n))[7]).toBe(hashOf(1n));
  });

  it('with txIndex the transactions before run under the real header; the chain keeps its own', async () => {
    const root = chain.stateRootOf(chain.head());
    const [number, time] = await read(block2, { number: 5n, time: 6n }, 1n, { txIndex: 3 });
    expect([number, time]).toEqual([5n, 6n]);
    expect(chain.stateRootOf(chain.head())).toEqual(root);
    expect(chain.blockByNumber(2n)!.header.number).toBe(2n);
    // The VM reads its own blockchain again afterwards: no override, BLOCKHASH(1) from block 2 is the real one.
    expect((await read(block2, undefined, 1n))[7]).toBe(hashOf(1n));
  });

  it("answers geth's own TraceCall cases (eth/tracers/api_test.go, a London chain) to the gas", async () => {
    const london = await chainFromSeed(parseSeed(framesSeed('london'), 'frames seed london'));
    const head = london.head();
    const from = createAddressFromString(ACCOUNT0);
    const run = async (code: string, o: BlockOverride) => {
      const t = formatTrace(await traceCall(london, head, { from, data: hexToBytes(code as `0x${string}`) }, structLogger, undefined, undefined, o)) as any;
      return { gas: t.gas, failed: t.failed, returnValue: t.returnValue };
    };
    const zero = '00'.repeat(32);
    // NUMBER PUSH1 MSTORE ... RETURN, as a creation, under number 0x1337.
    expect(await run('0x4360005260206000f3', { number: 0x1337n })).toEqual({ gas: 59537, failed: false, returnValue: `0x${'1337'.padStart(64, '0')}` });
    // BLOCKHASH(0), BLOCKHASH(0x1336), BLOCKHASH(0x1337) under number 0x1337: all zero.
    expect(await run('0x600040600052611336406020526113374060405260606000f3', { number: 0x1337n })).toEqual({
      gas: 72666,
      failed: false,
      returnValue: `0x${zero.repeat(3)}`,
    });
    // BLOCKHASH(head) under number head + 1 (#32175): the head's hash.
    expect(await run(`0x60${head.number.toString(16).padStart(2, '0')}4060005260206000f3`, { number: head.number + 1n })).toEqual({
      gas: 59590,
      failed: false,
      returnValue: `0x${Buffer.from(head.hash).toString('hex')}`,
    });
  });
});
