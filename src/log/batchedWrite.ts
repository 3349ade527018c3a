/**
 * A stream target's writes gathered and written together: the node log prints a line for every request (as anvil
 * does), and a write to a pipe or a terminal is a system call that also wakes whoever reads it. At one request in
 * flight that was a write per request, before its answer, ~25 µs of a cheap read's ~95 µs of server CPU (the CLI's
 * stdout on a pipe, eth_blockNumber). Text is kept for at most FLUSH_MS (or until FLUSH_BYTES) and written in order in
 * one piece; close() and the process's exit write what is left.
 */

/** Longest a line waits before it is written (ms). */
export const FLUSH_MS = 10;
/** Text gathered past this many UTF-16 units is written at once. */
export const FLUSH_BYTES = 64 * 1024;

export class BatchedWrite {
  private text = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly onExit = () => this.flush();

  constructor(private readonly target: { write(text: string): unknown }) {
    process.on('exit', this.onExit);
  }

  write(text: string): void {
    this.text += text;
    if (this.text.length >= FLUSH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  /** Writes what is gathered now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.text === '') return;
    const text = this.text;
    this.text = '';
    this.target.write(text);
  }

  /** Writes what is left and stops listening for the process's exit. */
  close(): void {
    this.flush();
    process.off('exit', this.onExit);
  }
}
