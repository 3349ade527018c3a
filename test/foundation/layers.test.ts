/**
 * The shape of the code, checked from the sources' imports (static, type-only and dynamic): no import cycles;
 * engines import no rpc, gateway, method or format code; only the EVM fence (src/eth/engine/evm/) reaches into
 * @ethereumjs internals.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const RELATIVE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g;
const PACKAGE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(@ethereumjs\/[^']+)'/g;

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sources();
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
const rel = (f: string) => relative(SRC, f);

/** Each source file's imports of other source files (src-relative paths). */
const graph = new Map<string, string[]>(
  files.map((f) => [
    rel(f),
    [...text.get(f)!.matchAll(RELATIVE)]
      .map((m) => resolve(dirname(f), m[1]!.replace(/\.js$/, '.ts')))
      .filter((t) => t.endsWith('.ts') && existsSync(t))
      .map(rel),
  ]),
);

/** The strongly connected components with more than one file (Tarjan). */
function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const ENGINES = ['eth/engine/', 'rollup/engine/'];
const NOT_FOR_ENGINES = [
  'rpc/',
  'gateway/',
  'admin/',
  'eth/methods/',
  'eth/format/',
  'rollup/methods/',
  'rollup/format.ts',
  'index.ts',
  'cli.ts',
  'network.ts',
  'eth/network.ts',
  'eth/node/',
];

describe('the shape of the sources', () => {
  it('has no import cycles', () => {
    expect(cycles()).toEqual([]);
  });

  it('engines import no rpc, gateway, admin, method or format code', () => {
    const wrong = [...graph].flatMap(([from, tos]) =>
      ENGINES.some((e) => from.startsWith(e))
        ? tos.filter((to) => NOT_FOR_ENGINES.some((n) => to === n || to.startsWith(n))).map((to) => `${from} -> ${to}`)
        : [],
    );
    expect(wrong).toEqual([]);
  });

  it('only the EVM fence reaches into @ethereumjs internals (deep paths, evmFile)', () => {
    const wrong = files
      .filter((f) => !rel(f).startsWith('eth/engine/evm/'))
      .flatMap((f) => {
        const deep = [...text.get(f)!.matchAll(PACKAGE)].map((m) => m[1]!).filter((p) => p.split('/').length > 2);
        const loads = /\bevmFile\(/.test(text.get(f)!) ? ['evmFile()'] : [];
        return [...deep, ...loads].map((p) => `${rel(f)}: ${p}`);
      });
    expect(wrong).toEqual([]);
  });

  it('the node is the one door for writes: only src/eth/node/ takes the writer; the chain imports no block building', () => {
    const takers = files.filter((f) => /\bwriter\.run\(/.test(text.get(f)!)).map(rel);
    expect(takers.filter((f) => !f.startsWith('eth/node/'))).toEqual([]);
    expect(takers.length).toBeGreaterThan(0);
    const chainToMining = [...graph].flatMap(([from, tos]) =>
      from.startsWith('eth/engine/chain/') ? tos.filter((t) => t.startsWith('eth/engine/mining/')) : [],
    );
    expect(chainToMining).toEqual([]);
  });

  it('sees the imports it checks (a sanity check of the reader)', () => {
    expect(graph.get('eth/network.ts')).toContain('cache/chainCache.ts');
    expect(graph.get('eth/node/node.ts')).toContain('eth/node/writer.ts');
    expect(graph.get('eth/engine/build/chainFromSeed.ts')).toEqual(expect.arrayContaining(['eth/engine/build/seed.ts', 'eth/engine/build/import.ts']));
  });
});
