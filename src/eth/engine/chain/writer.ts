/**
 * One writer per network: sends, mining, state edits, snapshots and reverts run one at a time, in the order
 * they were asked for, so a block is never built while another request edits state or reverts. Reads never
 * wait on it: they read sealed blocks and state at a root, which never change.
 */
export class SerialWriter {
  private tail: Promise<unknown> = Promise.resolve();
  private depth = 0;
  /** Awaited after every job, failed or not, before its caller sees the outcome (a data directory's commit). */
  private afterJob: (() => Promise<void>) | undefined;

  /** Runs `job` after every job queued before it; its failure is the caller's, and never stops the queue. */
  run<T>(job: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(async () => {
      this.depth++;
      try {
        let out: T;
        try {
          out = await job();
        } catch (err) {
          await this.afterJob?.();
          throw err;
        }
        await this.afterJob?.();
        return out;
      } finally {
        this.depth--;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Sets what runs after every job (on the writer, before the job's caller is answered); undefined: nothing. */
  setAfterJob(fn: (() => Promise<void>) | undefined): void {
    this.afterJob = fn;
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
