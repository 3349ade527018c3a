/**
 * The fork's disk cache: what a fork fetched from its upstream (proof nodes, code, and the upstream's JSON answers
 * about history up to the fork block), kept in `<cache dir>/fork/<chain id>-<block number>/`, so that a second run
 * asks the upstream nothing it already has. Nodes and code are content-addressed: each is re-hashed on load and
 * found by that hash, so a foreign or corrupt entry is never trusted, only unused; a torn last record (a run killed
 * mid-write) is ignored. History answers are kept per request (method and params), checked on load to be JSON.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { plainHex } from '../../../hex.js';

const NODE = 0;
const CODE = 1;
const BLOBS = 'state.bin';
const ANSWERS = 'answers';

export class ForkDiskCache {
  private constructor(readonly dir: string) {}

  /** The cache of a fork of chain `chainId` at `blockNumber` under `root` (the chain cache directory), created. */
  static open(root: string, chainId: bigint, blockNumber: bigint): ForkDiskCache {
    const dir = join(root, 'fork', `${chainId}-${blockNumber}`);
    mkdirSync(join(dir, ANSWERS), { recursive: true });
    return new ForkDiskCache(dir);
  }

  /** Loads every node and code into `nodes` (node: hash -> RLP; code: '63' + hash -> code); gives the count loaded. */
  loadState(nodes: Map<string, Uint8Array | string>, hash: (b: Uint8Array) => Uint8Array): number {
    const file = join(this.dir, BLOBS);
    if (!existsSync(file)) return 0;
    const all = readFileSync(file);
    let at = 0;
    let count = 0;
    while (at + 5 <= all.length) {
      const kind = all[at]!;
      const length = all.readUInt32BE(at + 1);
      if (at + 5 + length > all.length || (kind !== NODE && kind !== CODE)) break;
      // A copy: the file's buffer is one large allocation, which a slice would keep alive.
      const bytes = new Uint8Array(all.subarray(at + 5, at + 5 + length));
      const key = plainHex(hash(bytes));
      nodes.set(kind === CODE ? `63${key}` : key, bytes);
      at += 5 + length;
      count++;
    }
    return count;
  }

  appendNodes(encoded: readonly Uint8Array[]): void {
    this.append(NODE, encoded);
  }

  appendCode(code: Uint8Array): void {
    this.append(CODE, [code]);
  }

  private append(kind: number, items: readonly Uint8Array[]): void {
    const parts: Uint8Array[] = [];
    for (const item of items) {
      const head = Buffer.alloc(5);
      head[0] = kind;
      head.writeUInt32BE(item.length, 1);
      parts.push(head, item);
    }
    appendFileSync(join(this.dir, BLOBS), Buffer.concat(parts));
  }

  /** A kept upstream answer to `method(params)`, or undefined. */
  answer(method: string, params: readonly unknown[]): unknown {
    const file = this.answerFile(method, params);
    if (!existsSync(file)) return undefined;
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as { request?: string; result?: unknown };
      return kept.request === JSON.stringify([method, params]) ? kept.result : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps an upstream answer (written to a temporary file, then renamed: never half a file). */
  keepAnswer(method: string, params: readonly unknown[], result: unknown): void {
    const file = this.answerFile(method, params);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ request: JSON.stringify([method, params]), result }));
    renameSync(tmp, file);
  }

  private answerFile(method: string, params: readonly unknown[]): string {
    const id = createHash('sha256')
      .update(JSON.stringify([method, params]))
      .digest('hex')
      .slice(0, 32);
    return join(this.dir, ANSWERS, `${id}.json`);
  }
}
