/**
 * Full garbage collections when the server goes idle after work. Under load V8 lets the old
 * generation grow to several times its live size between full GCs, and keeps those pages when the
 * load stops, so RSS stays high; forced full GCs hand them back a slice at a time (on the 1,000 x 10
 * bench chain: ~100 MB live, RSS 336 -> 243 MB over three rounds, ~150 ms CPU each). They run only
 * after the event loop has been idle for a while and the heap has grown since the last idle GC, a few
 * rounds at most per idle period, each only while still idle; the timer never keeps the process alive.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleGcOptions {
  /** How often the event loop is sampled (ms); idle means two samples in a row below `idleUtilization`. */
  readonly sampleMs?: number;
  /** Event loop utilization (0..1) under which a sample counts as idle. */
  readonly idleUtilization?: number;
  /** Heap growth (bytes of V8's total heap size) since the last idle GC that makes the next one worth it. */
  readonly growthBytes?: number;
  /** Rounds per idle period at most (V8 hands pages back over several full GCs, not in the first). */
  readonly maxRounds?: number;
  /** A round that leaves less than this beyond the live objects (total minus used heap) ends the period. */
  readonly slackBytes?: number;
}

/** What IdleGcPolicy decides from one sample. */
export type IdleGcStep = 'wait' | 'collect';

/**
 * The decision, apart from timers and V8 (tested alone): fed one sample at a time (event loop
 * utilization since the last sample, V8's total heap size), it says when to collect.
 */
export class IdleGcPolicy {
  private idleSamples = 0;
  /** Rounds run in this idle period; maxRounds once it is done. */
  private rounds = 0;
  /** Total heap size after the last idle GC (the baseline growth is measured from); none yet at start, so a start's garbage (a chain built) goes in the first idle period. */
  private baseline = 0;

  constructor(private readonly opts: Required<IdleGcOptions>) {}

  sample(utilization: number, heapTotal: number): IdleGcStep {
    if (utilization >= this.opts.idleUtilization) {
      // Busy again: the next idle period may run its own rounds.
      this.idleSamples = 0;
      this.rounds = 0;
      return 'wait';
    }
    if (++this.idleSamples < 2 || this.rounds >= this.opts.maxRounds) return 'wait';
    if (this.rounds === 0 && heapTotal <= this.baseline + this.opts.growthBytes) return 'wait';
    this.rounds++;
    return 'collect';
  }

  /** After a collection: the total and used heap it left. */
  collected(heapTotal: number, heapUsed: number): void {
    this.baseline = heapTotal;
    if (heapTotal - heapUsed < this.opts.slackBytes) this.rounds = this.opts.maxRounds;
  }
}

/** V8's full GC as a function, without --expose-gc on the command line; undefined where that is not possible. */
function fullGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  } finally {
    // Later contexts (a user's vm code) do not get a gc global from us.
    setFlagsFromString('--no-expose-gc');
  }
}

/** The one sampling timer of the process, and how many servers use it. */
let running: { readonly stop: () => void; users: number } | undefined;

/**
 * Starts collecting when idle (see above); returns the function that stops it. One timer serves the
 * whole process (the heap is the process's): later calls share it, and it stops with its last user.
 */
export function startIdleGc(options: IdleGcOptions = {}): () => void {
  running ??= { stop: sampleWhileRunning(options), users: 0 };
  running.users++;
  let stopped = false;
  return () => {
    if (stopped || running === undefined) return;
    stopped = true;
    if (--running.users === 0) {
      running.stop();
      running = undefined;
    }
  };
}

function sampleWhileRunning(options: IdleGcOptions): () => void {
  const gc = fullGc();
  if (gc === undefined) return () => {};
  const opts: Required<IdleGcOptions> = { sampleMs: 1000, idleUtilization: 0.02, growthBytes: 32e6, maxRounds: 3, slackBytes: 16e6, ...options };
  const policy = new IdleGcPolicy(opts);
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const utilization = performance.eventLoopUtilization(performance.eventLoopUtilization(), last).utilization;
    if (policy.sample(utilization, getHeapStatistics().total_heap_size) === 'collect') {
      gc();
      const heap = getHeapStatistics();
      policy.collected(heap.total_heap_size, heap.used_heap_size);
    }
    // The collection itself is not load: measure from after it.
    last = performance.eventLoopUtilization();
  }, opts.sampleMs);
  timer.unref();
  return () => clearInterval(timer);
}
