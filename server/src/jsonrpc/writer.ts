/**
 * Writes framed messages to a stream. Raw bodies are written unchanged; objects
 * are serialised once. Write errors (EPIPE after the peer died) are reported, not thrown.
 * Flow control: when the stream's buffer goes above its high-water mark (the peer
 * is not reading), `onPressure(true)` is called once; `onPressure(false)` when it
 * drains (or the writer closes). The caller stops reading what it would write here.
 */
import type { Writable } from 'node:stream';
import { encodeFrame } from './framing.js';

export class FrameWriter {
  private closed = false;
  private full = false;

  constructor(
    private readonly out: Writable | NodeJS.WritableStream,
    private readonly onError: (e: Error) => void = () => {},
    private readonly onPressure: (full: boolean) => void = () => {},
  ) {
    (out as Writable).on?.('error', (e: Error) => {
      this.closed = true;
      this.setFull(false);
      this.onError(e);
    });
    (out as Writable).on?.('drain', () => this.setFull(false));
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

  private setFull(full: boolean): void {
    if (full === this.full) return;
    this.full = full;
    try {
      this.onPressure(full);
    } catch {
      /* a listener's failure is not the writer's */
    }
  }
}
