/**
 * A result already serialized: JSON text the response writer splices in as is, so an immutable wire
 * object (a mined block, transaction or receipt) is stringified once, not on every request.
 */
export class RawJson {
  constructor(readonly text: string) {}

  /** What JSON.stringify makes of it anywhere else: the same JSON, parsed back. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** The JSON text of a result: a RawJson's own text, else JSON.stringify. */
export function jsonText(value: unknown): string {
  return value instanceof RawJson ? value.text : JSON.stringify(value);
}
