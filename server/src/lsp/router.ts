/**
 * The message router: every editor message and every upstream message passes
 * through here. Editor messages are dispatched through the handler table
 * (`handlers.ts`); what no handler takes is forwarded as its exact bytes, with
 * ids and params unchanged. Intercepted requests are forwarded too, and their
 * responses are transformed (merged with premise results) on the way back.
 *
 * Invariants (test/protocol/transparency.test.ts, crash.test.ts, malformed.test.ts):
 * what no handler takes reaches the other side as the exact bytes received;
 * replies to the editor keep the editor's ids; every editor request gets exactly
 * one reply, even when the prover crashes, hangs or never answers.
 */
import type { Frame } from '../jsonrpc/framing.js';
import type { LinkHooks, ReplayChannel, UpstreamLink } from '../upstream/link.js';
import {
  classify,
  ErrorCodes,
  idKey,
  RpcError,
  success,
  type Id,
  type NotificationMessage,
  type RequestMessage,
  type ResponseMessage,
} from '../jsonrpc/messages.js';
import { upstreamAdvertises, upstreamTriggerCharacters } from './capabilities.js';
import type { EditorChannel } from './editor.js';
import type { HandlerContext, RouterOptions, Transform } from './handler-context.js';
import { BEFORE_INITIALIZE, handlerTable, type HandlerTable } from './handlers.js';
import { Lifecycle, type LifecycleHost } from './lifecycle.js';
import type { Session } from './session.js';

export type { RouterOptions, Transform };

export class Router implements HandlerContext, LifecycleHost {
  private readonly transforms = new Map<string, Transform>();
  private readonly local = new Map<string, { cancelled: boolean; abort: AbortController }>();
  /** s→c `client/registerCapability` request id → registration ids, until the editor replies. */
  private readonly registering = new Map<string, string[]>();
  private readonly registered = new Set<string>();
  private restarted = false;
  readonly lifecycle: Lifecycle;
  private readonly handlers: HandlerTable;

  constructor(
    readonly session: Session,
    readonly editor: EditorChannel,
    readonly options: RouterOptions,
  ) {
    this.lifecycle = new Lifecycle(this);
    this.handlers = handlerTable(this, this.lifecycle);
  }

  get hasUpstream(): boolean {
    return !!this.session.link;
  }

  get upstreamStopped(): boolean {
    return this.link?.state.tag === 'stopped';
  }

  get link(): UpstreamLink | undefined {
    return this.session.link;
  }

  // ------------------------------------------------------------ editor → us

  onEditorFrame(frame: Frame): void {
    if (frame.kind === 'error') {
      this.session.log.warn(`unreadable message from the editor: ${frame.reason}`);
      this.editor.replyError(null, ErrorCodes.ParseError, `premise-lsp: ${frame.reason}`);
      return;
    }
    if (Array.isArray(frame.value)) {
      if (frame.value.length === 0) this.editor.replyError(null, ErrorCodes.InvalidRequest, 'premise-lsp: empty batch');
      for (const v of frame.value) this.onEditorValue(v, Buffer.from(JSON.stringify(v), 'utf8'));
      return;
    }
    this.onEditorValue(frame.value, frame.raw);
  }

  private onEditorValue(value: unknown, raw: Buffer): void {
    const m = classify(value, raw, { requireVersion: true });
    try {
      switch (m.kind) {
        case 'invalid':
          this.editor.replyError(m.id, ErrorCodes.InvalidRequest, `premise-lsp: invalid request: ${m.reason}`);
          return;
        case 'response':
          this.onEditorResponse(m.msg, raw);
          return;
        case 'notification':
          this.onEditorNotification(m.msg, raw);
          return;
        case 'request':
          this.onEditorRequest(m.msg, raw);
          return;
      }
    } catch (e) {
      this.session.log.error(`handling ${'msg' in m ? ((m.msg as { method?: string }).method ?? 'response') : 'message'}: ${(e as Error).stack ?? e}`);
      if (m.kind === 'request') this.editor.replyError(m.msg.id, ErrorCodes.InternalError, `premise-lsp: ${(e as Error).message}`);
    }
  }

