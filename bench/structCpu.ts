/**
 * In-process CPU of the struct logger's parts on the bench chain (a quieter measure than req/s on a shared machine):
 * traces transactions of bench blocks with the struct logger (the replay cache keeps the block's states, so after a
 * first round this is the tracing alone), then formats each answer as JSON text and encodes it, and prints the CPU
 * time per transaction of each part. Run it for an old and a new tree (`--root`), interleaved, to compare.
 *
 *   npx tsx bench/structCpu.ts --rounds 5
 *   npx tsx bench/structCpu.ts --root /work/wt/base --rounds 5
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
    blocks: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '5' },
    /** Another tracer to compare with (`noopTracer`: the run without steps; `callTracer`). */
    tracer: { type: 'string', default: 'struct' },
    /** Write a V8 CPU profile of the rounds after the first to this file. */
    profile: { type: 'string' },
  },
});
const src = (p: string) => pathToFileURL(join(args.root, 'src', p)).href;
const { loadSeedFile } = (await import(src('seed/load.ts'))) as typeof import('../src/seed/load.js');
const { chainFromSeed } = (await import(src('eth/engine/build/chainFromSeed.ts'))) as typeof import('../src/eth/engine/build/chainFromSeed.js');
const { traceTransaction } = (await import(src('eth/engine/trace/run.ts'))) as typeof import('../src/eth/engine/trace/run.js');
const { traceText } = (await import(src('eth/format/traceText.ts'))) as typeof import('../src/eth/format/traceText.js');

const bench = await benchChain(DEFAULT_CHAIN_OPTIONS, () => {});
const chain = await chainFromSeed(loadSeedFile(bench.seedPath));
const structSpec = {
  kind: 'structLogger' as const,
  opts: { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 },
};
const spec =
  args.tracer === 'struct'
    ? structSpec
    : args.tracer === 'callTracer'
      ? { kind: 'callTracer' as const, opts: { onlyTopCall: false, withLog: false } }
      : { kind: 'noopTracer' as const };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const blocks = Array.from({ length: Number(args.blocks) }, (_, i) => chain.blockByNumber(BigInt(100 + i))!);
const session = new Session();
for (let r = 0; r < Number(args.rounds); r++) {
  if (args.profile !== undefined && r === 1) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  let trace = 0;
  let format = 0;
  let encode = 0;
  let n = 0;
  let bytes = 0;
  for (const block of blocks) {
    for (let i = 0; i < block.receipts.length; i++) {
      const t0 = cpu();
      const result = await traceTransaction(chain, block, i, { spec, timeoutMs: 10_000 });
      const t1 = cpu();
      const text = traceText(result).text;
      const t2 = cpu();
      bytes += Buffer.from(text).length;
      const t3 = cpu();
      trace += t1 - t0;
      format += t2 - t1;
      encode += t3 - t2;
      n++;
    }
  }
  console.log(
    `round ${r} ${args.tracer} root=${args.root}: per tx trace ${(trace / n).toFixed(3)} ms, format ${(format / n).toFixed(3)} ms, encode ${(encode / n).toFixed(3)} ms CPU (${n} txs, ${(bytes / n).toFixed(0)} B)`,
  );
}
if (args.profile !== undefined) writeFileSync(args.profile, JSON.stringify((await session.post('Profiler.stop')).profile));
