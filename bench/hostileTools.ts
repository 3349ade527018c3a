/**
 * What the hostile attacks (bench/hostileAttacks.ts) are made of: streamed JSON-RPC posts that count an answer's bytes
 * instead of holding it (a hostile answer can be gigabytes), batches, WebSocket clients, funded throwaway senders, EVM
 * snippets and the gzip bomb. Only ever 127.0.0.1.
 */
import type { Socket } from 'node:net';
import { createGzip } from 'node:zlib';
import { keccak256, toHex, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import WebSocket from 'ws';

/** An answer read as a stream: its size, its first bytes, and how often `count` occurred in it. */
export interface Streamed {
  status: number;
  bytes: number;
  /** The first 64 KB. */
  head: string;
  /** The whole text, when it is at most 4 MB. */
  text?: string;
  /** Occurrences of the `count` string. */
  counted: number;
  ms: number;
}

const HEAD_BYTES = 64 * 1024;
const TEXT_BYTES = 4 * 1024 * 1024;

/** POSTs `body` (an object or text) and reads the answer as a stream, counting occurrences of `count`. */
export async function post(url: string, body: unknown, count?: string, signal?: AbortSignal): Promise<Streamed> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
  const decoder = new TextDecoder();
  let bytes = 0;
  let head = '';
  let text: string | undefined = '';
  let counted = 0;
  let carry = '';
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    const s = decoder.decode(chunk, { stream: true });
    if (head.length < HEAD_BYTES) head += s.slice(0, HEAD_BYTES - head.length);
    if (text !== undefined) text = bytes <= TEXT_BYTES ? text + s : undefined;
    if (count) {
      const window = carry + s;
      for (let i = window.indexOf(count); i !== -1; i = window.indexOf(count, i + count.length)) counted++;
      // shorter than `count`: an occurrence is counted once, in the window where it ends
      carry = window.slice(Math.max(0, window.length - count.length + 1));
    }
  }
  return { status: res.status, bytes, head, text, counted, ms: performance.now() - t0 };
}

/** A JSON-RPC error of an answer, as `<code> <message>`; undefined when it has a result. */
export function errorText(answer: any): string | undefined {
  if (!answer || typeof answer !== 'object') return `not an answer: ${String(answer).slice(0, 120)}`;
  if (answer.error) return `${answer.error.code} ${String(answer.error.message).slice(0, 200)}`;
  return answer.result === undefined ? `no result: ${JSON.stringify(answer).slice(0, 120)}` : undefined;
}

