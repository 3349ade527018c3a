/**
 * In-process CPU of the struct logger's parts on the bench chain (a quieter measure than req/s on a shared machine):
 * traces transactions of bench blocks with the struct logger (the replay cache keeps the block's states, so after a
 * first round this is the tracing alone), then formats each answer as JSON text and encodes it, and prints the CPU
 * time per transaction of each part. With `--ab <other tree>` both trees' code is loaded in this one process, each on
 * its own copy of the chain, and every transaction is traced by both in turn (which goes first alternates): on a busy
 * machine both meet the same load, which separate runs do not.
 *
 *   npx tsx bench/structCpu.ts --rounds 5
 *   npx tsx bench/structCpu.ts --ab /work/wt/base --rounds 8
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchChain, DEFAULT_CHAIN_OPTIONS } from './seed.js';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: resolve(import.meta.dirname, '..') },
    /** Another tree to measure against, interleaved transaction by transaction. */
    ab: { type: 'string' },
    blocks: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '5' },
    /** Another tracer to compare with (`noopTracer`: the run without steps; `callTracer`). */
    tracer: { type: 'string', default: 'struct' },
    /** Write a V8 CPU profile of the rounds after the first to this file. */
    profile: { type: 'string' },
  },
});

const bench = await benchChain(DEFAULT_CHAIN_OPTIONS, () => {});
const spec =
  args.tracer === 'struct'
    ? {
        kind: 'structLogger' as const,
        opts: { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 },
      }
    : args.tracer === 'callTracer'
      ? { kind: 'callTracer' as const, opts: { onlyTopCall: false, withLog: false } }
      : { kind: 'noopTracer' as const };

/** One tree's code, on its own chain. */
async function load(root: string) {
  const src = (p: string) => pathToFileURL(join(root, 'src', p)).href;
  const { loadSeedFile } = (await import(src('seed/load.ts'))) as typeof import('../src/seed/load.js');
  const { chainFromSeed } = (await import(src('eth/engine/build/chainFromSeed.ts'))) as typeof import('../src/eth/engine/build/chainFromSeed.js');
  const { traceTransaction } = (await import(src('eth/engine/trace/run.ts'))) as typeof import('../src/eth/engine/trace/run.js');
  const { traceText } = (await import(src('eth/format/traceText.ts'))) as typeof import('../src/eth/format/traceText.js');
  const chain = await chainFromSeed(loadSeedFile(bench.seedPath));
  const blocks = Array.from({ length: Number(args.blocks) }, (_, i) => chain.blockByNumber(BigInt(100 + i))!);
  return { root, chain, blocks, traceTransaction, traceText, trace: 0, format: 0, encode: 0, n: 0, bytes: 0 };
}
type Tree = Awaited<ReturnType<typeof load>>;

const trees: Tree[] = [await load(args.root)];
if (args.ab !== undefined) trees.push(await load(args.ab));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function once(t: Tree, b: number, i: number): Promise<void> {
  const block = t.blocks[b]!;
  const t0 = cpu();
  const result = await t.traceTransaction(t.chain, block, i, { spec, timeoutMs: 10_000 });
  const t1 = cpu();
  const text = t.traceText(result).text;
  const t2 = cpu();
  t.bytes += Buffer.from(text).length;
  const t3 = cpu();
  t.trace += t1 - t0;
  t.format += t2 - t1;
  t.encode += t3 - t2;
  t.n++;
}

const session = new Session();
let turn = 0;
for (let r = 0; r < Number(args.rounds); r++) {
  if (args.profile !== undefined && r === 1) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  for (const t of trees) Object.assign(t, { trace: 0, format: 0, encode: 0, n: 0, bytes: 0 });
  for (let b = 0; b < trees[0]!.blocks.length; b++) {
    for (let i = 0; i < trees[0]!.blocks[b]!.receipts.length; i++) {
      turn++;
      for (let k = 0; k < trees.length; k++) await once(trees[(k + turn) % trees.length]!, b, i);
    }
  }
  for (const t of trees) {
    const per = (x: number) => (x / t.n).toFixed(3);
    console.log(
      `round ${r} ${args.tracer} root=${t.root}: per tx trace ${per(t.trace)} ms, format ${per(t.format)} ms, encode ${per(t.encode)} ms CPU (${t.n} txs, ${(t.bytes / t.n).toFixed(0)} B)`,
    );
  }
}
if (args.profile !== undefined) writeFileSync(args.profile, JSON.stringify((await session.post('Profiler.stop')).profile));
