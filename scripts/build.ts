/**
 * `npm run build`: dist/, as the installed package runs it. esbuild bundles the CLI, the API and
 * any worker with their dependencies into a few ES modules (a start used to load ~470 module files,
 * most of its time), and tsc checks the types and writes the declarations (dist/index.d.ts and what
 * it refers to). Every output file sits directly in dist/, one level below the package root, as
 * src/packageRoot.ts expects. The bundle cannot read devgate's source folders or its packages'
 * versions for the cache keys, so they are recorded here (src/buildFacts.ts).
 *
 * `--if-stale` (the `prepare` script, which every `npm install` runs): no build when dist/ was built after its
 * inputs last changed (src/, scripts/build.ts, package.json, package-lock.json, the tsconfig files).
 * Source maps carry their sources (`sourcesContent`): an installed package has no src/ for them to point to.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { graphDigest, installedVersion, KEYED_PACKAGES, KEYED_SOURCES } from '../src/buildFacts.js';
import { evmEsmFolder } from '../src/eth/engine/evm/evmFiles.js';
import { WEB_BUILD, WEB_CSS, WEB_ENTRY } from '../src/explorer/bundle.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

/** Written last by a build that succeeded: its time is dist/'s. */
const STAMP = join(DIST, '.built');

/** The newest modification time (ms) of the build's inputs. */
function newestInput(): number {
  const files = [join(ROOT, 'scripts/build.ts'), ...['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => join(ROOT, f))];
  const walk = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce(
      (max, e) => Math.max(max, e.isDirectory() ? walk(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs),
      statSync(dir).mtimeMs,
    );
  return Math.max(walk(SRC), ...files.filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs));
}

/** Entry points: output name (dist/<name>.js) -> source. A worker's name is the file its starter loads next to it. */
const ENTRIES = {
  cli: 'src/cli.ts',
  ...(existsSync(join(SRC, 'eth/engine/build/senderWorker.ts')) ? { senderWorker: 'src/eth/engine/build/senderWorker.ts' } : {}),
};

/** The cache keys' facts of this build: source folder digests and package versions. */
function buildFacts(): Record<string, string> {
  const facts: Record<string, string> = {};
  for (const [kind, entry] of Object.entries(KEYED_SOURCES)) facts[`source ${kind}`] = graphDigest(SRC, entry);
  for (const name of KEYED_PACKAGES) facts[`package ${name}`] = installedVersion(name);
  return facts;
}

/** The .ts files under src/ (path, text). */
function sources(dir = SRC): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e): [string, string][] => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [[path, readFileSync(path, 'utf8')]] : [];
  });
}

/** The @ethereumjs/evm files the sources load through evmFiles.ts (`evmFile('x.js')`); throws on a name that is not a string literal. */
function evmFilesLoaded(files: [string, string][]): string[] {
  const names = new Set<string>();
  for (const [path, text] of files) {
    if (path.endsWith(join('eth', 'engine', 'evm', 'evmFiles.ts'))) continue;
    for (const m of text.matchAll(/\bevmFile\(\s*([^)]*)\)/g)) {
      const literal = /^'([\w./-]+\.js)'$/.exec(m[1]!.trim());
      if (literal === null) throw new Error(`${relative(ROOT, path)}: evmFile(${m[1]}): name the file by a string literal, so the build can bundle it`);
      names.add(literal[1]!);
    }
  }
  return [...names].sort();
}

/** Source files that load @ethereumjs/evm files by path other than through evmFiles.ts (whose copies a bundle of the package would not share). */
function evmPathLoaders(files: [string, string][]): string[] {
  return files
    .filter(([path, text]) => !path.endsWith(join('eth', 'engine', 'evm', 'evmFiles.ts')) && /resolve\(\s*['"]@ethereumjs\/evm['"]\s*\)/.test(text))
    .map(([path]) => relative(ROOT, path));
}

/** Puts static imports of the bundled @ethereumjs/evm files in place of evmFiles.ts's loads by path. */
const bundledEvmFiles = (files: string[]): Plugin => ({
  name: 'bundled-evm-files',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]eth[\\/]engine[\\/]evm[\\/]evmFiles\.ts$/ }, () => {
      const esm = realpathSync(evmEsmFolder(join(ROOT, 'package.json')));
      const lines = files.map((f, i) => `import * as m${i} from ${JSON.stringify(join(esm, f))};`);
      lines.push(`const modules = { ${files.map((f, i) => `${JSON.stringify(f)}: m${i}`).join(', ')} };`);
      lines.push('export function evmEsmFolder() { throw new Error("bundled: @ethereumjs/evm has no folder"); }');
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is JavaScript written into the bundle, with its own template literal
      lines.push('export async function evmFile(file) { const m = modules[file]; if (m === undefined) throw new Error(`not bundled: ${file}`); return m; }');
      return { contents: lines.join('\n'), loader: 'js', resolveDir: ROOT };
    });
  },
});

