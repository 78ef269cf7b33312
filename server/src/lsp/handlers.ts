/**
 * The one handler table: every LSP method premise-lsp takes part in, editor →
 * server, mapped to its handler. Adding a method touches this table and the
 * module that implements it, never the router. A handler that returns `false`
 * leaves the message to the router's default (forward the exact bytes); any
 * other result means it was dealt with. Methods not listed are forwarded
 * (notifications after the goal watcher has seen them).
 */
import type { Id, NotificationMessage, RequestMessage } from '../jsonrpc/messages.js';
import type { HandlerContext } from './handler-context.js';
import { Intercepts } from './intercepts.js';
import type { Lifecycle } from './lifecycle.js';

export type RequestHandler = (msg: RequestMessage, raw: Buffer) => boolean | void;
export type NotificationHandler = (msg: NotificationMessage, raw: Buffer) => boolean | void;

export interface HandlerTable {
  requests: ReadonlyMap<string, RequestHandler>;
  notifications: ReadonlyMap<string, NotificationHandler>;
  /** A notification with no entry: let the goal watcher see it, then forward it. */
  otherNotification: NotificationHandler;
}

/** Requests served before `initialize` (all others are refused until then). */
export const BEFORE_INITIALIZE: ReadonlySet<string> = new Set(['initialize', 'shutdown']);

const uriOf = (params: unknown) => (params as { textDocument?: { uri?: unknown } } | undefined)?.textDocument?.uri;

/** The table of one session: `ctx` is what handlers may use, `lifecycle` holds the session's lifecycle state. */
export function handlerTable(ctx: HandlerContext, lifecycle: Lifecycle): HandlerTable {
  const s = ctx.session;
  const i = new Intercepts(ctx);
  const requests = new Map<string, RequestHandler>([
    ['initialize', (m, raw) => lifecycle.initialize(m, raw)],
    ['shutdown', (m, raw) => lifecycle.shutdown(m, raw)],
    ['textDocument/completion', (m, raw) => i.completion(m, raw)],
    ['completionItem/resolve', (m, raw) => i.completionResolve(m, raw)],
    ['textDocument/codeAction', (m, raw) => i.codeAction(m, raw)],
    ['codeAction/resolve', (m, raw) => i.codeActionResolve(m, raw)],
    ['textDocument/hover', (m, raw) => i.hover(m, raw)],
    ['workspace/executeCommand', (m) => i.executeCommand(m)],
    ['$/lean/plainGoal', (m) => i.plainGoal(m)],
  ]);
  const docSync = (open: boolean): NotificationHandler => (m, raw) => {
    // the edit reaches the prover whatever our own copy makes of it
    try {
      if (open) s.docs.open(m.params);
      else s.docs.change(m.params);
      const uri = uriOf(m.params);
      if (typeof uri === 'string') s.live.touched(uri);
      // the user types: trials stop (after the edit has gone to the prover: `finally`)
      if (!open && typeof uri === 'string') s.trials.userEdited(uri);
      if (open) lifecycle.documentOpened(uri);
    } finally {
      ctx.forwardDocSync(raw);
    }
  };
  const notifications = new Map<string, NotificationHandler>([
    ['exit', (_m, raw) => void lifecycle.exit(raw)],
    [
      'initialized',
      (m) => {
        s.initializedParams = m.params ?? {};
        return false;
      },
    ],
    ['textDocument/didOpen', docSync(true)],
    ['textDocument/didChange', docSync(false)],
    [
      'textDocument/didClose',
      (m, raw) => {
        try {
          const uri = uriOf(m.params);
          s.docs.close(m.params);
          if (typeof uri === 'string') {
            s.goals.forget(uri);
            s.live.closed(uri);
            s.trials.userClosed(uri);
          }
        } finally {
          ctx.forwardDocSync(raw);
        }
      },
    ],
    [
      'workspace/didChangeConfiguration',
      (m) => {
        s.lastConfiguration = m.params;
        lifecycle.configurationChanged(m.params);
        return false;
      },
    ],
    [
      '$/cancelRequest',
      (m) => {
        const id = (m.params as { id?: Id } | undefined)?.id;
        return id !== undefined && ctx.cancelLocal(id);
      },
    ],
  ]);
  const otherNotification: NotificationHandler = (m) => {
    s.goals.observeEditor(m);
    return false;
  };
  return { requests, notifications, otherNotification };
}
