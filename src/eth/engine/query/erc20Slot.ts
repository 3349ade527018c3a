/**
 * Finding the storage slot an ERC-20 keeps a balance or an allowance in, as anvil_dealERC20 and
 * anvil_setERC20Allowance do it in anvil: the read (balanceOf / allowance) runs under prestateTracer, which lists
 * every storage slot of the token it reads; each slot is then tried with a state override holding a probe value, and
 * the slot whose override makes the read answer the probe is the one. The probe differs from the value read now, so a
 * slot that does not hold it is never taken for one that does. Nothing is written here: the caller edits the slot.
 */
import { type Address, bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import { ExecutionFailed } from '../../../errors.js';
import type { EthChain } from '../chain/chain.js';
import type { MinedBlock } from '../chain/types.js';
import { callAt } from '../exec/call.js';
import { TRACE_TIMEOUT_MS, traceCall } from '../trace/run.js';

const MAX_UINT = (1n << 256n) - 1n;
/** Most slots tried (a balanceOf reading more is not a plain ERC-20). */
export const MAX_SLOT_CANDIDATES = 64;

const word = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);

/** The uint256 a read answers (its first word). */
async function readUint(
  chain: EthChain,
  block: MinedBlock,
  token: Address,
  data: Uint8Array,
  override?: readonly [Uint8Array, Uint8Array],
): Promise<bigint | undefined> {
  let out: Uint8Array;
  try {
    out = await callAt(chain, block, { to: token, data }, undefined, override === undefined ? undefined : { state: [[token, { stateDiff: [override] }]] });
  } catch {
    return undefined;
  }
  return out.length < 32 ? undefined : bytesToBigInt(out.subarray(0, 32));
}

/**
 * The 32-byte key of the slot of `token` that `data` (balanceOf or allowance calldata) reads its answer from, at
 * `block`'s state; `what` names the read in errors.
 */
export async function findUintSlot(chain: EthChain, block: MinedBlock, token: Address, data: Uint8Array, what: string): Promise<Uint8Array> {
  if ((await chain.getCode(token, block)).length === 0) throw new ExecutionFailed(`${token.toString()} has no code: not an ERC-20`);
  const now = await readUint(chain, block, token, data);
  if (now === undefined) throw new ExecutionFailed(`${what} on ${token.toString()} failed or answered no uint256: not an ERC-20`);
  const traced = await traceCall(
    chain,
    block,
    { to: token, data },
    {
      spec: { kind: 'prestateTracer', opts: { diffMode: false, disableCode: true, disableStorage: false, includeEmpty: false } },
      timeoutMs: TRACE_TIMEOUT_MS,
    },
  );
  if (traced.kind !== 'prestateTracer') throw new Error('prestateTracer answered another kind');
  const slots = [...(traced.pre.get(token.toString().toLowerCase())?.account.storage?.values() ?? [])].map((s) => s.slot);
  const probe = now === 0x1234n ? 0x4321n : 0x1234n;
  for (const slot of slots.slice(0, MAX_SLOT_CANDIDATES)) {
    if ((await readUint(chain, block, token, data, [slot, word(probe)])) === probe) return slot;
  }
  throw new ExecutionFailed(
    `no storage slot of ${token.toString()} holds its ${what} (it read ${slots.length} slots): the token keeps it in a way devgate cannot set`,
  );
}

/** `amount` as a slot's 32-byte value; past 2^256-1 there is none. */
export function uintWord(amount: bigint): Uint8Array {
  if (amount < 0n || amount > MAX_UINT) throw new ExecutionFailed(`amount ${amount} is not a uint256`);
  return word(amount);
}
