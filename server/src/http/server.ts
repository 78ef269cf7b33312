/**
 * node:http transport for the LeanHammer-compatible API: bounded bodies (413),
 * bounded concurrent work (a queue, then 503 with Retry-After), JSON, errors that
 * never stop the server. A refused request's body is read and discarded before
 * the answer, so a client still sending gets its 413 or 503, not a connection
 * reset (closing a socket with unread input resets it).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { finished } from 'node:stream/promises';
import type { LeanHammerApi } from './leanhammer.js';
import { WorkQueue } from './queue.js';

/**
 * Largest request body. A real caller's biggest request is LeanHammer's: up to
 * 2,048 new premises (`/max-new-premises`) of a few KB each (a long Mathlib
 * signature with its docstring is 1-4 KB as JSON), about 8 MB at 4 KB each, plus
 * `local_premises` (all 245,211 Mathlib indices as JSON: 1.7 MB). 16 MiB leaves
 * headroom for that and bounds what one request can make the server hold.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Requests worked on at once (the engine runs on one thread; the encoder takes one batch at a time). */
export const MAX_ACTIVE = 4;
/** Requests waiting for a turn; beyond this, 503. */
export const MAX_QUEUED = 64;
/**
 * Most time a request being worked on may take to send its body: it holds one of
 * the MAX_ACTIVE places meanwhile, so without this 4 clients that stall mid-body
 * would keep every other caller waiting (up to node's 300 s request timeout).
 */
export const BODY_TIMEOUT_MS = 10_000;
/** What a 503 tells the client to wait, in seconds. */
export const RETRY_AFTER_S = 1;

export interface ApiServerOptions {
  maxBodyBytes?: number;
  maxActive?: number;
  maxQueued?: number;
  bodyTimeoutMs?: number;
}

class TooLarge extends Error {}
class TooSlow extends Error {}

/**
 * The body as text; TooLarge as soon as it passes `limit`, the rest then read and discarded;
 * TooSlow when it has not all come within `timeoutMs`.
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = (e: Error) => {
      clearTimeout(timer);
      req.off('data', onData);
      chunks = [];
      reject(e);
    };
    const timer = setTimeout(() => stop(new TooSlow()), timeoutMs);
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= limit) return void chunks.push(c);
      req.resume();
      stop(new TooLarge());
    };
    req.on('data', onData);
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', stop);
  });
}

export function createApiServer(api: LeanHammerApi, log: (line: string) => void, opts: ApiServerOptions = {}): Server {
  const limit = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const bodyTimeout = opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const queue = new WorkQueue(opts.maxActive ?? MAX_ACTIVE, opts.maxQueued ?? MAX_QUEUED);
  return createServer(async (req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    // the body is discarded as it comes (nothing held), then answered; the connection is closed
    // after the answer (with nothing left unread, so cleanly): a client reusing it raced the close
    const refuse = async (status: number, error: string, headers?: Record<string, string>) => {
      req.resume();
      await finished(req).catch(() => undefined);
      send(status, { error }, { ...headers, connection: 'close' });
    };
    const tooLarge = () => refuse(413, `request body over ${limit} bytes (${(limit / 2 ** 20).toFixed(0)} MiB)`);
    if (Number(req.headers['content-length'] ?? 0) > limit) return tooLarge();
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const entered = queue.enter(gone.signal);
    if (!entered) {
      const { active, queued } = queue.load;
      return refuse(503, `busy: ${active} requests in progress and ${queued} waiting; retry in ${RETRY_AFTER_S} s`, { 'retry-after': String(RETRY_AFTER_S) });
    }
    const release = await entered;
    if (!release) return; // the client left while waiting
    try {
      const body = req.method === 'POST' ? await readBody(req, limit, bodyTimeout) : '';
      const r = await api.handle(req.method ?? 'GET', req.url ?? '/', body);
      send(r.status, r.body);
    } catch (e) {
      if (e instanceof TooLarge) return tooLarge();
      if (e instanceof TooSlow) {
        // the client still owes input: close the connection once answered, reading nothing more
        res.on('finish', () => req.socket.destroy());
        return send(408, { error: `request body not received within ${bodyTimeout / 1000} s` }, { connection: 'close' });
      }
      if (req.readableAborted) return; // the client left mid-body: no one to answer, nothing wrong here
      log(`${req.method} ${req.url}: ${(e as Error).stack ?? e}`);
      send(500, { error: (e as Error).message });
    } finally {
      release();
    }
  });
}
