/**
 * node:http transport for the LeanHammer-compatible API: bounded bodies (413; all
 * bodies held at once bounded too), read before a request takes a work place and
 * timed from its arrival (408), bounded concurrent work (a queue, then 503 with
 * Retry-After), explicit connection timeouts and cap, a stop that closes held
 * connections after a grace, JSON, errors that never stop the server and never
 * carry its detail to a caller. A refused request's body is read and discarded before
 * the answer, so a client still sending gets its 413 or 503, not a connection
 * reset (closing a socket with unread input resets it).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { finished } from 'node:stream/promises';
import type { HttpApi } from './routes.js';
import { WorkQueue, type Release } from './queue.js';

/**
 * Largest request body by default (`http --max-body-mib` sets another). A body is
 * parsed in one synchronous `JSON.parse`, about 55 ms per MiB, while every other
 * caller waits: 16 MiB held them for 0.9 s. A real caller's biggest request is
 * LeanHammer's: every imported premise's position in `local_premises` (all of
 * Mathlib's as JSON: about 2 MB), with new premises whose declarations together
 * are bounded by MAX_NEW_PREMISE_CHARS (leanhammer.ts). 4 MiB takes that and
 * bounds one body's parse to about 0.2 s.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/**
 * Largest request line and headers. The search clients send their query in the URL
 * (`/json?q=`, `/api/search?query=`): a proof state of a few thousand characters is
 * three times as long percent-encoded, past node's default 16 KiB. Beyond, 431 `{error}`.
 */
export const MAX_HEADER_BYTES = 64 * 1024;
/** How long the rest of a request node could not read is read and discarded before its connection is closed. */
const DISCARD_MS = 2_000;
/** Requests worked on at once (the engine runs on one thread; the encoder takes one batch at a time). */
export const MAX_ACTIVE = 4;
/** Requests waiting for a turn; beyond this, 503. */
export const MAX_QUEUED = 64;
/**
 * Most time a request may take to send its body, counted from its arrival. Bodies are read before
 * a request takes one of the MAX_ACTIVE work places, so a client that stalls mid-body holds no
 * place, only its connection, until this runs out (then 408).
 */
export const BODY_TIMEOUT_MS = 10_000;
/**
 * Most bytes of bodies being read or held at once, all requests together: 32 bodies at the
 * default MAX_BODY_BYTES limit, 37 of LeanHammer's largest real request on Mathlib (about 3.4 MB). A
 * request whose body would pass it gets 503 with Retry-After, as when the queue is full.
 */
export const MAX_BUFFERED_BYTES = 128 * 1024 * 1024;
/** What a 503 tells the client to wait, in seconds. */
export const RETRY_AFTER_S = 1;
/** Most time a connection may take to send a request's headers, from its first byte (node's `headersTimeout`). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Most time a connection may take to send a whole request, headers and body (node's `requestTimeout`). */
export const REQUEST_TIMEOUT_MS = 20_000;
/** How long a kept-alive connection may sit idle between requests (node's `keepAliveTimeout`). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/**
 * How long a connection may send nothing while none of its requests is being worked on: one that
 * opens and never sends a byte is closed after this, with nothing written. Shorter than the header
 * timeout, so that idle connections are the first to go (issue 36 item 4).
 */
export const IDLE_TIMEOUT_MS = 5_000;
/**
 * Most connections open at once. A connection past it closes the oldest idle one (none of its
 * requests being worked on: silent, between requests, or still sending headers) to make room,
 * or is itself closed when every other is being answered: idle connections, reopened as soon as
 * they are closed, never lock a caller out (test/unit/http-server.test.ts).
 */
export const MAX_CONNECTIONS = 256;
/** Node's own cap (`maxConnections`), a backstop for a burst of connections faster than closed ones go: twice ours. */
const NODE_MAX_CONNECTIONS = 2 * MAX_CONNECTIONS;
/** How often node checks the header and request timeouts (its default, 30 s, would stretch them). */
const TIMEOUT_CHECK_MS = 1_000;
/** On SIGTERM/SIGINT, how long requests being answered get before every connection is closed. */
export const SHUTDOWN_GRACE_MS = 2_000;

