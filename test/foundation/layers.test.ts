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

/** The texts of @ethereumjs's ESM builds' files whose names end in `ext`. */
function upstreamTexts(ext: string): string[] {
  const root = fileURLToPath(new URL('../../node_modules/@ethereumjs/', import.meta.url));
  const texts: string[] = [];
  const scan = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) scan(path);
      else if (e.name.endsWith(ext)) texts.push(readFileSync(path, 'utf8'));
    }
  };
  for (const pkg of readdirSync(root)) if (existsSync(join(root, pkg, 'dist/esm'))) scan(join(root, pkg, 'dist/esm'));
  return texts;
}

/** Every `_name` member @ethereumjs's own code reads or writes (`this._name`, `x._name` in its ESM builds). */
const upstreamPrivateNames = (): Set<string> =>
  new Set(upstreamTexts('.js').flatMap((t) => [...t.matchAll(/\b[A-Za-z$][\w$]*\._([A-Za-z]\w*)/g)].map((m) => `_${m[1]}`)));

const UPSTREAM_PRIVATE = upstreamPrivateNames();
/** A member access by dot or by a quoted name in brackets. */
const PRIVATE_ACCESS = /\.(_[A-Za-z]\w*)\b|\[\s*'(_[A-Za-z]\w*)'\s*\]/g;

