/**
 * Reading ethereum/execution-apis's `.io` fixtures (test/fixtures/execution-apis/<method>/<name>.io).
 *
 * The format (execution-apis docs-api/docs/tests.md): one JSON-RPC round trip per pair of lines, the request on a
 * line starting `>> `, the response recorded from geth on the next line starting `<< `. A file may hold several
 * round trips, replayed in order. Lines starting `//` are comments; the comment `speconly` says hive's rpc-compat
 * checks that response against the OpenRPC schema only (its values depend on the client, e.g. gas estimates or
 * traces), yet what geth answered is recorded and devgate is held to it like any other fixture.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/execution-apis/', import.meta.url));

export interface Exchange {
  /** The request line's JSON text, as it is sent. */
  readonly request: string;
  /** The response geth gave, parsed. */
  readonly response: unknown;
}

export interface Fixture {
  /** `<method>/<name>`, e.g. `eth_getLogs/topic-wildcard`: the key of the lists in differences.ts. */
  readonly id: string;
  /** The folder's name: the method under test. */
  readonly method: string;
  readonly comments: readonly string[];
  /** Checked by schema only in hive (see above). */
  readonly speconly: boolean;
  readonly exchanges: readonly Exchange[];
}

/** Parses one `.io` text; throws naming the file and line on anything else than the format above. */
export function parseIo(id: string, text: string): Fixture {
  const comments: string[] = [];
  const exchanges: Exchange[] = [];
  let request: string | undefined;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const where = `${id}.io:${i + 1}`;
    if (line.trim() === '') return;
    if (line.startsWith('//')) {
      if (request !== undefined) throw new Error(`${where}: comment between a request and its response`);
      comments.push(line.slice(2).trim());
    } else if (line.startsWith('>> ')) {
      if (request !== undefined) throw new Error(`${where}: two requests in a row`);
      JSON.parse(line.slice(3));
      request = line.slice(3);
    } else if (line.startsWith('<< ')) {
      if (request === undefined) throw new Error(`${where}: a response without its request`);
      exchanges.push({ request, response: JSON.parse(line.slice(3)) });
      request = undefined;
    } else {
      throw new Error(`${where}: neither a comment, a request (>> ) nor a response (<< )`);
    }
  });
  if (request !== undefined) throw new Error(`${id}.io: the last request has no response`);
  if (exchanges.length === 0) throw new Error(`${id}.io: no request`);
  const method = id.slice(0, id.indexOf('/'));
  return { id, method, comments, speconly: comments.some((c) => /^speconly\b/.test(c)), exchanges };
}

/** Every fixture, grouped by method (folder), both in sorted order. */
export function loadFixtures(root = FIXTURES): Map<string, Fixture[]> {
  const out = new Map<string, Fixture[]>();
  for (const method of readdirSync(root).sort()) {
    const dir = join(root, method);
    if (!statSync(dir).isDirectory()) continue;
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.io'))
      .sort();
    out.set(
      method,
      files.map((f) => parseIo(`${method}/${f.slice(0, -3)}`, readFileSync(join(dir, f), 'utf8'))),
    );
  }
  return out;
}