  private onEditorResponse(msg: ResponseMessage, raw: Buffer): void {
    if (this.editor.handleResponse(msg)) return;
    const key = idKey(msg.id);
    const regs = this.registering.get(key);
    if (regs) {
      this.registering.delete(key);
      if (!msg.error) for (const r of regs) this.registered.add(r);
    }
    if (this.link?.forwardResponse(msg, raw)) return;
    this.session.log.debug(`editor reply to unknown request ${key} dropped`);
  }

  private onEditorRequest(msg: RequestMessage, raw: Buffer): void {
    if (!BEFORE_INITIALIZE.has(msg.method) && !this.session.initParams && !this.link) {
      this.editor.replyError(msg.id, ErrorCodes.ServerNotInitialized, 'premise-lsp: initialize first');
      return;
    }
    if (this.session.shutdownRequested) {
      // as the LSP says (and Lean does): after shutdown only exit
      this.editor.replyError(msg.id, ErrorCodes.InvalidRequest, `premise-lsp: ${msg.method} received after shutdown`);
      return;
    }
    const key = idKey(msg.id);
    if (this.local.has(key) || this.transforms.has(key) || this.link?.inFlight(msg.id)) {
      // the pending one keeps its id (and its reply); this one could not be told apart from it
      this.editor.replyError(msg.id, ErrorCodes.InvalidRequest, `premise-lsp: request id ${JSON.stringify(msg.id)} is already used by a pending request`);
      return;
    }
    const handler = this.handlers.requests.get(msg.method);
    if (handler && handler(msg, raw) !== false) return;
    this.forward(msg, raw);
  }

  private onEditorNotification(msg: NotificationMessage, raw: Buffer): void {
    const handler = this.handlers.notifications.get(msg.method) ?? this.handlers.otherNotification;
    if (handler(msg, raw) !== false) return;
    this.link?.forwardNotification(raw);
  }

  /** Document sync goes out only while the prover is live; a restarted one gets the current text. */
  forwardDocSync(raw: Buffer): void {
    if (this.link?.live) this.link.forwardNotification(raw);
  }

  // ----------------------------------------------------------- forwarding

  /** Does the upstream take this request? (Unknown before its initialize reply: assume yes.) */
  upstreamTakes(method: string, params?: unknown): boolean {
    // a prover given up (or gone) takes nothing: premise requests are answered here, with premises alone
    if (!this.link || this.upstreamStopped) return false;
    if (!this.session.upstreamCaps) return true;
    return upstreamAdvertises(method, this.session.upstreamCaps, this.session.flavor(), params);
  }

  upstreamTriggers(): string[] {
    return upstreamTriggerCharacters(this.session.upstreamCaps);
  }

  /** Forward an editor request (optionally transforming the reply), or refuse it if the upstream can't take it. */
  forward(msg: RequestMessage, raw: Buffer, transform?: Transform): void {
    if (!this.link) {
      this.editor.replyError(msg.id, ErrorCodes.MethodNotFound, `premise-lsp: unhandled method ${msg.method} (no upstream server)`);
      return;
    }
    // a stopped link answers the request itself, with the reason it stopped (RequestFailed)
    if (!this.upstreamStopped && !this.upstreamTakes(msg.method, msg.params)) {
      this.editor.replyError(msg.id, ErrorCodes.MethodNotFound, `premise-lsp: the upstream server does not provide ${msg.method}`);
      return;
    }
    if (transform) this.transforms.set(idKey(msg.id), transform);
    this.link.forwardRequest(msg, raw);
  }

  abandonForwarded(id: Id): boolean {
    if (!this.link?.abandon(id)) return false;
    this.transforms.delete(idKey(id));
    return true;
  }

  /** Answer a request here, asynchronously, honouring `$/cancelRequest` (which aborts `signal`). */
  runLocal(id: Id, work: (signal: AbortSignal) => Promise<unknown> | unknown): void {
    const key = idKey(id);
    const entry = { cancelled: false, abort: new AbortController() };
    this.local.set(key, entry);
    Promise.resolve()
      .then(() => work(entry.abort.signal))
      .then(
        (result) => {
          if (!entry.cancelled) this.editor.reply(id, result);
        },
        (e) => {
          if (entry.cancelled) return;
          if (e instanceof RpcError) this.editor.replyError(id, e.code, e.message, e.data);
          else {
            this.session.log.error(`request ${String(id)} failed: ${(e as Error).stack ?? e}`);
            this.editor.replyError(id, ErrorCodes.InternalError, `premise-lsp: ${(e as Error).message ?? e}`);
          }
        },
      )
      .finally(() => {
        if (this.local.get(key) === entry) this.local.delete(key);
      });
  }

