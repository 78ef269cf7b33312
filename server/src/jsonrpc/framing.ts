/**
 * LSP base-protocol framing (`Content-Length: N\r\n\r\n<body>`), tolerant of bad
 * input: every complete frame yields either its exact body bytes plus the parsed
 * JSON, or a framing error; the decoder then re-synchronises on the next header
 * instead of getting stuck. Bodies are kept as raw bytes so that forwarding is
 * byte-faithful.
 */

export type Frame =
  | { kind: 'message'; raw: Buffer; value: unknown }
  | { kind: 'error'; reason: string };

export interface DecoderOptions {
  /** Bodies above this size are skipped with an error (default 64 MiB). */
  maxBytes?: number;
}

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
/** A raw CR LF cannot occur inside a JSON string, so this marks a real header. */
const NEXT_HEADER = /Content-Length[ \t]*:[ \t]*\d+[ \t]*\r\n/i;
const HEADER_START = /Content-Length[ \t]*:/i;
const MAX_HEADER_BYTES = 8 * 1024;
/** Whole header lines, `Name: value\r\n` (what may come before Content-Length in a header). */
const HEADER_FIELDS = /^(?:[A-Za-z0-9!#$%&'*+.^_`|~-]+[ \t]*:[^\r\n]*\r\n)+$/;

export class FrameDecoder {
  private buf: Buffer = Buffer.alloc(0);
  private bodyLength = -1;
  private discard = 0;
  /** After an error: drop bytes quietly until the next header. */
  private resyncing = false;
  private readonly maxBytes: number;

  constructor(
    private readonly onFrame: (frame: Frame) => void,
    opts: DecoderOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  }

  /** Chunks of a large pending body not yet joined into `buf` (avoids quadratic copying). */
  private parts: Buffer[] = [];
  private partsLength = 0;

  push(chunk: Buffer): void {
    if (this.bodyLength >= 0 && this.discard === 0) {
      const have = this.buf.length + this.partsLength + chunk.length;
      const prev = this.parts.length > 0 ? this.parts[this.parts.length - 1] : this.buf;
      const probe = Buffer.concat([prev.subarray(Math.max(0, prev.length - 64)), chunk]).toString('latin1');
      if (have < this.bodyLength && !NEXT_HEADER.test(probe)) {
        this.parts.push(chunk);
        this.partsLength += chunk.length;
        return;
      }
    }
    this.buf = Buffer.concat([this.buf, ...this.parts, chunk]);
    this.parts = [];
    this.partsLength = 0;
    this.drain();
  }

  private drain(): void {
    for (;;) {
      if (this.discard > 0) {
        // A header inside the skipped body means its Content-Length was wrong: stop skipping there.
        const next = this.buf.toString('latin1', 0, Math.min(this.buf.length, this.discard + 64)).search(NEXT_HEADER);
        if (next >= 0 && next < this.discard) {
          this.buf = this.buf.subarray(next);
          this.discard = 0;
          continue;
        }
        // (a short tail stays, in case a header is split across chunks)
        const n = this.discard >= this.buf.length ? Math.max(0, this.buf.length - 64) : this.discard;
        this.buf = this.buf.subarray(n);
        this.discard -= n;
        if (this.discard > 0) return;
      }
      if (this.bodyLength < 0) {
        if (!this.readHeader()) return;
        continue;
      }
      if (!this.readBody()) return;
    }
  }

  /** Returns true when progress was made. */
  private readHeader(): boolean {
    const text = this.buf.toString('latin1', 0, Math.min(this.buf.length, MAX_HEADER_BYTES * 2));
    const start = text.search(HEADER_START);
    if (start < 0) {
      // No header in sight: keep a short tail in case a header is split across chunks.
      if (this.buf.length > 32) {
        const junk = this.buf.length - 32;
        if (this.buf.subarray(0, junk).toString('latin1').trim().length > 0) this.error('garbage before message header');
        this.buf = this.buf.subarray(junk);
      }
      return false;
    }
    if (start > 0) {
      const junk = this.buf.subarray(0, start).toString('latin1');
      this.buf = this.buf.subarray(start);
      // header fields before Content-Length (`Content-Type: …`) belong to the header
      if (junk.trim().length > 0 && !HEADER_FIELDS.test(junk)) this.error('garbage before message header');
    }
    // (looked for within the limit only: a long run of header-like junk must not be rescanned whole each time)
    const end = this.buf.subarray(0, MAX_HEADER_BYTES + HEADER_END.length).indexOf(HEADER_END);
    if (end < 0) {
      if (this.buf.length > MAX_HEADER_BYTES) {
        // skip the too-long header, up to the last header start in it (a real one cut off by the limit)
        const head = this.buf.toString('latin1', 1, MAX_HEADER_BYTES);
        const starts = new RegExp(HEADER_START.source, 'gi');
        let skip = MAX_HEADER_BYTES;
        for (let m = starts.exec(head); m; m = starts.exec(head)) skip = 1 + m.index;
        this.buf = this.buf.subarray(skip);
        this.error('message header too long');
        return true;
      }
      return false;
    }
    const header = this.buf.toString('latin1', 0, end);
    this.buf = this.buf.subarray(end + HEADER_END.length);
    let length = -1;
    for (const line of header.split('\r\n')) {
      const m = /^\s*(?:content-length\s*:\s*)+(.*?)\s*$/i.exec(line);
      if (m) length = /^\d+$/.test(m[1]) ? Number(m[1]) : NaN;
    }
    if (!Number.isFinite(length)) {
      this.error('Content-Length is not a number');
      return true;
    }
    if (length > this.maxBytes) {
      this.discard = length;
      this.error(`message of ${length} bytes exceeds the limit of ${this.maxBytes}`);
      return true;
    }
    this.bodyLength = length;
    this.resyncing = false;
    return true;
  }

  private readBody(): boolean {
    const length = this.bodyLength;
    // A header inside the (pending) body means this frame's Content-Length was wrong.
    const window = this.buf.toString('latin1', 0, Math.min(this.buf.length, length + 64));
    const next = window.search(NEXT_HEADER);
    if (next >= 0 && next < length) {
      const body = this.buf.subarray(0, next);
      this.buf = this.buf.subarray(next);
      this.bodyLength = -1;
      this.emitBody(body, `Content-Length ${length} does not match the body`);
      return true;
    }
    if (this.buf.length < length) return false;
    const body = this.buf.subarray(0, length);
    this.buf = this.buf.subarray(length);
    this.bodyLength = -1;
    this.emitBody(body);
    return true;
  }

  private emitBody(body: Buffer, lengthProblem?: string): void {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch (e) {
      this.error(lengthProblem ?? `invalid JSON body: ${(e as Error).message}`);
      return;
    }
    // A too-long Content-Length whose body is still complete JSON: accept it.
    this.onFrame({ kind: 'message', raw: lengthProblem ? Buffer.from(body.toString('utf8').trim(), 'utf8') : body, value });
  }

  private error(reason: string): void {
    if (this.resyncing && (reason === 'garbage before message header' || reason === 'message header too long')) return;
    this.resyncing = true;
    this.onFrame({ kind: 'error', reason });
  }
}

export function encodeFrame(body: Buffer | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'latin1'), bytes]);
}
