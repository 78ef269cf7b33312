/**
 * Writes framed messages to a stream. Raw bodies are written unchanged; objects
 * are serialised once. Write errors (EPIPE after the peer died) are reported, not thrown.
 * Flow control: when the stream's buffer goes above its high-water mark (the peer
 * is not reading), `onPressure(true)` is called once; `onPressure(false)` when it
 * drains (or the writer closes). The caller stops reading what it would write here.
 * Past `holdBytes` queued (replies premise-lsp makes itself pile up: the peer sends requests
 * but does not read the answers), `onHold(true)`, once, until the stream drains: the caller
 * stops reading the peer's requests (test/protocol/backpressure.test.ts).
 */
import type { Writable } from 'node:stream';
import { encodeFrame } from './framing.js';

export class FrameWriter {
  private closed = false;
  private full = false;
  private held = false;

  constructor(
    private readonly out: Writable | NodeJS.WritableStream,
    private readonly onError: (e: Error) => void = () => {},
    private readonly onPressure: (full: boolean) => void = () => {},
    private readonly hold: { holdBytes: number; onHold: (hold: boolean) => void } | undefined = undefined,
  ) {
    (out as Writable).on?.('error', (e: Error) => {
      this.closed = true;
      this.setFull(false);
      this.onError(e);
    });
    (out as Writable).on?.('drain', () => this.setFull(false));
  }

  /** Bytes written and not yet taken by the stream's destination. */
  get queuedBytes(): number {
    return (this.out as Writable).writableLength ?? 0;
  }

  /** Is the peer behind (the stream's buffer above its high-water mark)? */
  get backedUp(): boolean {
    return this.full;
  }

  /** Write a message given as exact body bytes or as a value to serialise. */
  write(body: Buffer | object): boolean {
    if (this.closed) return false;
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body), 'utf8');
    try {
      if (!this.out.write(encodeFrame(bytes))) this.setFull(true);
      if (this.hold && !this.held && this.full && this.queuedBytes > this.hold.holdBytes) this.setHeld(true);
      return true;
    } catch (e) {
      this.closed = true;
      this.setFull(false);
      this.onError(e as Error);
      return false;
    }
  }

  close(): void {
    this.closed = true;
    this.setFull(false);
  }

  private setHeld(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    try {
      this.hold?.onHold(held);
    } catch {
      /* a listener's failure is not the writer's */
    }
  }

  private setFull(full: boolean): void {
    if (!full) this.setHeld(false);
    if (full === this.full) return;
    this.full = full;
    try {
      this.onPressure(full);
    } catch {
      /* a listener's failure is not the writer's */
    }
  }
}
