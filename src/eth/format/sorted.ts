/** geth marshals blocks and receipts as Go maps, whose JSON keys come out in alphabetical order. */
export function sortedKeys<T extends Record<string, unknown>>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj).sort()) out[key] = obj[key];
  return out as T;
}