/** The error of a streamed answer (HTTP status, JSON-RPC error), or undefined when it is a result. */
export function streamedError(s: Streamed): string | undefined {
  if (s.status !== 200) return `HTTP ${s.status} ${s.head.slice(0, 160)}`;
  if (s.text !== undefined) {
    try {
      const answer = JSON.parse(s.text);
      return Array.isArray(answer) ? undefined : errorText(answer);
    } catch {
      return `not JSON: ${s.head.slice(0, 120)}`;
    }
  }
  const m = /^\s*\{[^{]*"error"\s*:\s*(\{[^}]*\})/.exec(s.head);
  return m ? errorText({ error: JSON.parse(m[1]!) }) : undefined;
}

/** A JSON-RPC error answer (the server refused), as opposed to a failed connection. */
export class RpcError extends Error {}

/** One call; throws an RpcError `<method>: <code> <message>` on a JSON-RPC error. */
export async function rpcCall(url: string, method: string, params: unknown[] = [], signal?: AbortSignal): Promise<any> {
  const s = await post(url, { jsonrpc: '2.0', id: 1, method, params }, undefined, signal);
  const error = streamedError(s);
  if (error) throw new RpcError(`${method}: ${error}`);
  if (s.text === undefined) throw new Error(`${method}: an answer of ${mb(s.bytes)}`);
  return JSON.parse(s.text).result;
}

/** A batch of calls of one method; the answers in the order of `paramsList`. */
export async function rpcBatch(url: string, method: string, paramsList: unknown[][], signal?: AbortSignal): Promise<any[]> {
  const s = await post(
    url,
    paramsList.map((params, id) => ({ jsonrpc: '2.0', id, method, params })),
    undefined,
    signal,
  );
  if (s.status !== 200 || s.text === undefined) throw new Error(`${method} batch: HTTP ${s.status}, ${mb(s.bytes)}: ${s.head.slice(0, 160)}`);
  const answers = JSON.parse(s.text);
  if (!Array.isArray(answers)) throw new Error(`${method} batch: ${errorText(answers)}`);
  return answers.sort((a, b) => Number(a.id) - Number(b.id));
}

export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0)} MB`;
export const count = (n: number) => n.toLocaleString('en-US');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tallies messages: `"out of gas" ×4, "ok" ×2`. */
export function tally(messages: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const m of messages) counts.set(m, (counts.get(m) ?? 0) + 1);
  return [...counts].map(([m, n]) => `${m} ×${count(n)}`).join(', ');
}

/** A WebSocket client that counts what arrives; `request` sends a call and waits for its answer. */
export class WsClient {
  messages = 0;
  closed?: { code: number; reason: string };
  private readonly waiting = new Map<number, (answer: any) => void>();
  private nextId = 1;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      this.messages++;
      if (this.waiting.size === 0 || isBinary) return;
      const text = data.toString();
      if (!text.includes('"id"')) return;
      const answer = JSON.parse(text);
      const done = this.waiting.get(answer.id);
      if (done) this.waiting.delete(answer.id), done(answer);
    });
    ws.on('close', (code, reason) => (this.closed ??= { code, reason: reason.toString() }));
    ws.on('error', () => {});
  }

  static async open(url: string): Promise<WsClient> {
    const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    return new WsClient(ws);
  }

  request(method: string, params: unknown[]): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), (err) => err && reject(err));
    });
  }

  /**
   * From now on reads the socket's bytes without ws's framing or a 'message' event per frame, counting notifications
   * by the occurrences of `"method":"eth_subscription"` in them (a server's frames are not masked): the reader still
   * takes all the server sends, as fast as it sends it, for a fraction of the CPU. The fan-out attack's readers took
   * up to 1.5 M messages through ws, a core of the bench's own on a 2-core machine beside the server and the probe.
   * No request can be answered after this.
   */
  readRaw(): void {
    const socket = (this.ws as unknown as { _socket: Socket })._socket;
    socket.removeAllListeners('data');
    const needle = Buffer.from('"method":"eth_subscription"');
    const count = (b: Buffer) => {
      for (let i = b.indexOf(needle); i !== -1; i = b.indexOf(needle, i + needle.length)) this.messages++;
    };
    let tail: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      // An occurrence across two chunks: in the last bytes of one and the first of the next (no copy of the chunk).
      if (tail.length > 0) count(Buffer.concat([tail, chunk.subarray(0, needle.length - 1)]));
      count(chunk);
      tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - needle.length + 1)));
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Throwaway senders, the same on every server (keccak of `devgate-hostile-<n>`), funded with anvil_setBalance. */
export function senders(n: number): PrivateKeyAccount[] {
  return Array.from({ length: n }, (_, i) => privateKeyToAccount(keccak256(toHex(`devgate-hostile-${i}`))));
}

export async function fund(url: string, accounts: readonly PrivateKeyAccount[]): Promise<void> {
  for (const a of accounts) await rpcCall(url, 'anvil_setBalance', [a.address, toHex(10n ** 24n)]);
}

/** Init code that emits `n` LOG0 (empty data) in a loop, as issue 25's 0x618ca05b60006000a0600190038060035700 (36,000). */
export function logLoop(n: number): Hex {
  if (n < 1 || n > 0xffff) throw new Error(`logLoop: ${n} logs (1 to 65,535)`);
  return `0x61${n.toString(16).padStart(4, '0')}5b60006000a0600190038060035700`;
}

/** The JUMPDEST sled (24 KB of 0x5b) and a loop that calls it with all its gas, jumping back once per call. */
export const SLED = '0x00000000000000000000000000000000005eed00' as const;
export const SLED_LOOP = '0x00000000000000000000000000000000005eed01' as const;
export const SLED_CODE = `0x${'5b'.repeat(24 * 1024)}` as const;
/** JUMPDEST; PUSH1 0 ×5 (ret, args, value); PUSH20 SLED; GAS; CALL; POP; PUSH1 0; JUMP. */
export const SLED_LOOP_CODE: Hex = `0x5b${'6000'.repeat(5)}73${SLED.slice(2)}5af150600056`;

let bomb: Promise<Buffer> | undefined;
/** `mib` MiB of zeros, gzipped at level 9 (640 MiB: ~0.65 MB), made once per process. */
export function gzipBomb(mib: number): Promise<Buffer> {
  bomb ??= new Promise((resolve, reject) => {
    const gzip = createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gzip.on('data', (c: Buffer) => parts.push(c));
    gzip.on('end', () => resolve(Buffer.concat(parts)));
    gzip.on('error', reject);
    const zeros = Buffer.alloc(2 ** 20);
    let written = 0;
    const write = () => {
      while (written < mib) {
        written++;
        if (!gzip.write(zeros)) return void gzip.once('drain', write);
      }
      gzip.end();
    };
    write();
  });
  return bomb;
}