/** Every member @ethereumjs's type declarations mark `private` or `protected` (BlockBuilder's `headerData`, ...). */
const upstreamDeclaredPrivate = (): Set<string> =>
  new Set(upstreamTexts('.d.ts').flatMap((t) => [...t.matchAll(/^\s+(?:private|protected)(?:\s+readonly)?\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!)));

const DECLARED_PRIVATE = upstreamDeclaredPrivate();
/** A value's member read by a quoted name in brackets (`builder['headerData']`; not a type's `Block['header']`). */
const BRACKET_ACCESS = /(?<![\w$])(?:this|[a-z_$][\w$]*|\))\s*\[\s*'([A-Za-z_$][\w$]*)'\s*\]/g;

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

  it('the eth engine imports nothing from the rollup or the chain cache; the rollup and the cache import no eth persistence', () => {
    const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => [from, to] as const));
    const wrong = edges
      .filter(
        ([from, to]) =>
          (from.startsWith('eth/engine/') && (to.startsWith('rollup/') || to.startsWith('cache/'))) ||
          ((from.startsWith('rollup/') || from.startsWith('cache/')) && to.startsWith('eth/engine/persist/')) ||
          (from.startsWith('rollup/') && to.startsWith('eth/')),
      )
      .map(([from, to]) => `${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });

  it('gateway-wide persistence (src/persist/) is its own folder: the eth engine takes only its store, errors and unzip', () => {
    const engineUses = [...graph].flatMap(([from, tos]) => (from.startsWith('eth/engine/') ? tos.filter((t) => t.startsWith('persist/')) : []));
    expect([...new Set(engineUses)].sort()).toEqual(['persist/dumpError.ts', 'persist/store.ts', 'persist/unzip.ts']);
  });

  it('gateway-wide code asks a network its kind (src/kinds.ts) instead of branching on it: persist/, cache/, admin/, gateway/, rpc/, subscriptions/, network.ts, index.ts, cli.ts', () => {
    const cleaned = ['persist/', 'cache/', 'admin/', 'gateway/', 'rpc/', 'subscriptions/', 'network.ts', 'index.ts', 'cli.ts'];
    // A kind compared by name (`n.kind === 'eth'`, `kind !== 'rollup'`, `case 'eth':`), or a kind's network class tested.
    const branch = /\bkind\s*[!=]==?\s*'(?:eth|rollup)'|\bcase\s+'(?:eth|rollup)'\s*:|\binstanceof\s+\w*(?:Eth|Rollup)\w*Network\b/g;
    const wrong = files
      .filter((f) => cleaned.some((d) => rel(f) === d || (d.endsWith('/') && rel(f).startsWith(d))))
      .flatMap((f) => [...text.get(f)!.matchAll(branch)].map((m) => `${rel(f)}: ${m[0]}`));
    expect(wrong).toEqual([]);
    expect(graph.get('kinds.ts')).toEqual(expect.arrayContaining(['eth/kind.ts', 'rollup/kind.ts']));
  });

  it('registers every kind (src/kindNames.ts) in src/kinds.ts from its own folder, under its own name', async () => {
    // Read from the sources (importing the registry loads every engine: seconds).
    const { NETWORK_KINDS } = await import('../../src/kindNames.js');
    expect(NETWORK_KINDS.length).toBeGreaterThan(1);
    for (const name of NETWORK_KINDS) {
      expect(graph.get('kinds.ts')).toContain(`${name}/kind.ts`);
      expect(text.get(join(SRC, name, 'kind.ts'))).toMatch(new RegExp(`\\bkind: '${name}',`));
    }
  });

  it('turns bytes into hex through src/hex.ts (its rule) in rollup/, admin/, seed/, log/, eth/format/ and the persistence code', () => {
    const folders = ['rollup/', 'admin/', 'seed/', 'log/', 'eth/format/', 'persist/', 'cache/', 'eth/engine/persist/', 'eth/dataDir.ts'];
    const inline = /\bbytesToHex\(|\.toString\(\s*'hex'\s*\)|,\s*'hex'\s*,?\s*\)/g;
    const wrong = files
      .filter((f) => folders.some((d) => rel(f).startsWith(d)))
      .flatMap((f) => [...text.get(f)!.matchAll(inline)].map((m) => `${rel(f)}: ${m[0].replace(/\s+/g, ' ')}`));
    expect(wrong).toEqual([]);
  });

  it("writes no inline `.toString('hex')` anywhere in src/ but src/hex.ts (bytes to hex go through its helpers)", () => {
    const wrong = files
      .filter((f) => rel(f) !== 'hex.ts')
      .flatMap((f) => [...text.get(f)!.matchAll(/\.toString\(\s*'hex'\s*\)/g)].map((m) => `${rel(f)}: ${m[0]}`));
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

  it('only the EVM fence touches private members of @ethereumjs objects (`._name` of a name @ethereumjs itself uses)', () => {
    const wrong = files
      .filter((f) => !rel(f).startsWith('eth/engine/evm/'))
      .flatMap((f) => [...text.get(f)!.matchAll(PRIVATE_ACCESS)].filter((m) => UPSTREAM_PRIVATE.has(m[1] ?? m[2]!)).map((m) => `${rel(f)}: ${m[0]}`));
    expect(wrong).toEqual([]);
  });

  it("only the EVM fence reads members @ethereumjs declares private or protected by a quoted name (`x['headerData']`)", () => {
    const wrong = files
      .filter((f) => !rel(f).startsWith('eth/engine/evm/'))
      .flatMap((f) => [...text.get(f)!.matchAll(BRACKET_ACCESS)].filter((m) => DECLARED_PRIVATE.has(m[1]!)).map((m) => `${rel(f)}: ${m[0]}`));
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
    for (const name of ['_caches', '_trie', '_activatedEIPsCache', '_codeAddress', '_nonce', '_database']) expect(UPSTREAM_PRIVATE.has(name), name).toBe(true);
    for (const name of ['headerData', 'transactionResults', 'checkStatus', 'keccakFunction', '_opts']) expect(DECLARED_PRIVATE.has(name), name).toBe(true);

    expect(graph.get('eth/network.ts')).toContain('cache/chainCache.ts');
    expect(graph.get('eth/node/node.ts')).toContain('eth/node/writer.ts');
    expect(graph.get('eth/engine/build/chainFromSeed.ts')).toEqual(expect.arrayContaining(['eth/engine/build/seed.ts', 'eth/engine/build/import.ts']));
  });
});