/** Runs tsc (types checked, declarations written); resolves with its exit code. */
function declarations(): Promise<number> {
  const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  const args = [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--emitDeclarationOnly', '--sourceMap', 'false'];
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  return new Promise((done) => proc.once('exit', (code) => done(code ?? 1)));
}

/** Checks the bundle: files directly in dist/, and every script a module finds next to itself (`new URL('./worker.js', import.meta.url)`) there. */
function check(meta: Metafile): void {
  const outputs = Object.keys(meta.outputs).map((f) => resolve(ROOT, f));
  const nested = outputs.filter((f) => dirname(f) !== DIST);
  if (nested.length > 0) throw new Error(`bundle files outside dist/ itself (src/packageRoot.ts expects them there): ${nested.join(', ')}`);
  for (const file of outputs.filter((f) => f.endsWith('.js'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/new URL\(\s*["'](\.{1,2}\/[^"'`]*\.js)["'],\s*import\.meta\.url\s*\)/g)) {
      if (!existsSync(fileURLToPath(new URL(m[1]!, pathToFileURL(file)))))
        throw new Error(`${relative(ROOT, file)} finds ${m[1]} next to itself, but the build has no such file`);
    }
  }
}

async function bundle(): Promise<void> {
  const files = sources();
  const evmFiles = evmFilesLoaded(files);
  const loaders = evmPathLoaders(files);
  // Should a module load @ethereumjs/evm's files by path itself, its copies must be the EVM's: then the package stays in node_modules.
  if (loaders.length > 0)
    console.warn(
      `build: ${loaders.join(', ')} load @ethereumjs/evm files by path (not through src/eth/engine/evm/evmFiles.ts): @ethereumjs/evm is left out of the bundle`,
    );
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: DIST,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    sourcesContent: true,
    metafile: true,
    logLevel: 'warning',
    // lmdb (the data directory) loads its prebuilt binary from its own package folder: it stays a package.
    external: [...(loaders.length > 0 ? ['@ethereumjs/evm'] : []), 'lmdb'],
    plugins: loaders.length > 0 ? [] : [bundledEvmFiles(evmFiles)],
    define: { DEVGATE_BUILD_FACTS: JSON.stringify(buildFacts()) },
    // CommonJS dependencies bundled into ES modules still call require() for node's modules.
    banner: { js: "import { createRequire as __devgateRequire } from 'node:module'; const require = __devgateRequire(import.meta.url);" },
  });
  // What went into which file, for a look at the bundle (`DEVGATE_BUILD_META=meta.json npm run build`).
  if (process.env.DEVGATE_BUILD_META) writeFileSync(process.env.DEVGATE_BUILD_META, JSON.stringify(result.metafile));
  check(result.metafile);
}

/**
 * The library entry (dist/index.js, what `import { start } from 'devgate'` loads) keeps every package
 * external: a user's test suite then has one copy of @ethereumjs (the one its types name), zod, ws...;
 * the EVM fast path loads @ethereumjs/evm's internal files from that same installed package.
 */
async function library(): Promise<void> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { index: 'src/index.ts' },
    outdir: DIST,
    bundle: true,
    packages: 'external',
    splitting: true,
    chunkNames: 'lib-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    sourcesContent: true,
    metafile: true,
    logLevel: 'warning',
    define: { DEVGATE_BUILD_FACTS: JSON.stringify(buildFacts()) },
  });
  check(result.metafile);
}

/**
 * The explorer's page script (dist/explorer.js) and style (dist/explorer.css), for the browser: the installed
 * package serves these; run from source, src/explorer/bundle.ts bundles the same entry with the same options.
 */
async function explorer(): Promise<void> {
  await build({ ...WEB_BUILD, absWorkingDir: ROOT, entryPoints: [WEB_ENTRY], outfile: join(DIST, 'explorer.js'), logLevel: 'warning' });
  copyFileSync(join(ROOT, WEB_CSS), join(DIST, 'explorer.css'));
}

if (process.argv.includes('--if-stale') && existsSync(STAMP) && statSync(STAMP).mtimeMs > newestInput()) {
  console.log('build: dist/ is newer than its inputs, not rebuilt (npm run build rebuilds)');
  process.exit(0);
}
rmSync(DIST, { recursive: true, force: true });
const [tscCode] = await Promise.all([declarations(), bundle().then(library).then(explorer)]);
if (tscCode !== 0) {
  console.error('build: tsc reported errors (the bundle in dist/ was written)');
  process.exit(tscCode);
}
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
