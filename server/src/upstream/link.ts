/**
 * The connection to the prover, which outlives any one prover process.
 *
 * - State is a tagged union: starting (a fresh child is replaying the session),
 *   running, restarting (back-off timer), stopped.
 * - Editor requests forwarded here are tracked by id so their responses are
 *   matched; when the child goes away all of them are handed back (`onLost`) to be
 *   answered with an error.
 * - Our own requests use ids `"premise:<nonce>:N"` (the nonce random per link, so
 *   that no editor id can collide with one); their responses are consumed here and
 *   never reach the editor.
 * - Server→client requests are tracked so the editor's replies are routed back
 *   to the child that asked (replies meant for a dead child are dropped).
 * - A crash, an unexpected exit or a hang (silence while requests are waiting)
 *   triggers a restart with exponential back-off.
 * - The editor's `initialize` is not a hang (a prover may build for minutes before
 *   answering it); it has its own bound, `initializeTimeoutMs` of silence (no
 *   message and no stderr line), or INITIALIZE_TOTAL_FACTOR times that in all (a
 *   prover writing a stderr line every 500 ms never fell silent: issue 36 item 7,
 *   test/protocol/init-timeout.test.ts), after which `onInitializeTimeout` decides.
 * - Flow control: `holdOutput` stops reading the prover's stdout (the editor is not
 *   reading ours), `releaseOutput` reads on; `onPressure` says when the prover is
 *   not reading what is written to it.
 */
import { randomBytes } from 'node:crypto';
import { ChildTransport, type ChildSpec } from './child.js';
import type { Frame } from '../jsonrpc/framing.js';
import {
  classify,
  ErrorCodes,
  idKey,
  notification,
  request,
  RpcError,
  type Id,
  type NotificationMessage,
  type RequestMessage,
  type ResponseMessage,
} from '../jsonrpc/messages.js';

/** The editor's initialize waits at most this many times `initializeTimeoutMs` in all, however chatty the prover. */
export const INITIALIZE_TOTAL_FACTOR = 5;

export type UpstreamState =
  | { tag: 'starting'; child: ChildTransport; generation: number }
  | { tag: 'running'; child: ChildTransport; generation: number; since: number }
  | { tag: 'restarting'; generation: number; timer: NodeJS.Timeout }
  | { tag: 'stopped'; reason: string };

export interface Forwarded {
  msg: RequestMessage;
  sentAt: number;
}

/** Direct line to a fresh child, used to replay the session before it goes live. */
export interface ReplayChannel {
  request<T = unknown>(method: string, params: unknown): Promise<T>;
  notify(method: string, params: unknown): void;
}

export interface LinkHooks {
  onRequest(msg: RequestMessage, raw: Buffer): void;
  onNotification(msg: NotificationMessage, raw: Buffer): void;
  onResponse(req: Forwarded, msg: ResponseMessage, raw: Buffer): void;
  /** The child went away: answer these forwarded requests. */
  onLost(pending: Forwarded[], reason: string): void;
  /** A restarted child is up: replay initialize/initialized/open documents. */
  replay(channel: ReplayChannel): Promise<void>;
  /** A restart finished (or the link gave up: `ok` false). */
  onRestarted?(ok: boolean, detail: string): void;
  /** The editor's initialize has waited `limitMs` (`initializeTimeoutMs`) with no sign of life from the prover (called once). */
  onInitializeTimeout?(req: Forwarded, limitMs: number): void;
  /** The prover's stdin is full (`true`: stop sending to it) or drained (`false`). */
  onPressure?(full: boolean): void;
  log(level: 'error' | 'warn' | 'info' | 'debug', msg: string): void;
}

export interface LinkOptions {
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** Crashes allowed within `crashWindowMs` before giving up. */
  maxCrashes?: number;
  crashWindowMs?: number;
  /** Silence (no message at all) while a request waits this long = hang. 0 disables. */
  hangTimeoutMs?: number;
  /** Silence (no message, no stderr line) while the editor's initialize waits this long: `onInitializeTimeout`. 0 disables. */
  initializeTimeoutMs?: number;
}

type Queued = { kind: 'request'; msg: RequestMessage; raw: Buffer } | { kind: 'notification'; raw: Buffer };

interface Own {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: NodeJS.Timeout;
  method: string;
}

