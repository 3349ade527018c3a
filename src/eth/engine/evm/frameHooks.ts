/**
 * The frames geth's tracers see that @ethereumjs makes no message for, so its `beforeMessage`/`afterMessage` events
 * never show them (geth calls OnEnter/OnExit for each, core/vm/evm.go and instructions.go):
 *
 * - a CALL, CALLCODE, DELEGATECALL or STATICCALL past the call depth limit, or a CALL/CALLCODE of more value than the
 *   caller holds: Interpreter._baseCall answers 0 before making a message (geth: the frame, gas used 0);
 * - a CREATE/CREATE2 past the depth limit, of more value than the caller holds, or from a nonce of 2^64-1:
 *   Interpreter.create answers 0 likewise (geth: the frame, gas used 0; from Amsterdam geth checks these in the
 *   calling frame and makes none). From Amsterdam (EIP-7928) a create onto an address in use also answers 0 with its
 *   gas spent and no message (geth: a frame with "contract address collision" that used all its gas);
 * - SELFDESTRUCT (geth: a frame from the contract to the beneficiary with the contract's balance, gas 0).
 *
 * It also tells when a frame's RETURN ran: from Homestead @ethereumjs reports a creation that cannot pay its code
 * deposit as plain "out of gas", which geth names "contract creation code storage out of gas".
 *
 * Wraps those opcodes' handlers in one VM's own opcode table (`_opcodeMap`, an @ethereumjs internal built per EVM;
 * the fast path's loop and jump analyses read the same entry objects, so it sees the wrappers too) for one run, and
 * gives back the function that puts the stock handlers back. The conditions are @ethereumjs's own (interpreter.js
 * `_baseCall` and `create`, opcodes/functions.js, as pinned by test/eth/engine/evm/fence.test.ts); a wrapper only reads,
 * then runs the stock handler: results are stock (test/eth/engine/trace/traceFrames.test.ts compares them).
 */
import { EVMError } from '@ethereumjs/evm';
import {
  Address,
  KECCAK256_NULL,
  KECCAK256_RLP,
  MAX_UINT64,
  bigIntToBytes,
  equalsBytes,
  generateAddress,
  generateAddress2,
  setLengthLeft,
} from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

/** Why a frame did not start. */
export type Unstarted = 'depth' | 'balance' | 'nonce' | 'collision';

/** A frame that ended before running any code (no message was made for it). */
export interface UnstartedFrame {
  /** The opcode: 0xf0 CREATE, 0xf1 CALL, 0xf2 CALLCODE, 0xf4 DELEGATECALL, 0xf5 CREATE2, 0xfa STATICCALL. */
  readonly op: number;
  readonly from: Address;
  /** The callee; undefined for a creation. */
  readonly to?: Address;
  readonly input: Uint8Array;
  /** The gas the frame was given (with the stipend of a value transfer). */
  readonly gas: bigint;
  readonly gasUsed: bigint;
  readonly value: bigint;
  readonly why: Unstarted;
}

export interface FrameHooks {
  unstarted(frame: UnstartedFrame): void;
  /** A SELFDESTRUCT that ran: `value` is what the contract held. */
  selfdestruct(from: Address, to: Address, value: bigint): void;
  /** The running frame's RETURN ran (geth tells a creation's code deposit out of gas by it). */
  returned?(): void;
}

interface HookRunState {
  interpreter: {
    _env: { depth: number; contract: { balance: bigint; nonce: bigint }; address: Address };
    _evm: { allowUnlimitedInitCodeSize: boolean };
    _stateManager: { getAccount(a: Address): Promise<{ nonce: bigint; codeHash: Uint8Array; storageRoot: Uint8Array } | undefined> };
    getCallValue(): bigint;
    isStatic(): boolean;
  };
  stack: { peek(n?: number): bigint[] };
  memory: { read(offset: number, size: number): Uint8Array };
  messageGasLimit?: bigint;
  eip7928PostTargetCreateOog?: boolean;
}
interface CommonLike {
  isActivatedEIP(eip: number): boolean;
  param(name: string): bigint;
}
type Handler = (runState: HookRunState, common: CommonLike) => unknown;
interface Entry {
  readonly opcodeInfo: { readonly code: number };
  opHandler: Handler;
}

const MASK_160 = (1n << 160n) - 1n;
const addressOf = (word: bigint) => new Address(setLengthLeft(bigIntToBytes(word & MASK_160), 20));
const { STOP } = EVMError.errorMessages;
const isStop = (e: unknown) => typeof e === 'object' && e !== null && (e as { error?: unknown }).error === STOP;
const startsEof = (data: Uint8Array) => data.length >= 2 && data[0] === 0xef && data[1] === 0x00;

/** The bytes of memory an opcode hands on (read as its stock handler reads them: nothing for a zero length). */
const memoryAt = (rs: HookRunState, offset: bigint, length: bigint) => (length === 0n ? new Uint8Array() : rs.memory.read(Number(offset), Number(length)));

