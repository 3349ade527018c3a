/**
 * A setup file of the `built` and `restored` projects (vitest.config.ts): with one module graph per worker (`isolate:
 * false`), whatever a test file leaves behind meets the next files of its worker, so after each file this checks that it
 * left no listening server (a gateway it did not stop), no fake timers, no changed environment variable and no new
 * process listener. A file that did fails, naming what it left; the environment and the timers are put back first, so
 * the next file starts clean and the failure stays with the file that caused it. Spies are restored after every file.
 */
import { afterAll, beforeAll, vi } from 'vitest';

/** The process events a test might listen to and forget. */
const EVENTS = ['exit', 'uncaughtException', 'unhandledRejection', 'warning', 'SIGINT', 'SIGTERM'] as const;

const servers = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
/**
 * The listeners a test could have left: a native addon's own process hook (lmdb registers one `exit` hook per process,
 * the first time a data directory opens) is the library's, made once, and not counted.
 */
const listeners = () =>
  EVENTS.map(
    (e) =>
      (process.listeners as (event: string) => ((...args: unknown[]) => void)[])(e).filter(
        (fn) => !/\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(fn)),
      ).length,
  );

let before: { servers: number; env: Record<string, string | undefined>; listeners: number[] };

beforeAll(() => {
  before = { servers: servers(), env: { ...process.env }, listeners: listeners() };
});

afterAll(async () => {
  // Spies (vi.spyOn) a failed expect skipped the restore of: put back, so a prototype or console stays unwrapped.
  vi.restoreAllMocks();
  const left: string[] = [];
  if (vi.isFakeTimers()) {
    vi.useRealTimers();
    left.push('fake timers (call vi.useRealTimers() in an afterEach)');
  }
  const names = new Set([...Object.keys(before.env), ...Object.keys(process.env)]);
  for (const name of names) {
    const was = before.env[name];
    if (process.env[name] === was) continue;
    left.push(`process.env.${name} = ${JSON.stringify(process.env[name])} (was ${JSON.stringify(was)})`);
    if (was === undefined) delete process.env[name];
    else process.env[name] = was;
  }
  const now = listeners();
  EVENTS.forEach((e, i) => {
    if (now[i]! > before.listeners[i]!) left.push(`${now[i]! - before.listeners[i]!} process '${e}' listener(s)`);
  });
  // A server closed in the file's own afterAll is gone by now; give a closing handle a few turns, no clock.
  for (let i = 0; i < 50 && servers() > before.servers; i++) await new Promise((r) => setImmediate(r));
  if (servers() > before.servers) left.push(`${servers() - before.servers} listening server(s) (stop every gateway in an afterAll)`);
  if (left.length > 0) {
    throw new Error(`this file leaves behind, for the next files of its worker (isolate: false, see test/README.md): ${left.join('; ')}`);
  }
});
