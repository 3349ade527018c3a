/**
 * JSON text written as bytes into one growing Buffer, read out once as a flat string (traceText.ts's struct logs:
 * ~50 KB of numbers and hex words per trace, where string pieces cost more than the text). Numbers and hex are written
 * digit by digit; any string may be written (UTF-8), and the text is read back as UTF-8 when one had a non-ASCII
 * character, else as Latin-1 (one copy). One writer is shared (writing is synchronous): `take()` hands it out empty.
 */

/** The shared writer's buffer after a long text is given back down to this size. */
const KEEP_BYTES = 1 << 20;
const FIRST_BYTES = 1 << 16;
/** The ASCII codes of 0-9a-f. */
const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export class JsonBytes {
  private static shared: JsonBytes | undefined;
  buf: Buffer;
  pos = 0;
  /** How many more bytes than UTF-16 units the text has so far (its non-ASCII characters' extra bytes). */
  wideBytes = 0;

  private constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** The shared writer, empty. */
  static take(): JsonBytes {
    const out = (JsonBytes.shared ??= new JsonBytes(FIRST_BYTES));
    out.pos = 0;
    out.wideBytes = 0;
    return out;
  }

  /** The text written, as a string; the writer is ready to be taken again. */
  done(): string {
    const text = this.wideBytes > 0 ? this.buf.toString('utf8', 0, this.pos) : this.buf.toString('latin1', 0, this.pos);
    if (this.buf.length > KEEP_BYTES) this.buf = Buffer.allocUnsafe(FIRST_BYTES);
    this.pos = 0;
    return text;
  }

  /** Makes room for `n` more bytes. */
  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  byte(c: number): void {
    if (this.pos >= this.buf.length) this.room(1);
    this.buf[this.pos++] = c;
  }

  /** A string known to be ASCII (field names, digits, hex). */
  ascii(s: string): void {
    const n = s.length;
    this.room(n);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) buf[pos++] = s.charCodeAt(i);
    this.pos = pos;
  }

  /** Any string, as UTF-8. */
  text(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.room(n);
    this.pos += this.buf.write(s, this.pos, n, 'utf8');
    this.wideBytes += n - s.length;
  }

  /** Bytes as they are. */
  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) buf[pos++] = b[i]!;
    this.pos = pos;
  }

  /** Again the bytes written at [from, to). */
  copy(from: number, to: number): void {
    this.room(to - from);
    this.buf.copyWithin(this.pos, from, to);
    this.pos += to - from;
  }

  /** A JSON number, as String(n) writes it. */
  number(n: number): void {
    if (n >= 0 && Number.isSafeInteger(n)) this.digits(n, 10);
    else this.ascii(String(n));
  }

  /** A quantity's hex digits after `0x` (no leading zeros, zero is `0x0`), as `'0x' + n.toString(16)`. */
  quantityHex(n: bigint): void {
    this.room(2);
    this.buf[this.pos++] = 0x30;
    this.buf[this.pos++] = 0x78;
    if (n >= 0n && n <= MAX_SAFE) this.digits(Number(n), 16);
    else this.ascii(n.toString(16));
  }

  /** Bytes [from, to) of `b` as lowercase hex, two digits each. */
  hex(b: Uint8Array, from: number, to: number): void {
    this.room(2 * (to - from));
    const buf = this.buf;
    let pos = this.pos;
    for (let i = from; i < to; i++) {
      const x = b[i]!;
      buf[pos++] = HEX[x >> 4]!;
      buf[pos++] = HEX[x & 15]!;
    }
    this.pos = pos;
  }

  /** A safe non-negative integer's digits in base 10 or 16. */
  private digits(n: number, base: 10 | 16): void {
    if (n <= 0x7fffffff) {
      this.smallDigits(n, base);
      return;
    }
    let count = 1;
    for (let x = n; x >= base; x = Math.floor(x / base)) count++;
    this.room(count);
    const buf = this.buf;
    let pos = this.pos + count;
    this.pos = pos;
    let x = n;
    do {
      const q = Math.floor(x / base);
      buf[--pos] = HEX[x - q * base]!;
      x = q;
    } while (x > 0);
  }

  /** The digits of an integer in [0, 2^31), in int32 arithmetic. */
  private smallDigits(n: number, base: 10 | 16): void {
    let count = 1;
    for (let x = n; x >= base; x = (x / base) | 0) count++;
    this.room(count);
    const buf = this.buf;
    let pos = this.pos + count;
    this.pos = pos;
    let x = n | 0;
    do {
      const q = (x / base) | 0;
      buf[--pos] = HEX[x - q * base]!;
      x = q;
    } while (x > 0);
  }
}
