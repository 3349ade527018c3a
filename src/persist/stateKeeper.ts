/**
 * The state files of a running gateway (`--load-state`, `--dump-state`, `--state`, `--state-interval`, and
 * `start({ state })`): loads one at start, writes one every interval and on stop, one write at a time, each atomic
 * (atomicFile.ts). A failed interval write is reported and the previous file stays; the next interval tries again.
 */
import { existsSync } from 'node:fs';
import { writeFileAtomic, readStateFile } from './atomicFile.js';
import { dumpGateway, gatewayFingerprint, loadGateway, type LoadReport, type StateNetwork } from './gatewayState.js';

export interface StateFiles {
  /** Loaded at start; it must exist unless `loadIfExists`. */
  readonly load?: string;
  /** `--state`: the load file may be missing (a first run). */
  readonly loadIfExists?: boolean;
  /** Written on stop, and every `intervalSeconds` if given. */
  readonly dump?: string;
  readonly intervalSeconds?: number;
}

export class StateKeeper {
  private timer: NodeJS.Timeout | undefined;
  /** The write in progress (writes run one at a time). */
  private writing: Promise<unknown> = Promise.resolve();
  private busy = false;
  /** The last file written and the state it holds (interval ticks with nothing new write nothing). */
  private written: { readonly file: string; readonly fingerprint: string } | undefined;

  constructor(
    private readonly networks: () => readonly StateNetwork[],
    private readonly files: StateFiles,
    private readonly warn: (message: string) => void = (m) => console.error(`devgate: ${m}`),
  ) {}

  /** Loads the start file, if any; says what it loaded (empty when there was nothing to load). */
  async loadAtStart(): Promise<LoadReport> {
    const file = this.files.load;
    if (file === undefined || (this.files.loadIfExists === true && !existsSync(file))) return [];
    // --state FILE writes devgate's state file over FILE on exit: an anvil file there would be lost to anvil.
    const refused =
      this.files.dump === file
        ? `${file} is an anvil state file, which the state file written on exit would replace: load it with --load-state ${file} and dump to another file (--dump-state)`
        : undefined;
    return loadGateway(this.networks(), await readStateFile(file), undefined, refused);
  }

  /** Starts interval dumps (with a dump file and an interval). */
  startInterval(): void {
    const { dump, intervalSeconds } = this.files;
    if (dump === undefined || intervalSeconds === undefined) return;
    this.timer = setInterval(() => {
      // A slow write still running, or nothing changed since the last write to this file: skip this tick.
      if (this.busy || (this.written?.file === dump && this.written.fingerprint === gatewayFingerprint(this.networks()))) return;
      void this.write(dump).catch((err: unknown) => this.warn(`state interval dump to ${dump} failed (the previous file stays): ${(err as Error).message}`));
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  /** The state file of every network, written to `file` too if given (atomically). */
  dump(file?: string): Promise<Uint8Array> {
    return file === undefined ? dumpGateway(this.networks()) : this.write(file);
  }

  /** Stops interval dumps and writes the dump file, if any (the last write). */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    if (this.files.dump !== undefined) await this.write(this.files.dump);
  }

  private write(file: string): Promise<Uint8Array> {
    const run = this.writing.then(async () => {
      this.busy = true;
      try {
        const fingerprint = gatewayFingerprint(this.networks());
        const bytes = await dumpGateway(this.networks());
        await writeFileAtomic(file, bytes);
        this.written = { file, fingerprint };
        return bytes;
      } finally {
        this.busy = false;
      }
    });
    this.writing = run.catch(() => {});
    return run;
  }
}
