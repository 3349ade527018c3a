/**
 * The node log, as anvil prints it after its banner: for each sealed block, each transaction's hash, the contract
 * it created, its gas and why it failed, preceded by the text of the console.log calls it made; then the block's
 * number, hash and time; and the console.log calls of each eth_call and eth_estimateGas run. One log serves a
 * gateway; `anvil_setLoggingEnabled` turns it off and on (off, nothing is attached to any chain or VM, so a send or
 * a call costs what it costs without a log).
 *
 * The block events come from the chain (`blockSealed`); console.log calls and transaction results from a watcher
 * on the VM blocks are built on, and from the call path's runs (src/eth/engine/evm/consoleLog.ts).
 */
import { toChecksumAddress } from '@ethereumjs/util';
import type { EthChain } from '../eth/engine/chain/chain.js';
import type { MinedBlock } from '../eth/engine/chain/types.js';
import { MAX_CONSOLE_BYTES, watchCalls, watchConsole, type TxOutcome } from '../eth/engine/evm/consoleLog.js';
import { decodeRevertReason } from '../eth/engine/exec/call.js';
import { BatchedWrite } from './batchedWrite.js';
import { consoleLogText } from './console.js';
import { bytesHex } from '../hex.js';

/** Where the log goes: a stream (its text, lines ending in "\n") or a function (called once per line, without the "\n"). */
export type LogTarget = { write(text: string): unknown } | ((line: string) => void);

/** What one transaction left for the log while it ran. */
interface TxRecord {
  readonly console: readonly string[];
  readonly outcome: TxOutcome;
}

/** What the log needs of a network's method table: to be told the name of each call (src/rpc/dispatch.ts). */
export interface ObservedMethods {
  observe(observer: ((method: string) => void) | undefined): void;
}

interface Watched {
  readonly chain: EthChain;
  /** The network's method table, whose calls' names the log prints (as anvil prints each request's method). */
  readonly methods: ObservedMethods | undefined;
  /** Printed in each block's lines when the gateway logs more than one network. */
  readonly label: string | undefined;
  detach?: () => void;
}

/** The log of each chain, for anvil_setLoggingEnabled. */
const logs = new WeakMap<EthChain, NodeLog>();

/** The node log a chain is watched by, if any. */
export function nodeLogOf(chain: EthChain): NodeLog | undefined {
  return logs.get(chain);
}

export class NodeLog {
  private enabled = true;
  private readonly watched: Watched[] = [];
  /** Turns on and off in order (attaching to a VM waits for it). */
  private toggling: Promise<void> = Promise.resolve();
  /** A stream's writes, gathered (batchedWrite.ts); a function target is called at once, line by line. */
  private readonly out: BatchedWrite | ((line: string) => void);

  constructor(target: LogTarget) {
    this.out = typeof target === 'function' ? target : new BatchedWrite(target);
  }

