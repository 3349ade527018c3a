/**
 * The child-process server of the CPU meters (bench/traceCpu.ts, bench/callCpu.ts): a meter runs itself again with
 * `--serve --root <tree>` as a child that starts that tree's gateway on the bench chain, prints `URL <url>` and follows
 * commands on stdin (`start`: start a V8 CPU profile; `stop <file>`: write it), answering `ok` to each; the parent
 * reads the child's CPU time from /proc, so the figure is the server's work only, not the client's.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/** The child's part: serves the gateway of `root` on `seedPath` until stdin ends, then exits. */
export async function serveChild(opts: { root: string; seedPath: string; cacheDir: string; samplingUs?: number }): Promise<never> {
  const { start } = (await import(pathToFileURL(join(opts.root, 'src', 'index.ts')).href)) as typeof import('../src/index.js');
  const gw = await start({ port: 0, chains: [opts.seedPath], cache: { dir: opts.cacheDir } });
  const session = new Session();
  session.connect();
  console.log(`URL ${gw.url('bench')}`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'start') {
      await session.post('Profiler.enable');
      if (opts.samplingUs !== undefined) await session.post('Profiler.setSamplingInterval', { interval: opts.samplingUs });
      await session.post('Profiler.start');
    } else if (line.startsWith('stop ')) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(line.slice(5), JSON.stringify(profile));
    }
    console.log('ok');
  }
  await gw.stop();
  process.exit(0);
}

/** A running child server, from the parent's side. */
export interface ChildServer {
  readonly root: string;
  readonly url: string;
  /** Sends a command and waits for its `ok`. */
  command(c: string): Promise<void>;
  /** The child's CPU time so far (ms), user and system. */
  cpu(): { user: number; system: number };
  close(): Promise<void>;
}

/** Starts `script` (a meter) as the child server of `root`; resolves once it printed its URL. */
export async function spawnChild(script: string, root: string): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--serve', '--root', root], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async () => (await lines.next()).value as string;
  let first = await nextLine();
  while (!first.startsWith('URL ')) first = await nextLine();
  return {
    root,
    url: first.slice(4),
    command: async (c) => {
      child.stdin!.write(`${c}\n`);
      await nextLine();
    },
    cpu: () => {
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return { user: (Number(f[11]) * 1000) / 100, system: (Number(f[12]) * 1000) / 100 };
    },
    close: async () => {
      child.stdin!.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}
