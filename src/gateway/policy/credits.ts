/** What a call costs, in credits, by the hosted gateway's published table (credits.json). */
import table from './credits.json' with { type: 'json' };

// A Map, not the JSON object: a client's method name (`__proto__`, `constructor`) must not reach Object.prototype.
const methods: ReadonlyMap<string, number> = new Map(Object.entries(table.methods));
const prefixes: ReadonlyArray<[string, number]> = Object.entries(table.prefixes);

/** Credits one call of `method` costs; methods not in the table cost the default (80). */
export function creditsOf(method: string): number {
  const exact = methods.get(method);
  if (exact !== undefined) return exact;
  for (const [prefix, cost] of prefixes) if (method.startsWith(prefix)) return cost;
  return table.default;
}

/** The whole table, for docs/limits.md ("Credits") and the admin interface. */
export function creditTable(): { default: number; methods: Record<string, number>; prefixes: Record<string, number> } {
  return { default: table.default, methods: { ...table.methods }, prefixes: { ...table.prefixes } };
}
