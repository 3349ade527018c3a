/** Self and inclusive time of a .cpuprofile: `npx tsx bench/simProf.ts <file> [top]`. */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 40);
const p = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: Node[]; samples: number[] };
const hits = new Map<number, number>();
for (const s of p.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: Node) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*simfast\//, '')}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const incl = new Map<string, number>();
let busy = 0;
for (const [id, h] of hits) {
  const n = byId.get(id)!;
  if (['(idle)', '(program)'].includes(n.callFrame.functionName)) continue;
  busy += h;
  self.set(name(n), (self.get(name(n)) ?? 0) + h);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = name(byId.get(cur)!);
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + h);
  }
}
const show = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `${((100 * v) / busy).toFixed(1).padStart(5)}% ${k}`)
    .join('\n');
console.log(`busy samples ${busy}\n-- self --\n${show(self)}\n-- inclusive --\n${show(incl)}`);
const who = process.argv[4];
if (who) {
  const callers = new Map<string, number>();
  for (const [id, h] of hits) {
    const n = byId.get(id)!;
    if (!name(n).includes(who)) continue;
    const chain: string[] = [];
    for (let cur = parent.get(id); cur !== undefined && chain.length < 6; cur = parent.get(cur)) chain.push(name(byId.get(cur)!).split(' ')[0]!);
    const k = chain.join(' < ');
    callers.set(k, (callers.get(k) ?? 0) + h);
  }
  console.log(`-- callers of ${who} --\n${show(callers)}`);
}
const under = process.argv[5];
if (under) {
  const selfUnder = new Map<string, number>();
  let total = 0;
  for (const [id, h] of hits) {
    let inside = false;
    for (let cur = parent.get(id); cur !== undefined; cur = parent.get(cur)) if (name(byId.get(cur)!).startsWith(under)) inside = true;
    if (!inside && !name(byId.get(id)!).startsWith(under)) continue;
    total += h;
    const k = name(byId.get(id)!);
    selfUnder.set(k, (selfUnder.get(k) ?? 0) + h);
  }
  console.log(`-- self under ${under}: ${((100 * total) / busy).toFixed(1)}% --\n${show(selfUnder)}`);
}
