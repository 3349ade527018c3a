/**
 * The node log, as anvil prints it after its banner: for each sealed block, each transaction's hash, the contract
 * it created, its gas and why it failed, preceded by the text of the console.log calls it made; then the block's
 * number, hash and time. One log serves a gateway; `anvil_setLoggingEnabled` turns it off and on (off, nothing is
 * attached to any chain or VM, so a send costs what it costs without a log).
 *
 * The block events come from the chain (`blockSealed`); console.log calls and transaction results from a watcher
 * on the VM blocks are built on (src/eth/engine/evm/consoleLog.ts).
 */
import { bytesToHex, toChecksumAddress } from '@ethereumjs/util';
import type { EthChain } from '../eth/engine/chain/chain.js';
import type { MinedBlock } from '../eth/engine/chain/types.js';
import { watchConsole, type TxOutcome } from '../eth/engine/evm/consoleLog.js';
import { decodeRevertReason } from '../eth/engine/exec/call.js';
import { consoleLogText } from './console.js';

/** Where the log goes: a stream (its text, lines ending in "\n") or a function (called once per line, without the "\n"). */
export type LogTarget = { write(text: string): unknown } | ((line: string) => void);

/** What one transaction left for the log while it ran. */
interface TxRecord {
  readonly console: readonly string[];
  readonly outcome: TxOutcome;
}

interface Watched {
  readonly chain: EthChain;
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

  constructor(private readonly target: LogTarget) {}

  /** Logs the blocks `chain` seals; `label` names it in each block's lines (several networks in one log). */
  async watch(chain: EthChain, label?: string): Promise<void> {
    const w: Watched = { chain, label };
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
    const records = new Map<object, TxRecord>();
    const stopVm = watchConsole(vm, {
      console: (data) => calls.push(consoleLogText(data) ?? `console.log with unknown calldata ${bytesToHex(data)}`),
      txDone: (outcome) => {
        records.set(outcome.tx, { console: calls, outcome });
        calls = [];
      },
    });
    const stopBlocks = w.chain.events.on('blockSealed', (mined) => {
      const text = blockText(mined, records, w.label);
      records.clear();
      calls = [];
      this.print(text);
    });
    w.detach = () => {
      stopVm();
      stopBlocks();
    };
  }

  private print(text: string): void {
    const target = this.target;
    if (typeof target === 'function') for (const line of text.slice(0, -1).split('\n')) target(line);
    else target.write(text);
  }
}

/** A block's lines as anvil prints them. */
export function blockText(mined: MinedBlock, records: ReadonlyMap<object, TxRecord>, label?: string): string {
  const lines: string[] = [];
  const txs = mined.block.transactions;
  for (let i = 0; i < mined.txHashes.length; i++) {
    const record = txs[i] === undefined ? undefined : records.get(txs[i]!);
    const receipt = mined.receiptAt?.(i) ?? mined.receipts[i]!;
    if (record !== undefined) lines.push(...record.console);
    lines.push('', `    Transaction: ${bytesToHex(mined.txHashes[i]!)}`);
    if (receipt.contractAddress !== undefined && receipt.status !== 0)
      lines.push(`    Contract created: ${toChecksumAddress(receipt.contractAddress.toString())}`);
    lines.push(`    Gas used: ${receipt.gasUsed}`);
    if (receipt.status === 0) lines.push(`    Error: ${failure(record?.outcome)}`);
  }
  lines.push('');
  if (label !== undefined) lines.push(`    Network: ${label}`);
  lines.push(`    Block Number: ${mined.number}`, `    Block Hash: ${bytesToHex(mined.hash)}`, `    Block Time: "${blockTime(mined.header.timestamp)}"`, '');
  return `${lines.join('\n')}\n`;
}

/** Why a transaction failed, in anvil's words where it has them. */
function failure(outcome: TxOutcome | undefined): string {
  if (outcome === undefined || outcome.error === undefined) return 'failed';
  if (outcome.error === 'revert') {
    const reason = decodeRevertReason(outcome.returnValue);
    if (reason !== undefined) return `reverted with: ${reason}`;
    return outcome.returnValue.length === 0 ? 'reverted without a reason' : `reverted with data: ${bytesToHex(outcome.returnValue)}`;
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
