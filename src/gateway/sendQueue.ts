/**
 * One WebSocket connection's outgoing frames, handed to ws a slice at a time (#25, slow readers): at most
 * `inFlight` bytes sit in ws's and the socket's buffers, the rest wait here as texts, in order. A peer that does not
 * read would otherwise leave thousands of small frames in its socket's write buffer, and Node writes a socket's whole
 * buffer in one turn when the peer reads again (one writev of them all) or fails each of them with an error object
 * when the socket is destroyed: 48 such peers made turns of 160-800 ms for every network. Here the work of writing is
 * at most `inFlight` bytes per connection at a time, the rest follows in the event loop's shared slice (turnSlice.ts:
 * in this turn while its time lasts, else after pending I/O), and a
 * connection closed as a slow reader drops what waits here, so its close frame is queued behind at most `inFlight`
 * bytes instead of megabytes.
 *
 * Bytes count against UnsentBytes from the moment they are queued here until the socket has written them (or they are
 * dropped): the caller's `written` callback runs once per frame either way.
 */

import { slicePause } from '../turnSlice.js';

/** Bytes handed to ws and not yet written to the kernel, per connection, before the next frames wait here. */
export const SEND_IN_FLIGHT = 64 * 1024;

/** What the queue needs of a ws WebSocket (and, to write many frames at once, of its socket). */
export interface FrameSink {
  send(data: string, cb: (err?: Error) => void): void;
  /** Holds the socket's writes until uncork (node's Writable.cork): the frames of one tick go out in one writev. */
  cork?(): void;
  uncork?(): void;
}

interface Waiting {
  readonly text: string;
  readonly bytes: number;
  readonly written: () => void;
}

export class SendQueue {
  private readonly waiting: Waiting[] = [];
  private head = 0;
  private inFlight = 0;
  private scheduled = false;
  private closed = false;
  private corked = false;

  constructor(
    private readonly sink: FrameSink,
    private readonly limit = SEND_IN_FLIGHT,
  ) {}

  /** Queues a frame of `bytes` (its UTF-8 length); `written` runs once it is written or dropped. */
  send(text: string, bytes: number, written: () => void): void {
    if (this.closed) written();
    // The usual case, a peer that keeps up: straight to ws, in the caller's turn, as before.
    else if (this.head === this.waiting.length && this.inFlight < this.limit) this.hand({ text, bytes, written });
    else this.waiting.push({ text, bytes, written });
  }

  /** Frames waiting here (not yet handed to ws). */
  get waitingFrames(): number {
    return this.waiting.length - this.head;
  }

  /** Drops what waits (each frame's `written` runs); nothing more is sent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const dropped = this.waiting.slice(this.head);
    this.waiting.length = 0;
    this.head = 0;
    for (const w of dropped) w.written();
  }

  private hand(w: Waiting): void {
    // The frames handed in one tick leave in one write (#25: a write per notification was ~75% of the fan-out's
    // CPU, most of it the kernel's per-write work on loopback; 1,000 notifications of one block per connection and
    // tick are 1 writev instead of 1,000).
    if (!this.corked && this.sink.cork !== undefined) {
      this.corked = true;
      this.sink.cork();
      process.nextTick(() => {
        this.corked = false;
        this.sink.uncork?.();
      });
    }
    this.inFlight += w.bytes;
    this.sink.send(w.text, () => {
      this.inFlight -= w.bytes;
      w.written();
      // The next slice after pending I/O: a peer that reads fast still gets one slice per turn, never the whole queue.
      if (this.head < this.waiting.length && !this.scheduled && !this.closed) {
        this.scheduled = true;
        // The event loop's shared slice (#25): on in this turn while it lasts, else behind the other chains.
        void (slicePause() ?? Promise.resolve()).then(() => this.refill());
      }
    });
  }

  private refill(): void {
    this.scheduled = false;
    while (!this.closed && this.head < this.waiting.length && this.inFlight < this.limit) {
      const w = this.waiting[this.head]!;
      this.waiting[this.head++] = undefined as unknown as Waiting;
      this.hand(w);
    }
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
  }
}