export class UpstreamLink {
  private st: UpstreamState = { tag: 'stopped', reason: 'not started' };
  private generation = 0;
  private readonly forwarded = new Map<string, Forwarded>();
  private readonly own = new Map<string, Own>();
  private readonly serverRequests = new Map<string, number>();
  private queue: Queued[] = [];
  private nextOwn = 1;
  /** Makes our ids unguessable: an editor request with the same id would take our reply, and we its. */
  private readonly ownPrefix = `premise:${randomBytes(4).toString('hex')}:`;
  private crashes: number[] = [];
  private attempt = 0;
  private expectingExit = false;
  private awaitingSince: number | null = null;
  /** Last message or stderr line from the prover. */
  private lastSign = 0;
  private initializeReported = false;
  private outputHeld = false;
  private watchdog?: NodeJS.Timeout;
  private readonly opts: Required<LinkOptions>;

  constructor(
    private spec: ChildSpec,
    private readonly hooks: LinkHooks,
    opts: LinkOptions = {},
  ) {
    this.opts = {
      restartDelayMs: opts.restartDelayMs ?? 500,
      maxRestartDelayMs: opts.maxRestartDelayMs ?? 30_000,
      maxCrashes: opts.maxCrashes ?? 5,
      crashWindowMs: opts.crashWindowMs ?? 180_000,
      hangTimeoutMs: opts.hangTimeoutMs ?? 300_000,
      initializeTimeoutMs: opts.initializeTimeoutMs ?? 0,
    };
  }

  get state(): UpstreamState {
    return this.st;
  }
  get live(): boolean {
    return this.st.tag === 'running';
  }
  get command(): ChildSpec {
    return this.spec;
  }

  /** First start: the editor's own initialize will follow, so nothing is replayed. */
  start(): void {
    const child = this.spawn();
    this.st = { tag: 'running', child, generation: this.generation, since: Date.now() };
    this.setHangTimeout(this.opts.hangTimeoutMs);
  }

  /** Change the hang limit (settings may arrive after start). 0 disables hang detection. */
  setHangTimeout(ms: number): void {
    this.opts.hangTimeoutMs = ms;
    this.startWatchdog();
  }

  /** Change the bound on the editor's initialize (settings arrive with it). 0: wait for ever. */
  setInitializeTimeout(ms: number): void {
    this.opts.initializeTimeoutMs = ms;
    this.startWatchdog();
  }

