/**
 * The requests premise-lsp takes part in: completion (+ resolve), code actions
 * (+ resolve), hover, and its own commands. Each either merges premise results
 * into the upstream's reply or, without an upstream that provides the method,
 * answers alone. `handlers.ts` maps the methods to these; a handler returning
 * false leaves the request to plain forwarding.
 */
import { ErrorCodes, RpcError, success, type RequestMessage } from '../jsonrpc/messages.js';
import { COMMANDS, ourCommand } from './capabilities.js';
import { isOurAction, mergeCodeActions, premiseCodeActions } from './features/code-actions.js';
import { insertCommand, searchCommand } from './features/commands.js';
import { isOurItem, mergeCompletions, premiseCompletions, resolveItem, type CompletionParamsLike } from './features/completion.js';
import { mergeHover, premiseHover } from './features/hover.js';
import type { HandlerContext } from './handler-context.js';
import { beginProgress } from './progress.js';
import { tryArgs, tryAt, tryInBackground, type TryContext } from './trials/try.js';

export class Intercepts {
  constructor(private readonly r: HandlerContext) {}

  private get s() {
    return this.r.session;
  }

  /** What trials use: the session's features, the runner, and progress through the editor. */
  private get tc(): TryContext {
    const s = this.s;
    const editor = this.r.editor;
    return {
      docs: s.docs,
      engines: s.engines,
      get goals() {
        return s.goals;
      },
      config: () => s.config(),
      flavor: () => s.flavor(),
      log: s.log,
      live: s.live,
      trials: s.trials,
      leanLive: () => s.link?.live === true,
      progress: (title) => beginProgress(editor, s.supportsProgress, title),
    };
  }

  completion(msg: RequestMessage, raw: Buffer): void {
    const params = (msg.params ?? {}) as CompletionParamsLike;
    const trig = params.context?.triggerKind === 2 ? params.context.triggerCharacter : undefined;
    const ourTriggerOnly = trig !== undefined && !this.r.upstreamTriggers().includes(trig);
    if (!this.r.upstreamTakes(msg.method) || ourTriggerOnly) {
      // A character only we registered: the upstream was not asked for it.
      this.r.runLocal(msg.id, async () => {
        const { items } = await premiseCompletions(this.s, params);
        return { isIncomplete: items.length === 0, items };
      });
      return;
    }
    const ours = premiseCompletions(this.s, params).catch((e) => {
      this.s.log.warn(`premise completion failed: ${(e as Error).message}`);
      return { items: [], prefix: '' };
    });
    this.r.forward(msg, raw, async (resp) => {
      if (resp.error) return undefined;
      const { items, prefix } = await ours;
      if (items.length === 0) return undefined;
      return success(resp.id, mergeCompletions(resp.result as never, items, prefix));
    });
  }

  /** The editor asks the goal (the cursor rests at a step: lean.nvim, Emacs): `auto` trials start there; the request goes on to Lean untouched. */
  plainGoal(msg: RequestMessage): boolean {
    const p = msg.params as { textDocument?: { uri?: unknown }; position?: { line?: unknown; character?: unknown } } | undefined;
    tryInBackground(this.tc, p?.textDocument?.uri, p?.position);
    return false;
  }

  /** Our items are resolved here (Lean fails on foreign `data`); others go upstream if it resolves. */
  completionResolve(msg: RequestMessage, raw: Buffer): boolean {
    const item = msg.params;
    if (isOurItem(item)) {
      this.r.runLocal(msg.id, () => resolveItem(this.s, item));
      return true;
    }
    if (!this.r.upstreamTakes(msg.method)) {
      this.r.replyNow(msg.id, item ?? null);
      return true;
    }
    void raw;
    return false;
  }

  codeAction(msg: RequestMessage, raw: Buffer): void {
    // `auto` trials: this place is tried in the background; its verdicts show in later answers
    const p = msg.params as { textDocument?: { uri?: unknown }; range?: { start?: { line?: unknown; character?: unknown } } } | undefined;
    tryInBackground(this.tc, p?.textDocument?.uri, p?.range?.start);
    const ours = premiseCodeActions(this.s, (msg.params ?? {}) as never).catch((e) => {
      this.s.log.warn(`premise code actions failed: ${(e as Error).message}`);
      return [];
    });
    // Isabelle writes no reply at all to a code action for a document it has no model of.
    const uri = (msg.params as { textDocument?: { uri?: unknown } } | undefined)?.textDocument?.uri;
    const unknownToIsabelle = this.s.flavor() === 'isabelle' && !this.s.docs.get(uri);
    if (!this.r.upstreamTakes(msg.method) || unknownToIsabelle) {
      this.r.runLocal(msg.id, () => ours);
      return;
    }
    this.r.forward(msg, raw, async (resp) => {
      if (resp.error) return undefined;
      const mine = await ours;
      return mine.length === 0 ? undefined : success(resp.id, mergeCodeActions(resp.result, mine));
    });
  }

  codeActionResolve(msg: RequestMessage, _raw: Buffer): boolean {
    if (isOurAction(msg.params)) {
      this.r.replyNow(msg.id, msg.params);
      return true;
    }
    if (!this.r.upstreamTakes(msg.method)) {
      this.r.replyNow(msg.id, msg.params ?? null);
      return true;
    }
    return false;
  }

  hover(msg: RequestMessage, raw: Buffer): void {
    const ours = premiseHover(this.s, (msg.params ?? {}) as never).catch(() => null);
    if (!this.r.upstreamTakes(msg.method)) {
      this.r.runLocal(msg.id, () => ours);
      return;
    }
    this.r.forward(msg, raw, async (resp) => {
      const mine = await ours;
      if (!mine) return undefined;
      if (resp.error) return success(resp.id, mine);
      return success(resp.id, mergeHover(resp.result, mine));
    });
  }

  executeCommand(msg: RequestMessage): boolean {
    const given = (msg.params ?? {}) as { command?: unknown; arguments?: unknown };
    // this project's command names (`--project-commands`) stand for the plain ones
    const p = { ...given, command: ourCommand(given.command, this.s.commandSuffix) ?? given.command };
    const ours = Object.values(COMMANDS) as unknown[];
    // someone else's command goes to the upstream that advertises it (a stopped one fails it naming why); with none, it is named in the refusal
    if (!ours.includes(p.command) && (this.r.upstreamTakes(msg.method, msg.params) || this.r.upstreamStopped)) return false;
    this.r.runLocal(msg.id, (signal) => {
      if (p.command === COMMANDS.search) return searchCommand(this.s, p.arguments);
      if (p.command === COMMANDS.try) return tryAt(this.tc, tryArgs(p.arguments), signal);
      if (p.command === COMMANDS.insert) return insertCommand(this.s, this.r.editor, p.arguments);
      const why = this.r.hasUpstream ? 'the upstream server does not advertise it' : 'no upstream server';
      throw new RpcError(ErrorCodes.InvalidParams, `premise-lsp: unknown command ${JSON.stringify(p.command)} (${why}; premise-lsp provides ${ours.join(', ')})`);
    });
    return true;
  }
}