  /**
   * Logs the blocks `chain` seals, the console.log calls of its eth_call and eth_estimateGas runs, and the method
   * of each call `methods` answers; `label` names the network in each block's lines and after each method (several
   * networks in one log).
   */
  async watch(chain: EthChain, label?: string, methods?: ObservedMethods): Promise<void> {
    const w: Watched = { chain, label, methods };
    this.watched.push(w);
    logs.set(chain, this);
    if (this.enabled) await this.attach(w);
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** anvil_setLoggingEnabled: off detaches every listener, on attaches them again. */
  setEnabled(on: boolean): Promise<void> {
    if (on === this.enabled) return this.toggling;
    this.enabled = on;
    this.toggling = this.toggling.then(async () => {
      for (const w of this.watched)
        if (on) await this.attach(w);
        else this.detach(w);
    });
    return this.toggling;
  }

  /** Stops logging for good. */
  close(): void {
    this.enabled = false;
    for (const w of this.watched) this.detach(w);
    if (this.out instanceof BatchedWrite) this.out.close();
  }

  private detach(w: Watched): void {
    w.detach?.();
    w.detach = undefined;
  }

  private async attach(w: Watched): Promise<void> {
    if (w.detach !== undefined) return;
    const vm = await w.chain.vmAtHead();
    if (!this.enabled || w.detach !== undefined) return;
    let calls: string[] = [];
    let [bytes, dropped] = [0, 0];
    const records = new Map<object, TxRecord>();
    const stopVm = watchConsole(vm, {
      console: (data) => {
        bytes += data.length;
        if (bytes <= MAX_CONSOLE_BYTES) calls.push(consoleLine(data));
        else dropped++;
      },
      txDone: (outcome) => {
        if (dropped > 0) calls.push(droppedLine(dropped));
        records.set(outcome.tx, { console: calls, outcome });
        calls = [];
        [bytes, dropped] = [0, 0];
      },
    });
    const stopBlocks = w.chain.events.on('blockSealed', (mined) => {
      const text = blockText(mined, records, w.label);
      records.clear();
      calls = [];
      [bytes, dropped] = [0, 0];
      this.print(text);
    });
    // eth_call and eth_estimateGas (each run of an estimate), as anvil prints them: the text of their console.log calls.
    const stopCalls = watchCalls(w.chain, (data, left) => {
      const lines = data.map(consoleLine);
      if (left > 0) lines.push(droppedLine(left));
      this.print(`${lines.join('\n')}\n`);
    });
    // Each request's method, before it runs, as anvil prints it.
    const suffix = w.label === undefined ? '\n' : ` (${w.label})\n`;
    w.methods?.observe((method) => this.print(method + suffix));
    w.detach = () => {
      stopVm();
      stopBlocks();
      stopCalls();
      w.methods?.observe(undefined);
    };
  }

  private print(text: string): void {
    const out = this.out;
    if (typeof out === 'function') for (const line of text.slice(0, -1).split('\n')) out(line);
    else out.write(text);
  }
}

/** The line a console.log call prints. */
function consoleLine(data: Uint8Array): string {
  return consoleLogText(data) ?? `console.log with unknown calldata ${bytesHex(data)}`;
}

/** The line that stands for the console.log calls of a run past its budget (MAX_CONSOLE_BYTES of calldata). */
function droppedLine(dropped: number): string {
  return `console.log: ${dropped} more calls not printed (past ${MAX_CONSOLE_BYTES} bytes of console.log calldata in one run)`;
}

/** A block's lines as anvil prints them. */
export function blockText(mined: MinedBlock, records: ReadonlyMap<object, TxRecord>, label?: string): string {
  const lines: string[] = [];
  const txs = mined.block.transactions;
  for (let i = 0; i < mined.txHashes.length; i++) {
    const record = txs[i] === undefined ? undefined : records.get(txs[i]!);
    const receipt = mined.receiptAt?.(i) ?? mined.receipts[i]!;
    if (record !== undefined) lines.push(...record.console);
    lines.push('', `    Transaction: ${bytesHex(mined.txHashes[i]!)}`);
    if (receipt.contractAddress !== undefined && receipt.status !== 0)
      lines.push(`    Contract created: ${toChecksumAddress(receipt.contractAddress.toString())}`);
    lines.push(`    Gas used: ${receipt.gasUsed}`);
    if (receipt.status === 0) lines.push(`    Error: ${failure(record?.outcome)}`);
  }
  lines.push('');
  if (label !== undefined) lines.push(`    Network: ${label}`);
  lines.push(`    Block Number: ${mined.number}`, `    Block Hash: ${bytesHex(mined.hash)}`, `    Block Time: "${blockTime(mined.header.timestamp)}"`, '');
  return `${lines.join('\n')}\n`;
}

/** Why a transaction failed, in anvil's words where it has them. */
function failure(outcome: TxOutcome | undefined): string {
  if (outcome === undefined || outcome.error === undefined) return 'failed';
  if (outcome.error === 'revert') {
    const reason = decodeRevertReason(outcome.returnValue);
    if (reason !== undefined) return `reverted with: ${reason}`;
    return outcome.returnValue.length === 0 ? 'reverted without a reason' : `reverted with data: ${bytesHex(outcome.returnValue)}`;
  }
  if (outcome.error === 'out of gas') return 'ran out of gas';
  return `failed: ${outcome.error}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A block time as anvil prints it (chrono's RFC 2822, in UTC): `Sat, 28 Nov 2026 13:23:48 +0000`. */
export function blockTime(timestamp: bigint): string {
  const ms = Number(timestamp) * 1000;
  if (!Number.isFinite(ms) || ms > 8.64e15) return `${timestamp} s after 1970`;
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${time} +0000`;
}
