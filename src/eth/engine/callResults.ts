/**
 * Answers of eth_call kept per block hash and call: a call's answer is a function of the call and the
 * block it runs on (state root, header, ancestors for BLOCKHASH), and a block hash fixes all of these,
 * so a repeated call (a dapp polling balanceOf at latest) is answered without running the EVM. The
 * pending block has a hash of its own contents too: a new pending block is a new key. Outputs and
 * deterministic failures (revert, out of gas, insufficient funds) are kept; a timeout is not (it
 * depends on the clock). Kept answers are shared: never change one.
 */
import { bytesToHex } from '@ethereumjs/util';
import { ExecutionFailed, ExecutionReverted } from '../../errors.js';
import type { CallRequest } from './call.js';
import type { MinedBlock } from './types.js';
import { Lru } from './vmPool.js';

type Answer = { readonly output: Uint8Array } | { readonly error: Error };

const hex = (b: Uint8Array | undefined) => (b === undefined ? '' : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex'));

/** Every member of a call object, as one string. */
function callKey(block: MinedBlock, req: CallRequest): string {
  const list = req.accessList?.map(([a, keys]) => hex(a) + ':' + keys.map(hex).join(',')).join(';');
  return [bytesToHex(block.hash), req.from?.toString(), req.to?.toString(), req.gas, req.gasPrice, req.maxFeePerGas, req.maxPriorityFeePerGas, req.value, req.nonce, hex(req.data), list].join('|');
}

/** Whether a failure is the same on every run of the call (a timeout is not). */
const deterministic = (err: unknown): err is Error => err instanceof ExecutionReverted || (err instanceof ExecutionFailed && !err.message.startsWith('execution aborted'));

/** The kept answers of one chain's calls, the least recently used dropped past `capacity`. */
export class CallResults {
  private readonly answers: Lru<string, Answer>;

  constructor(capacity = 4096) {
    this.answers = new Lru(capacity);
  }

  /** The answer of `req` at `block`: kept, or run by `execute` (and kept when it is sure to repeat). */
  async answer(block: MinedBlock, req: CallRequest, execute: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const key = callKey(block, req);
    const kept = this.answers.get(key);
    if (kept !== undefined) {
      if ('error' in kept) throw kept.error;
      return kept.output;
    }
    try {
      const output = await execute();
      this.answers.set(key, { output });
      return output;
    } catch (err) {
      if (deterministic(err)) this.answers.set(key, { error: err });
      throw err;
    }
  }
}
