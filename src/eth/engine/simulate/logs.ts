/**
 * The logs of simulated calls, as geth's simulator collects them (internal/ethapi/logtracer.go): each log when the
 * code emits it, in frames that are dropped when they fail; with `traceTransfers`, each ETH transfer (a call or
 * creation with value, not DELEGATECALL or CALLCODE, and SELFDESTRUCT) is a log of 0xeeee...eeee with the ERC-20
 * Transfer topic, in its place among the others. Log indexes run over the block and count every log seen, kept or
 * dropped, as geth's do.
 */
import type { Log } from '@ethereumjs/evm';
import { type Address, bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { hookLogs } from '../evm/logHook.js';
import type { SimLog } from './types.js';
import { hexBytes } from '../../../hex.js';

const TRANSFER_TOPIC = hexBytes('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
const TRANSFER_ADDRESS = hexBytes('eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee');

interface MessageLike {
  to?: Address;
  caller: Address;
  codeAddress?: Address;
  value: bigint;
  delegatecall: boolean;
}

const word = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);

/** Collects the logs of the transactions run on one VM (one simulated block). */
export class LogCollector {
  private frames: SimLog[][] = [];
  private done: SimLog[] = [];
  private count = 0;

  /** Whether ETH transfers are logs too (the request's `traceTransfers`; a VM serves one request at a time). */
  traceTransfers = false;

  constructor(vm: VM) {
    const events = vm.evm.events!;
    events.on('beforeMessage', ((m: MessageLike) => {
      this.frames.push([]);
      if (m.value === 0n || m.delegatecall) return;
      // A creation's recipient (the new address) is known when it ends: its log is filled in then.
      if (m.to === undefined) this.transfer(m.caller, undefined, m.value);
      // CALLCODE runs another account's code on the caller's own account: no transfer for geth.
      else if (!(m.to.equals(m.caller) && m.codeAddress !== undefined && !m.codeAddress.equals(m.to))) this.transfer(m.caller, m.to, m.value);
    }) as never);
    events.on('afterMessage', ((r: { execResult: { exceptionError?: unknown }; createdAddress?: Address }) => {
      const frame = this.frames.pop() ?? [];
      if (r.execResult.exceptionError !== undefined) return;
      const pending = frame[0];
      if (r.createdAddress !== undefined && pending !== undefined && pending.topics[2]!.length === 0) {
        frame[0] = { ...pending, topics: [pending.topics[0]!, pending.topics[1]!, setLengthLeft(r.createdAddress.bytes, 32)] };
      }
      if (this.frames.length === 0) this.done = frame;
      else this.frames[this.frames.length - 1]!.push(...frame);
    }) as never);
    hookLogs(vm, {
      onLog: ([address, topics, data]: Log) => this.capture(address, topics, data),
      onSelfdestruct: (from, to, value) => {
        if (value > 0n) this.transfer(from, to, value);
      },
    });
  }

  /** geth's captureTransfer; a creation's (`to` undefined) gets its recipient topic when the creation ends. */
  private transfer(from: Address, to: Address | undefined, value: bigint): void {
    if (!this.traceTransfers) return;
    this.capture(
      TRANSFER_ADDRESS,
      [TRANSFER_TOPIC, setLengthLeft(from.bytes, 32), to === undefined ? new Uint8Array() : setLengthLeft(to.bytes, 32)],
      word(value),
    );
  }

  private capture(address: Uint8Array, topics: readonly Uint8Array[], data: Uint8Array): void {
    this.frames[this.frames.length - 1]?.push({ address, topics, data, logIndex: this.count });
    this.count++;
  }

  /** Log indexes start again at 0 in a new block. */
  newBlock(): void {
    this.count = 0;
  }

  /** The logs of the transaction just run (none when it failed); the next one starts afresh. */
  take(): SimLog[] {
    const out = this.done;
    this.done = [];
    this.frames = [];
    return out;
  }
}
