/**
 * Writes framed messages to a stream. Raw bodies are written unchanged; objects
 * are serialised once. Write errors (EPIPE after the peer died) are reported, not thrown.
 */
import type { Writable } from 'node:stream';
import { encodeFrame } from './framing.js';

export class FrameWriter {
  private closed = false;

  constructor(
    private readonly out: Writable | NodeJS.WritableStream,
    private readonly onError: (e: Error) => void = () => {},
  ) {
    (out as Writable).on?.('error', (e: Error) => {
      this.closed = true;
      this.onError(e);
    });
  }

  /** Write a message given as exact body bytes or as a value to serialise. */
  write(body: Buffer | object): boolean {
    if (this.closed) return false;
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body), 'utf8');
    try {
      this.out.write(encodeFrame(bytes));
      return true;
    } catch (e) {
      this.closed = true;
      this.onError(e as Error);
      return false;
    }
  }

  close(): void {
    this.closed = true;
  }
}