  private startWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = undefined;
    const limits = [this.opts.hangTimeoutMs, this.opts.initializeTimeoutMs].filter((ms) => ms > 0);
    if (limits.length > 0 && this.st.tag !== 'stopped') {
      const every = Math.max(25, Math.min(1000, Math.floor(Math.min(...limits) / 4)));
      this.watchdog = setInterval(() => this.checkHang(), every);
      this.watchdog.unref();
    }
  }

  /** Stop reading the prover's output (the editor is not reading ours); kept across restarts. */
  holdOutput(): void {
    this.outputHeld = true;
    const st = this.st;
    if (st.tag === 'running' || st.tag === 'starting') st.child.holdOutput();
  }

  releaseOutput(): void {
    this.outputHeld = false;
    const st = this.st;
    if (st.tag === 'running' || st.tag === 'starting') st.child.releaseOutput();
  }

  /** Forward an editor request unchanged; its response comes back via `onResponse`. */
  forwardRequest(msg: RequestMessage, raw: Buffer): void {
    this.enqueue({ kind: 'request', msg, raw });
  }

  forwardNotification(raw: Buffer): void {
    this.enqueue({ kind: 'notification', raw });
  }

  /** How many editor requests the prover has not answered yet (trials give way to them). */
  get editorRequestsWaiting(): number {
    return this.forwarded.size;
  }

  /** Is an editor request with this id forwarded (or queued) and not yet answered? */
  inFlight(id: Id): boolean {
    const key = idKey(id);
    return this.forwarded.has(key) || this.queue.some((q) => q.kind === 'request' && idKey(q.msg.id) === key);
  }

  /**
   * Stop waiting for the reply to a forwarded (or queued) editor request; a reply
   * that comes later is dropped. False when it was not pending (already answered).
   */
  abandon(id: Id): boolean {
    const key = idKey(id);
    const queued = this.queue.length;
    this.queue = this.queue.filter((q) => !(q.kind === 'request' && idKey(q.msg.id) === key));
    const found = this.forwarded.delete(key) || this.queue.length < queued;
    if (this.forwarded.size + this.own.size === 0) this.awaitingSince = null;
    return found;
  }

  /** The editor's reply to a server→client request. Unknown ids are not ours to route. */
  forwardResponse(msg: ResponseMessage, raw: Buffer): boolean {
    const key = idKey(msg.id);
    const gen = this.serverRequests.get(key);
    if (gen === undefined) return false;
    this.serverRequests.delete(key);
    if (gen === this.generation && this.live) this.send(raw);
    else this.hooks.log('debug', `dropping reply to ${key}: its server has restarted`);
    return true;
  }

  /**
   * Our own request, with an id the editor can never have used. `signal` cancels it:
   * the prover gets `$/cancelRequest` and the promise rejects with RequestCancelled.
   */
  request<T = unknown>(method: string, params: unknown, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
    if (!this.live) return Promise.reject(new RpcError(ErrorCodes.RequestFailed, `upstream is ${this.st.tag}`));
    if (opts.signal?.aborted) return Promise.reject(new RpcError(ErrorCodes.RequestCancelled, `${method} cancelled`));
    return this.ownRequest<T>(method, params, opts.timeoutMs, true, undefined, opts.signal);
  }

  notify(method: string, params: unknown): void {
    if (this.live) this.send(notification(method, params));
  }

  /** `shutdown` was forwarded: the coming exit is expected, do not restart. */
  expectExit(): void {
    this.expectingExit = true;
  }

  /** Stop for good (after `exit`). Resolves once the child is gone. */
  stop(graceMs = 2000): Promise<void> {
    this.expectingExit = true;
    if (this.watchdog) clearInterval(this.watchdog);
    const st = this.st;
    if (st.tag === 'restarting') clearTimeout(st.timer);
    if (st.tag === 'running' || st.tag === 'starting') {
      const child = st.child;
      return new Promise((resolve) => {
        const t = setInterval(() => {
          if (!child.alive) {
            clearInterval(t);
            resolve();
          }
        }, 20);
        child.stop(graceMs);
      });
    }
    this.st = { tag: 'stopped', reason: 'stopped' };
    return Promise.resolve();
  }

  /** Kill the current child (tests, hang handling, explicit restart command). */
  kill(reason: string): void {
    const st = this.st;
    if (st.tag === 'running' || st.tag === 'starting') {
      this.hooks.log('warn', `killing upstream: ${reason}`);
      this.lostReason = reason;
      st.child.kill();
    }
  }
  private lostReason: string | undefined;

  // ---------------------------------------------------------------- internals

  private spawn(): ChildTransport {
    this.generation += 1;
    const gen = this.generation;
    this.hooks.log('info', `starting upstream: ${[this.spec.command, ...this.spec.args].join(' ')}`);
    const child = new ChildTransport(this.spec, {
      onFrame: (f) => {
        if (gen === this.generation) this.onFrame(f);
      },
      onExit: (info) => {
        if (gen === this.generation) this.onExit(info);
      },
      onStderr: (line) => {
        if (gen === this.generation) this.lastSign = Date.now();
        this.hooks.log('debug', `[upstream] ${line}`);
      },
      onPressure: (full) => {
        if (gen === this.generation) this.hooks.onPressure?.(full);
      },
    });
    if (this.outputHeld) child.holdOutput();
    return child;
  }

  private send(body: Buffer | object): void {
    const st = this.st;
    if (st.tag === 'running' || st.tag === 'starting') st.child.send(body);
  }

  /** Send now when running, hold while (re)starting, fail requests when stopped. */
  private enqueue(item: Queued): void {
    if (this.live) this.deliver(item);
    else if (this.st.tag === 'stopped') this.failQueued([item]);
    else this.queue.push(item);
  }

  private deliver(item: Queued): void {
    if (item.kind === 'request') {
      this.forwarded.set(idKey(item.msg.id), { msg: item.msg, sentAt: Date.now() });
      this.noteSent(item.msg.method);
    }
    this.send(item.raw);
  }

  private failQueued(items: Queued[]): void {
    const lost: Forwarded[] = [];
    for (const it of items) if (it.kind === 'request') lost.push({ msg: it.msg, sentAt: Date.now() });
    const reason = this.st.tag === 'stopped' ? this.st.reason : 'upstream unavailable';
    if (lost.length > 0) this.hooks.onLost(lost, `upstream server is not running (${reason})`);
  }

  private ownRequest<T>(method: string, params: unknown, timeoutMs: number | undefined, viaState: boolean, child?: ChildTransport, signal?: AbortSignal): Promise<T> {
    const id: Id = `${this.ownPrefix}${this.nextOwn++}`;
    const key = idKey(id);
    return new Promise<T>((resolve, reject) => {
      const giveUp = (why: string) => {
        const entry = this.own.get(key);
        if (!entry || !this.own.delete(key)) return;
        if (entry.timer) clearTimeout(entry.timer);
        signal?.removeEventListener('abort', onAbort);
        // Isabelle never answers unknown requests; Lean honours cancellation.
        if (child) child.send(notification('$/cancelRequest', { id }));
        else this.send(notification('$/cancelRequest', { id }));
        reject(new RpcError(ErrorCodes.RequestCancelled, `${method} ${why}`));
      };
      const onAbort = () => giveUp('cancelled');
      const settle = (f: (v: never) => void) => (v: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        f(v as never);
      };
      const entry: Own = { resolve: settle(resolve as (v: unknown) => void), reject: settle(reject), method };
      if (timeoutMs !== undefined && timeoutMs > 0) entry.timer = setTimeout(() => giveUp(`timed out after ${timeoutMs} ms`), timeoutMs);
      this.own.set(key, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (viaState) {
        this.noteSent(method);
        this.send(request(id, method, params));
      } else child!.send(request(id, method, params));
    });
  }

  private noteSent(method: string): void {
    if (method === 'initialize') return;
    if (this.awaitingSince === null) this.awaitingSince = Date.now();
  }

  private onFrame(f: Frame): void {
    this.lastSign = Date.now();
    if (f.kind === 'error') {
      this.hooks.log('warn', `unreadable message from upstream: ${f.reason}`);
      return;
    }
    const values = Array.isArray(f.value) ? f.value : [f.value];
    for (const v of values) {
      const raw = values.length === 1 ? f.raw : Buffer.from(JSON.stringify(v), 'utf8');
      try {
        this.onMessage(v, raw);
      } catch (e) {
        // a message we cannot handle must not take the server down with it
        this.hooks.log('error', `handling a message from upstream: ${(e as Error).stack ?? e}`);
      }
    }
  }

  private onMessage(value: unknown, raw: Buffer): void {
    this.awaitingSince = this.forwarded.size + this.own.size > 0 ? Date.now() : null;
    const m = classify(value, raw);
    switch (m.kind) {
      case 'invalid':
        this.hooks.log('warn', `invalid message from upstream: ${m.reason}`);
        return;
      case 'notification':
        this.hooks.onNotification(m.msg, raw);
        return;
      case 'request':
        this.serverRequests.set(idKey(m.msg.id), this.generation);
        this.hooks.onRequest(m.msg, raw);
        return;
      case 'response': {
        const key = idKey(m.msg.id);
        const mine = this.own.get(key);
        if (mine) {
          this.own.delete(key);
          if (mine.timer) clearTimeout(mine.timer);
          if (m.msg.error) mine.reject(new RpcError(m.msg.error.code, m.msg.error.message, m.msg.error.data));
          else mine.resolve(m.msg.result);
          return;
        }
        const fwd = this.forwarded.get(key);
        if (fwd) {
          this.forwarded.delete(key);
          this.hooks.onResponse(fwd, m.msg, raw);
          return;
        }
        this.hooks.log('debug', `response to unknown id ${key} dropped`);
      }
    }
  }

  private checkHang(): void {
    if (this.st.tag !== 'running') return;
    const init = [...this.forwarded.values()].find((f) => f.msg.method === 'initialize');
    if (init) {
      // not a hang (Isabelle builds its session first): bounded by its own limit, counted from the last sign of life
      // and by a multiple of it in all: a prover that writes a line now and then never falls silent
      const limit = this.opts.initializeTimeoutMs;
      const silent = Date.now() - Math.max(init.sentAt, this.lastSign);
      const total = limit * INITIALIZE_TOTAL_FACTOR;
      if (limit > 0 && !this.initializeReported && (silent > limit || Date.now() - init.sentAt > total)) {
        this.initializeReported = true;
        this.hooks.onInitializeTimeout?.(init, silent > limit ? limit : total);
      }
      return;
    }
    if (this.awaitingSince === null) return;
    if (this.forwarded.size + this.own.size === 0) {
      this.awaitingSince = null;
      return;
    }
    const silent = Date.now() - this.awaitingSince;
    if (silent > this.opts.hangTimeoutMs) this.kill(`no answer for ${silent} ms (hang)`);
  }

  private onExit(info: { code: number | null; signal: NodeJS.Signals | null; error?: Error }): void {
    const how = info.error
      ? `could not start (${info.error.message})`
      : info.signal
        ? `was killed by ${info.signal}`
        : `exited with code ${info.code}`;
    const reason = this.lostReason ? `upstream server ${how}: ${this.lostReason}` : `upstream server ${how}`;
    this.lostReason = undefined;
    this.awaitingSince = null;
    const lost = [...this.forwarded.values()];
    this.forwarded.clear();
    for (const [, o] of this.own) {
      if (o.timer) clearTimeout(o.timer);
      o.reject(new RpcError(ErrorCodes.RequestFailed, `${reason} during ${o.method}`));
    }
    this.own.clear();
    this.serverRequests.clear();
    const wasRunning = this.st.tag === 'running' ? this.st.since : undefined;
    if (this.expectingExit) {
      this.st = { tag: 'stopped', reason };
      if (lost.length) this.hooks.onLost(lost, reason);
      const q = this.queue;
      this.queue = [];
      this.failQueued(q);
      return;
    }
    this.hooks.log('error', reason);
    // A missing program will not appear by retrying.
    const fatal = (info.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    const restarting = this.scheduleRestart(reason, wasRunning, fatal);
    if (lost.length) this.hooks.onLost(lost, restarting ? `${reason}; restarting it` : reason);
  }

  /** Returns false when it gave up (state `stopped`). */
  private scheduleRestart(reason: string, runningSince: number | undefined, fatal: boolean): boolean {
    const now = Date.now();
    if (runningSince !== undefined && now - runningSince > 60_000) this.attempt = 0;
    this.crashes = this.crashes.filter((t) => now - t < this.opts.crashWindowMs);
    this.crashes.push(now);
    if (fatal || this.crashes.length > this.opts.maxCrashes) {
      const why = fatal ? reason : `${reason}; giving up after ${this.crashes.length} crashes`;
      this.st = { tag: 'stopped', reason: why };
      if (this.watchdog) clearInterval(this.watchdog);
      this.hooks.onRestarted?.(false, why);
      const q = this.queue;
      this.queue = [];
      this.failQueued(q);
      return false;
    }
    const delay = Math.min(this.opts.maxRestartDelayMs, this.opts.restartDelayMs * 2 ** this.attempt);
    this.attempt += 1;
    this.hooks.log('info', `restarting upstream in ${delay} ms`);
    const timer = setTimeout(() => void this.restart(), delay);
    this.st = { tag: 'restarting', generation: this.generation, timer };
    return true;
  }

  private async restart(): Promise<void> {
    const child = this.spawn();
    const gen = this.generation;
    this.st = { tag: 'starting', child, generation: gen };
    const channel: ReplayChannel = {
      // initialize may take minutes (Isabelle): never time it out.
      request: (method, params) => this.ownRequest(method, params, undefined, false, child),
      notify: (method, params) => child.send(notification(method, params)),
    };
    try {
      await this.hooks.replay(channel);
    } catch (e) {
      // It died during replay: onExit has already taken over.
      if (this.st.tag !== 'starting' || this.st.generation !== gen) return;
      this.hooks.log('error', `replaying the session failed: ${(e as Error).message}`);
      this.kill('replay failed');
      return;
    }
    if (gen !== this.generation || !child.alive) return;
    this.st = { tag: 'running', child, generation: gen, since: Date.now() };
    this.hooks.onRestarted?.(true, 'upstream restarted');
    const q = this.queue;
    this.queue = [];
    for (const item of q) this.deliver(item);
  }
}