export interface ApiServerOptions {
  maxBodyBytes?: number;
  maxActive?: number;
  maxQueued?: number;
  bodyTimeoutMs?: number;
  maxBufferedBytes?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  idleTimeoutMs?: number;
  maxConnections?: number;
}

class TooLarge extends Error {}
class TooSlow extends Error {}
class OverBudget extends Error {}

/** Body bytes held by all requests together, against MAX_BUFFERED_BYTES. */
interface Budget {
  used: number;
  readonly max: number;
}

/**
 * The body as text; TooLarge as soon as it passes `limit`, OverBudget as soon as all bodies together
 * pass `budget.max` (the rest then read and discarded); TooSlow when it has not all come within
 * `timeoutMs`. What it holds counts against `budget` until `hold.release()` (the request's end).
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number, budget: Budget, hold: { bytes: number }): Promise<string> {
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
      if (size > limit || budget.used + c.length > budget.max) {
        req.resume();
        return stop(size > limit ? new TooLarge() : new OverBudget());
      }
      budget.used += c.length;
      hold.bytes += c.length;
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', stop);
    // a connection closed mid-body (by the client, or at shutdown) ends the wait at once
    req.on('close', () => req.complete || stop(new Error('the client closed the connection mid-body')));
  });
}

export function createApiServer(api: HttpApi, log: (line: string) => void, opts: ApiServerOptions = {}): Server {
  const limit = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const bodyTimeout = opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const maxActive = opts.maxActive ?? MAX_ACTIVE;
  const maxQueued = opts.maxQueued ?? MAX_QUEUED;
  const queue = new WorkQueue(maxActive, maxQueued);
  // pattern searches (the engine matches one at a time, in slices) wait in a lane of their own: never in the others' places
  const patternQueue = new WorkQueue(1, maxQueued);
  const budget: Budget = { used: 0, max: opts.maxBufferedBytes ?? MAX_BUFFERED_BYTES };
  /** Requests taken in: their bodies being read, waiting for a work place, or worked on. */
  let admitted = 0;
  /** Connections with a request being answered: the idle timeout spares them. */
  const busy = new Map<Socket, number>();
  /** Open connections, the one idle longest first (moved to the end when a request of its ends). */
  const open = new Set<Socket>();
  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = createServer(
    { maxHeaderSize: MAX_HEADER_BYTES, headersTimeout, requestTimeout: Math.max(headersTimeout, opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS), keepAliveTimeout: opts.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS, connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, headersTimeout) },
    async (req, res) => {
      const socket = req.socket;
      busy.set(socket, (busy.get(socket) ?? 0) + 1);
      res.on('close', () => {
        const n = (busy.get(socket) ?? 1) - 1;
        if (n > 0) busy.set(socket, n);
        else busy.delete(socket);
        // idle from now: the newest of the idle ones
        if (open.delete(socket)) open.add(socket);
      });
      const send = (status: number, body: unknown, headers: Record<string, string> = {}, text?: string) => {
        if (res.headersSent || res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(text ?? JSON.stringify(body));
      };
      // the body is discarded as it comes (nothing held), then answered; the connection is closed
      // after the answer (with nothing left unread, so cleanly): a client reusing it raced the close
      const refuse = async (status: number, error: string, headers?: Record<string, string>) => {
        req.resume();
        await finished(req).catch(() => undefined);
        send(status, { error }, { ...headers, connection: 'close' });
      };
      const tooLarge = () => refuse(413, `request body over ${limit} bytes (${(limit / 2 ** 20).toFixed(0)} MiB)`);
      const busyNow = () =>
        refuse(503, `busy: ${admitted} requests taken in (at most ${maxActive} worked on at once, ${maxQueued} more waiting); retry in ${RETRY_AFTER_S} s`, {
          'retry-after': String(RETRY_AFTER_S),
        });
      if (Number(req.headers['content-length'] ?? 0) > limit) return tooLarge();
      if (admitted >= maxActive + maxQueued) return busyNow();
      admitted++;
      const hold = { bytes: 0 };
      let release: Release | undefined;
      try {
        // the body first, timed from the request's arrival: a client slow to send it holds no work place
        const body = req.method === 'POST' ? await readBody(req, limit, bodyTimeout, budget, hold) : '';
        const gone = new AbortController();
        res.on('close', () => gone.abort());
        const lane = api.lane?.(req.method ?? 'GET', req.url ?? '/', body) ?? 'normal';
        const entered = lane === 'pattern' ? patternQueue.enter(gone.signal) : queue.enter(gone.signal, lane === 'prover');
        if (!entered) return send(503, { error: 'busy' }, { 'retry-after': String(RETRY_AFTER_S) }); // cannot happen: admitted bounds the queue
        release = await entered;
        if (!release) return; // the client left while waiting
        const r = await api.handle(req.method ?? 'GET', req.url ?? '/', body);
        send(r.status, r.body, r.headers, r.text);
      } catch (e) {
        if (e instanceof TooLarge) return tooLarge();
        if (e instanceof OverBudget) return busyNow();
        if (e instanceof TooSlow) {
          // the client still owes input: close the connection once answered, reading nothing more
          res.on('finish', () => req.socket.destroy());
          return send(408, { error: `request body not received within ${bodyTimeout / 1000} s` }, { connection: 'close' });
        }
        if (req.readableAborted || (req.destroyed && !req.complete)) return; // the client left mid-body: no one to answer, nothing wrong here
        // the detail (a path on this machine, a stack) goes to the log, never to a remote caller
        log(`${req.method} ${req.url}: ${(e as Error).stack ?? e}`);
        send(500, { error: 'internal error: the request could not be answered (the server log has the detail)' });
      } finally {
        release?.();
        admitted--;
        budget.used -= hold.bytes;
        hold.bytes = 0;
      }
    },
  );
  const cap = opts.maxConnections ?? MAX_CONNECTIONS;
  server.maxConnections = opts.maxConnections === undefined ? NODE_MAX_CONNECTIONS : 2 * cap;
  // past the cap, the oldest idle connection makes room; when none is idle, the new one is closed
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    if (open.size <= cap) return;
    let victim = socket;
    for (const s of open) {
      if (s !== socket && !busy.has(s)) {
        victim = s;
        break;
      }
    }
    open.delete(victim);
    victim.destroy();
  });
  // what node answers a request it cannot read (as its own default does), with a JSON {error} body; the
  // rest of what the client sends is read and discarded for a moment, so that it gets the answer, not a reset
  const answered = new WeakSet<Socket>();
  server.on('clientError', (e: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    // (a kept-alive connection whose earlier answers are all sent takes one too; one mid-answer is closed)
    if (!socket.writable || busy.has(socket) || e.code === 'ECONNRESET') return void socket.destroy(e);
    answered.add(socket);
    const [status, reason, error] =
      e.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', `the request line and headers are over ${MAX_HEADER_BYTES} bytes (a query string that long: send less)`]
        : e.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'the request was not received in time']
          : [400, 'Bad Request', 'the request is not valid HTTP'];
    const body = JSON.stringify({ error });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    socket.resume();
    setTimeout(() => socket.destroy(), DISCARD_MS).unref();
  });
  // a connection silent while nothing of its is being answered (never a byte, or idle between
  // requests) is closed; one whose request is being worked on is left alone however long it takes
  server.setTimeout(opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS, (socket: Socket) => {
    if (!busy.has(socket)) socket.destroy();
  });
  return server;
}

/**
 * Stops `server` (SIGTERM, SIGINT): no new connections, idle ones closed at once, and every other
 * one (a request being answered, half-sent or silent) after `graceMs`. Resolves once all are closed.
 */
export function stopApiServer(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  return new Promise((resolve) => {
    const all = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(all);
      resolve();
    });
    server.closeIdleConnections();
  });
}
