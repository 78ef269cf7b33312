/**
 * The client end of a framed JSON-RPC connection, over a child's stdio or any
 * pair of streams: requests resolve with the whole response message (result or
 * error), server→client requests are answered (null unless told otherwise), and
 * every message can be observed. The benchmark and the protocol test harness
 * both speak to language servers through it.
 */
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameDecoder } from './framing.js';

export type Msg = { jsonrpc: '2.0'; id?: number | string | null; method?: string; params?: any; result?: any; error?: { code: number; message: string; data?: unknown } };

export interface ClientOptions {
  /** The result for a server→client request; `undefined` = null. */
  answer?: (msg: Msg) => unknown;
  /** Sees every message, received (`in`) or sent (`out`), in order. */
  observe?: (dir: 'in' | 'out', msg: Msg) => void;
  /** Reject `waitFor`/`request` after this long (default: wait forever). */
  timeoutMs?: number;
  /** Appended to timeout errors (e.g. the server's stderr). */
  describe?: () => string;
}

export class JsonRpcClient {
  /** Every message received, in order. */
  readonly received: Msg[] = [];
  private nextId = 1;
  private waiters: Array<{ pred: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
  private readonly decoder = new FrameDecoder((f) => {
    if (f.kind === 'message') this.onMessage(f.value as Msg);
  });

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly opts: ClientOptions = {},
  ) {
    input.on('data', (d: Buffer) => this.decoder.push(d));
  }

  private onMessage(msg: Msg): void {
    this.opts.observe?.('in', msg);
    this.received.push(msg);
    if (msg.method !== undefined && msg.id !== undefined) {
      const r = this.opts.answer?.(msg);
      this.send({ jsonrpc: '2.0', id: msg.id, result: r === undefined ? null : r });
    }
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred(msg)) return true;
      w.resolve(msg);
      return false;
    });
  }

  send(msg: Msg): void {
    this.opts.observe?.('out', msg);
    this.writeRaw(JSON.stringify(msg));
  }

  /** Write a body with its own header (default: a correct Content-Length), for malformed-input tests. */
  writeRaw(body: string | Buffer, header?: string): void {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.output.write(header === undefined ? encodeFrame(bytes) : Buffer.concat([Buffer.from(header, 'latin1'), bytes]));
  }

  /** Send a request; resolves with the whole response message (result or error). */
  request(method: string, params?: unknown, id: number | string = this.nextId++): Promise<Msg> {
    const p = this.waitFor((m) => m.id === id && m.method === undefined);
    this.send({ jsonrpc: '2.0', id, method, params });
    return p;
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Next message (from now, or already received if `past`) matching `pred`. */
  waitFor(pred: (m: Msg) => boolean, opts: { past?: boolean; timeoutMs?: number } = {}): Promise<Msg> {
    if (opts.past) {
      const hit = this.received.find(pred);
      if (hit) return Promise.resolve(hit);
    }
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs;
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => reject(new Error(`timed out waiting for a message${this.opts.describe ? `; ${this.opts.describe()}` : ''}`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }
}