/** Wraps the call, create and SELFDESTRUCT handlers of `vm`'s own opcode table; returns the undo. */
export function hookFrames(vm: VM, hooks: FrameHooks): () => void {
  const table = (vm.evm as unknown as { _opcodeMap: Entry[] })._opcodeMap;
  const stackLimit = Number(vm.common.param('stackLimit'));
  const saved: [Entry, Handler][] = [];
  const wrap = (op: number, make: (inner: Handler) => Handler) => {
    const entry = table[op];
    // An opcode the fork does not have shares the INVALID entry: left alone.
    if (entry === undefined || entry.opcodeInfo.code !== op) return;
    saved.push([entry, entry.opHandler]);
    entry.opHandler = make(entry.opHandler);
  };

  for (const op of [0xf1, 0xf2, 0xf4, 0xfa]) {
    const withValue = op === 0xf1 || op === 0xf2;
    wrap(op, (inner) => (rs, common) => {
      const env = rs.interpreter._env;
      const s = rs.stack.peek(withValue ? 7 : 6);
      const value = withValue ? s[2]! : op === 0xf4 ? rs.interpreter.getCallValue() : 0n;
      const why: Unstarted | undefined = env.depth >= stackLimit ? 'depth' : op !== 0xf4 && env.contract.balance < value ? 'balance' : undefined;
      if (why === undefined) return inner(rs, common);
      const [inOffset, inLength] = withValue ? [s[3]!, s[4]!] : [s[2]!, s[3]!];
      let gas = rs.messageGasLimit ?? 0n;
      if (withValue && value !== 0n) gas += common.param('callStipendGas');
      const frame: UnstartedFrame = { op, from: env.address, to: addressOf(s[1]!), input: memoryAt(rs, inOffset, inLength), gas, gasUsed: 0n, value, why };
      return Promise.resolve(inner(rs, common)).then((v) => {
        hooks.unstarted(frame);
        return v;
      });
    });
  }

  for (const op of [0xf0, 0xf5]) {
    wrap(op, (inner) => async (rs, common) => {
      const frame = await unstartedCreate(op, rs, common, stackLimit);
      const out = await inner(rs, common);
      if (frame !== undefined) hooks.unstarted(frame);
      return out;
    });
  }

  wrap(0xff, (inner) => async (rs, common) => {
    const to = addressOf(rs.stack.peek(1)[0]!);
    const from = rs.interpreter._env.address;
    // What _selfDestruct moves: the contract's balance as its frame knows it.
    const value = rs.interpreter._env.contract.balance;
    try {
      await inner(rs, common);
    } catch (e) {
      if (isStop(e)) hooks.selfdestruct(from, to, value);
      throw e;
    }
    hooks.selfdestruct(from, to, value);
  });

  // RETURN is sync (the fast loop does not await it): so is its wrapper.
  const returned = hooks.returned;
  if (returned !== undefined)
    wrap(0xf3, (inner) => (rs, common) => {
      try {
        return inner(rs, common);
      } catch (e) {
        if (isStop(e)) returned();
        throw e;
      }
    });

  return () => {
    for (const [entry, handler] of saved.reverse()) entry.opHandler = handler;
  };
}

/**
 * The frame of a CREATE/CREATE2 about to run when Interpreter.create will answer 0 before making a message, as
 * geth shows it; undefined when it will make one, or when the stock handler stops earlier (its own traps, EOF
 * init code, EIP-7928's post-target out of gas), where geth makes no frame either.
 */
async function unstartedCreate(op: number, rs: HookRunState, common: CommonLike, stackLimit: number): Promise<UnstartedFrame | undefined> {
  const interp = rs.interpreter;
  const s = rs.stack.peek(op === 0xf5 ? 4 : 3);
  const [value, offset, length] = [s[0]!, s[1]!, s[2]!];
  if (op === 0xf5 && interp.isStatic()) return undefined;
  if (common.isActivatedEIP(3860) && length > common.param('maxInitCodeSize') && !interp._evm.allowUnlimitedInitCodeSize) return undefined;
  if (rs.eip7928PostTargetCreateOog === true) return undefined;
  const env = interp._env;
  const amsterdam = common.isActivatedEIP(7928);
  const why: Unstarted | undefined =
    env.depth >= stackLimit || env.contract.balance < value
      ? env.depth >= stackLimit
        ? 'depth'
        : 'balance'
      : env.contract.nonce >= MAX_UINT64
        ? 'nonce'
        : undefined;
  // From Amsterdam geth checks these in the calling frame: no frame.
  if (why !== undefined && amsterdam) return undefined;
  if (why === undefined && !amsterdam) return undefined;
  const gas = rs.messageGasLimit ?? 0n;
  const input = memoryAt(rs, offset, length);
  if (startsEof(input)) return undefined;
  if (why !== undefined) return { op, from: env.address, input, gas, gasUsed: 0n, value, why };
  // Amsterdam: a collision answers 0 with the gas spent and no message.
  const target =
    op === 0xf5
      ? generateAddress2(env.address.bytes, setLengthLeft(bigIntToBytes(s[3]!), 32), input)
      : generateAddress(env.address.bytes, bigIntToBytes(env.contract.nonce));
  const account = await interp._stateManager.getAccount(new Address(target));
  const inUse =
    account !== undefined && (account.nonce > 0n || !equalsBytes(account.codeHash, KECCAK256_NULL) || !equalsBytes(account.storageRoot, KECCAK256_RLP));
  return inUse ? { op, from: env.address, input, gas, gasUsed: gas, value, why: 'collision' } : undefined;
}
