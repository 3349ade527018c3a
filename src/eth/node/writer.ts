/**
 * One writer per network: sends, mining, state edits, snapshots and reverts run one at a time, in the order
 * they were asked for, so a block is never built while another request edits state or reverts. Reads never
 * wait on it: they read sealed blocks and state at a root, which never change. Only the node (node.ts) holds one.
 */
export class SerialWriter {
  private tail: Promise<unknown> = Promise.resolve();
  private depth = 0;

  /** Runs `job` after every job queued before it; its failure is the caller's, and never stops the queue. */
  run<T>(job: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(async () => {
      this.depth++;
      try {
        return await job();
      } finally {
        this.depth--;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** True while a job runs (for assertions: work that must run on the writer). */
  get busy(): boolean {
    return this.depth > 0;
  }

  /** Resolves once every job queued so far has finished. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
