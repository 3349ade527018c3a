// Where a slow probe answer's time goes inside the server of bench/hostile.ts (#25): preloaded into the devgate
// process only (`HOSTILE_LOOP_TRACE=<file> npx tsx bench/hostile.ts ...` passes `--import` of this file to the
// server), it records with a 1 ms timer every gap between two ticks, and for each gap: the main thread's CPU time and
// its time waiting for a CPU (runnable, not running: /proc/self/task/<pid>/schedstat), the loop's idle time in that
// gap (eventLoopUtilization), and the GC pauses inside it (performance 'gc' entries); and the arrival and answer
// times of every HTTP request on /sepolia/ (the probe's network). At exit it writes them as JSON to the file.
// Plain JavaScript: the built CLI runs without tsx.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { performance, PerformanceObserver } from 'node:perf_hooks';

const out = process.env.HOSTILE_LOOP_TRACE;
if (out && /devgate(\.js)?$|cli\.js$/.test(process.argv[1] ?? '')) {
  const schedPath = `/proc/self/task/${process.pid}/schedstat`;
  const sched = () => {
    const [cpu, wait] = readFileSync(schedPath, 'utf8').split(' ');
    return { cpu: Number(cpu) / 1e6, wait: Number(wait) / 1e6 };
  };
  const gcs = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ at: e.startTime, ms: e.duration, kind: e.detail?.kind ?? e.kind });
  }).observe({ entryTypes: ['gc'] });
  const ticks = [];
  let last = performance.now();
  let lastSched = sched();
  let lastElu = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.now();
    const s = sched();
    const elu = performance.eventLoopUtilization();
    const d = performance.eventLoopUtilization(elu, lastElu);
    ticks.push([
      Math.round(last * 100) / 100,
      +(now - last).toFixed(2),
      +(s.cpu - lastSched.cpu).toFixed(2),
      +(s.wait - lastSched.wait).toFixed(2),
      +d.idle.toFixed(2),
    ]);
    last = now;
    lastSched = s;
    lastElu = elu;
  }, 1).unref();
  const probes = [];
  // The probe's requests (devgate's raw HTTP front reads sockets itself): when a socket's data naming /sepolia/ was
  // read, and when the socket next wrote (the answer).
  const { Socket } = await import('node:net');
  const emit = Socket.prototype.emit;
  const write = Socket.prototype.write;
  const reading = Symbol('probe read at');
  Socket.prototype.emit = function (event, ...args) {
    const chunk = args[0];
    if (event === 'data' && chunk?.length < 4096 && chunk.includes('/sepolia/')) this[reading] = performance.now();
    return emit.call(this, event, ...args);
  };
  Socket.prototype.write = function (...args) {
    const at = this[reading];
    if (at !== undefined) {
      this[reading] = undefined;
      probes.push([Math.round(at * 100) / 100, +(performance.now() - at).toFixed(2)]);
    }
    return write.apply(this, args);
  };
  // Each thread's CPU and run-queue wait (ms) since start: the main thread, V8's GC helpers, libuv's pool.
  const threads = () =>
    readdirSync('/proc/self/task').map((tid) => {
      const [cpu, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ');
      return { tid, name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), cpu: Number(cpu) / 1e6, wait: Number(wait) / 1e6 };
    });
  process.on('exit', () => {
    writeFileSync(out, JSON.stringify({ timeOrigin: performance.timeOrigin, ticks, gcs, probes, threads: threads() }));
  });
}
