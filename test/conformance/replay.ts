/**
 * Replaying a fixture over HTTP, and comparing what devgate answers with what geth answered: exact JSON equality of
 * the whole response object (jsonrpc, id, result or error), key order aside.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Exchange, Fixture } from './io.js';

export interface Round {
  readonly exchange: Exchange;
  /** devgate's response, parsed (undefined if its body was not JSON). */
  readonly actual: unknown;
  readonly text: string;
}

/** Sends each request of the fixture in order (each waits for the previous answer). */
export async function replay(url: string, fixture: Fixture): Promise<Round[]> {
  const rounds: Round[] = [];
  for (const exchange of fixture.exchanges) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: exchange.request });
    const text = await res.text();
    let actual: unknown;
    try {
      actual = JSON.parse(text);
    } catch {
      actual = undefined;
    }
    rounds.push({ exchange, actual, text });
  }
  return rounds;
}

/** Whether devgate's answer equals geth's. */
export const same = (round: Round): boolean => isDeepStrictEqual(round.actual, round.exchange.response);

/**
 * The paths where two JSON values differ, e.g. `result.transactions[0].blockTimestamp: geth 0x1e, devgate (absent)`;
 * at most `max` of them. For messages and for finding what a listed difference is.
 */
export function differingPaths(expected: unknown, actual: unknown, max = 12): string[] {
  const out: string[] = [];
  const show = (v: unknown) => (v === undefined ? '(absent)' : truncate(JSON.stringify(v)));
  const walk = (e: unknown, a: unknown, path: string) => {
    if (out.length >= max) return;
    if (isDeepStrictEqual(e, a)) return;
    const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (Array.isArray(e) && Array.isArray(a)) {
      if (e.length !== a.length) out.push(`${path}.length: geth ${e.length}, devgate ${a.length}`);
      for (let i = 0; i < Math.min(e.length, a.length); i++) walk(e[i], a[i], `${path}[${i}]`);
      return;
    }
    if (obj(e) && obj(a)) {
      for (const k of [...new Set([...Object.keys(e), ...Object.keys(a)])].sort()) walk(e[k], a[k], path === '' ? k : `${path}.${k}`);
      return;
    }
    out.push(`${path || '(root)'}: geth ${show(e)}, devgate ${show(a)}`);
  };
  walk(expected, actual, '');
  return out;
}

const truncate = (s: string) => (s.length > 160 ? `${s.slice(0, 157)}...` : s);