  cancelLocal(id: Id): boolean {
    const entry = this.local.get(idKey(id));
    if (!entry) return false;
    entry.cancelled = true;
    entry.abort.abort();
    this.local.delete(idKey(id));
    this.editor.replyError(id, ErrorCodes.RequestCancelled, 'request cancelled');
    return true;
  }

  // ------------------------------------------------------------ upstream → us

  readonly hooks: LinkHooks = {
    onRequest: (msg, raw) => {
      if (msg.method === 'client/registerCapability') {
        const regs = (msg.params as { registrations?: unknown } | null | undefined)?.registrations;
        const ids = (Array.isArray(regs) ? regs : [])
          .map((r) => (r as { id?: unknown } | null)?.id)
          .filter((x): x is string => typeof x === 'string');
        // A restarted prover registers again what the editor already has: answer for it.
        if (this.restarted && ids.length > 0 && ids.every((i) => this.registered.has(i))) {
          this.link?.forwardResponse(success(msg.id, null), Buffer.from(JSON.stringify(success(msg.id, null))));
          return;
        }
        this.registering.set(idKey(msg.id), ids);
      }
      this.editor.sendRaw(raw);
    },
    onNotification: (msg, raw) => {
      // a trial document's diagnostics, progress and the rest are premise-lsp's alone (trials/runner.ts)
      if (this.session.trials.observe(msg)) return;
      this.session.goals.observeNotification(msg);
      this.editor.sendRaw(raw);
    },
    onResponse: (fwd, msg, raw) => {
      if (msg.result !== undefined) this.session.goals.observeEditor(fwd.msg, msg.result);
      const key = idKey(msg.id);
      const transform = this.transforms.get(key);
      this.transforms.delete(key);
      if (!transform) {
        this.editor.sendRaw(raw);
        return;
      }
      Promise.resolve()
        .then(() => transform(msg))
        .then(
          (out) => (out === undefined ? this.editor.sendRaw(raw) : this.editor.send(out)),
          (e) => {
            this.session.log.warn(`merging the reply to ${fwd.msg.method} failed: ${(e as Error).message}`);
            this.editor.sendRaw(raw);
          },
        );
    },
    onLost: (pending, reason) => {
      for (const f of pending) {
        this.transforms.delete(idKey(f.msg.id));
        if (f.msg.method === 'initialize' && this.lifecycle.adoptLostInitialize(f.msg)) continue;
        if (f.msg.method === 'shutdown' && this.session.shutdownRequested) this.editor.reply(f.msg.id, null);
        else this.editor.replyError(f.msg.id, ErrorCodes.RequestFailed, `premise-lsp: ${reason} (while handling ${f.msg.method})`);
      }
    },
    replay: (channel: ReplayChannel) => this.lifecycle.replay(channel),
    onInitializeTimeout: (req, limitMs) => this.lifecycle.initializeTimedOut(req.msg, limitMs),
    onRestarted: (ok, detail) => {
      this.restarted = true;
      if (ok) this.session.log.warn(`${detail}; open documents were re-sent`);
      else {
        this.session.log.alert('error', `${detail}. ${this.gaveUpFix(detail)}`);
        this.lifecycle.upstreamGaveUp();
      }
    },
    log: (level, msg) => this.session.log.log(level, msg),
  };

  /** What the user can do about a prover given up (`detail`: why), and what still works. */
  private gaveUpFix(detail: string): string {
    const cmd = this.link?.command.command ?? 'the prover';
    const fix = /could not start/.test(detail)
      ? `Check that ${cmd} is installed and on PATH, or name the prover with --lean, --isabelle, \`-- <command>\` or the upstreamCommand setting.`
      : 'Its output is in the language server log; restart the language server to try again.';
    return `${fix} Premise features keep working (completion, code actions, hover, search); prover features are unavailable.`;
  }

  /** Immediate success reply for an intercepted request. */
  replyNow(id: Id, result: unknown): void {
    this.editor.reply(id, result);
  }
}
