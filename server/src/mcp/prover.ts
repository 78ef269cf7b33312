/**
 * The MCP server's prover (`premise-lsp mcp --project DIR --lean`, or `-- <cmd…>`):
 * one Lean server for the project, started at the first `try` call, and the
 * `try` tool over it. The tool is the language server's `premise-lsp.try`
 * (lsp/trials/try.ts `tryAt`, the same runner, shadow document and verdicts),
 * with the file read from disk instead of sent by an editor.
 *
 * Invariants (test/cli/mcp-try.test.ts):
 * - a call names a `.lean` file inside the project (after links are followed);
 *   a path outside it, a missing file or a position out of range is a ToolError
 *   (the agent reads it), never a crash;
 * - one call at a time: a call waits for the one before it, so one batch of
 *   trials runs at a time and the document is never changed under a batch;
 * - every call has a wall-clock limit (`callTimeoutMs`, waiting included), after
 *   which its trials are cancelled (`$/cancelRequest` for Lean's waits) and it
 *   answers with an error;
 * - at most one project file is open in the prover (a call for another file
 *   closes it first), besides the runner's one shadow document: two Lean file
 *   workers at most. The file is closed `keepOpenMs` after the last call.
 */
import { realpathSync, statSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PremiseSearch } from '../engine/types.js';
import { RpcError, type NotificationMessage, type RequestMessage } from '../jsonrpc/messages.js';
import { defaultConfig, type PremiseConfig } from '../lsp/config.js';
import { DocumentStore } from '../lsp/documents.js';
import { EngineHost } from '../lsp/engine-host.js';
import { LeanGoals } from '../lsp/goals/lean.js';
import { Logger } from '../lsp/log.js';
import { TACTICS } from '../lsp/trials/candidates.js';
import { TrialRunner } from '../lsp/trials/runner.js';
import { tryAt, type TryAnswer, type TryContext } from '../lsp/trials/try.js';
import type { ChildSpec } from '../upstream/child.js';
import { UpstreamLink, type ReplayChannel } from '../upstream/link.js';
import { ToolError } from './tools.js';

/** The `try` tool's arguments, as the agent gives them (checked here). */
export interface TryToolArgs {
  file?: unknown;
  line?: unknown;
  column?: unknown;
  after?: unknown;
  premises?: unknown;
  tactics?: unknown;
}

export interface ProverOptions {
  /** The project's root (`--project`): the prover runs there, and only its files are tried. */
  root: string;
  spec: ChildSpec;
  /** The premise index (throws a ToolError when it could not be opened). */
  engine: () => Promise<PremiseSearch>;
  log: (line: string) => void;
  /** Wall-clock limit of one `try` call, waiting for the one before it included. */
  callTimeoutMs: number;
  /** How long the tried file stays open in the prover after the last call (0: closed at once). */
  keepOpenMs?: number;
}

/** Largest file read for a call (the indexer skips larger ones too). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_NAMES = 50;

export class McpProver {
  private readonly link: UpstreamLink;
  private readonly docs = new DocumentStore();
  private readonly logger: Logger;
  private readonly goals: LeanGoals;
  private readonly runner: TrialRunner;
  private readonly cfg: PremiseConfig;
  private readonly engines: EngineHost;
  private readonly realRoot: string;
  private initialized: Promise<void> | undefined;
  private chain: Promise<void> = Promise.resolve();
  private openUri: string | undefined;
  private closeTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: ProverOptions) {
    this.realRoot = realpathSync(opts.root);
    this.logger = new Logger((line: string) => opts.log(line.replace(/\n$/, '')));
    this.cfg = { ...defaultConfig(), liveIndex: false };
    this.link = new UpstreamLink(opts.spec, {
      onRequest: (msg, _raw) => this.answerServerRequest(msg),
      onNotification: (msg) => this.onNotification(msg),
      onResponse: () => undefined,
      onLost: () => undefined,
      replay: (ch) => this.replay(ch),
      onRestarted: (ok, detail) => opts.log(ok ? 'the prover restarted' : `the prover stopped: ${detail}`),
      log: (level, m) => (level === 'debug' ? this.logger.debug(m) : opts.log(m)),
    });
    const link = this.link;
    this.goals = new LeanGoals({ request: (m, p, o) => link.request(m, p, o), get live() { return link.live; } }, (uri) => this.docs.get(uri)?.version);
    this.runner = new TrialRunner(
      () => link,
      () => this.cfg.trials,
      (uri) => this.docs.get(uri) !== undefined,
      { debug: (m) => this.logger.debug(m), warn: (m) => opts.log(m) },
    );
    this.engines = new EngineHost(() => opts.engine(), this.logger);
  }

  /** The context `tryAt` runs in: this project's one open file, the prover, the index. */
  private context(): TryContext {
    return {
      docs: this.docs,
      engines: this.engines,
      goals: this.goals,
      config: () => this.cfg,
      flavor: () => 'lean',
      log: this.logger,
      live: { around: () => ({ after: [], before: [] }), documentOf: () => undefined },
      trials: this.runner,
      leanLive: () => this.link.live,
      progress: async () => ({ report: () => undefined, end: () => undefined }),
    };
  }

  /** The `try` tool: read the file, open it in the prover, and try premises at the position. */
  async try(raw: TryToolArgs, callerSignal?: AbortSignal): Promise<TryAnswer> {
    if (this.stopped) throw new ToolError('the server is stopping');
    const args = checkArgs(raw);
    const abort = new AbortController();
    const limit = this.opts.callTimeoutMs;
    const timer = setTimeout(() => abort.abort(new ToolError(`no answer within ${limit / 1000} s (--try-timeout-ms): the call was stopped; try fewer premises or tactics`)), limit);
    const onCaller = () => abort.abort(new ToolError('the call was cancelled'));
    callerSignal?.addEventListener('abort', onCaller, { once: true });
    if (callerSignal?.aborted) onCaller();
    const deadline = Date.now() + limit;
    const before = this.chain;
    let release!: () => void;
    this.chain = new Promise((r) => (release = r));
    try {
      await raceAbort(before, abort.signal);
      if (this.closeTimer) clearTimeout(this.closeTimer);
      this.closeTimer = undefined;
      const { path, text } = this.readFile(args.file);
      void this.engines.load(undefined);
      const position = positionOf(text, args, path);
      await raceAbort(this.start(), abort.signal);
      const uri = this.sync(path, text);
      // the file elaborated up to the end first: the goal is then at hand
      await this.link.request('textDocument/waitForDiagnostics', { uri, version: this.docs.get(uri)!.version }, { timeoutMs: Math.max(1, deadline - Date.now()), signal: abort.signal });
      this.cfg.goalTimeoutMs = Math.max(1000, deadline - Date.now());
      return await tryAt(this.context(), { uri, position, premises: args.premises, tactics: args.tactics }, abort.signal);
    } catch (e) {
      if (abort.signal.aborted) throw abort.signal.reason;
      if (e instanceof ToolError) throw e;
      if (e instanceof RpcError) throw new ToolError(e.message.replace(/^premise-lsp: /, ''));
      throw e;
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCaller);
      this.idle();
      release();
    }
  }

  /** The file asked for: inside the project (links followed), a `.lean` file that can be read. */
  private readFile(file: string): { path: string; text: string } {
    const inside = (p: string, root: string) => {
      const rel = relative(root, p);
      return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    };
    const asked = resolve(this.opts.root, file);
    if (!inside(asked, resolve(this.opts.root)) && !inside(asked, this.realRoot)) throw new ToolError(`${file} is outside the project (${this.opts.root}); give a path inside it, relative to it or absolute`);
    let real: string;
    try {
      real = realpathSync(asked);
    } catch {
      throw new ToolError(`no file ${file} in the project (${asked})`);
    }
    if (!inside(real, this.realRoot)) throw new ToolError(`${file} is outside the project (${this.opts.root}): it leads to ${real}`);
    if (!real.endsWith('.lean')) throw new ToolError(`${file} is not a Lean file (.lean)`);
    const st = statSync(real);
    if (!st.isFile()) throw new ToolError(`${file} is not a file`);
    if (st.size > MAX_FILE_BYTES) throw new ToolError(`${file} is larger than ${MAX_FILE_BYTES >> 20} MiB`);
    return { path: real, text: readFileSync(real, 'utf8') };
  }

  /**
   * Start the prover once and wait until it is initialized (a call's own limit bounds the wait; the
   * next call waits on). A prover that died is restarted by the link, which initializes it again; one
   * that cannot start (no such command, a crash loop) is not: each call says why.
   */
  private async start(): Promise<void> {
    if (!this.initialized) {
      this.opts.log(`starting the prover in ${this.opts.root}`);
      this.link.start();
      this.initialized = this.link.request('initialize', this.initParams(), {}).then(() => this.link.notify('initialized', {}));
      this.initialized.catch(() => undefined);
    }
    await this.initialized.catch(() => undefined);
    for (;;) {
      const st = this.link.state;
      if (st.tag === 'running') return;
      if (st.tag === 'stopped') throw new ToolError(`the prover is not running: ${st.reason}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private initParams() {
    const rootUri = pathToFileURL(this.realRoot).href;
    return {
      processId: process.pid,
      clientInfo: { name: 'premise-lsp mcp' },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'project' }],
      capabilities: { textDocument: { synchronization: { didSave: false }, publishDiagnostics: {} }, window: { workDoneProgress: false } },
    };
  }

  /** The prover holds `text` for `path` (opened, or changed whole when it differs); another file is closed first. */
  private sync(path: string, text: string): string {
    const uri = pathToFileURL(path).href;
    if (this.openUri && this.openUri !== uri) this.closeFile();
    const doc = this.docs.get(uri);
    if (!doc) {
      const p = { textDocument: { uri, languageId: 'lean', version: 1, text } };
      this.docs.open(p);
      this.link.notify('textDocument/didOpen', p);
      this.openUri = uri;
    } else if (doc.getText() !== text) {
      this.runner.userEdited(uri);
      this.goals.forget(uri);
      const p = { textDocument: { uri, version: doc.version + 1 }, contentChanges: [{ text }] };
      this.docs.change(p);
      this.link.notify('textDocument/didChange', p);
    }
    return uri;
  }

  private closeFile(): void {
    const uri = this.openUri;
    if (!uri) return;
    this.openUri = undefined;
    this.runner.userClosed(uri);
    this.goals.forget(uri);
    this.docs.close({ textDocument: { uri } });
    if (this.link.live) this.link.notify('textDocument/didClose', { textDocument: { uri } });
  }

  /** After a call: the file closes `keepOpenMs` later (the trial document has its own timer). */
  private idle(): void {
    if (this.closeTimer) clearTimeout(this.closeTimer);
    const keep = this.opts.keepOpenMs ?? this.cfg.trials.keepOpenMs;
    if (keep <= 0) return this.closeFile();
    this.closeTimer = setTimeout(() => this.closeFile(), keep);
    this.closeTimer.unref?.();
  }

  private onNotification(msg: NotificationMessage): void {
    if (this.runner.observe(msg)) return;
    this.goals.observeNotification(msg);
  }

  /** The prover's own requests (`client/registerCapability`…): answered, with nothing registered. */
  private answerServerRequest(msg: RequestMessage): void {
    const reply = { jsonrpc: '2.0' as const, id: msg.id, result: null };
    this.link.forwardResponse(reply, Buffer.from(JSON.stringify(reply), 'utf8'));
  }

  /** A restarted prover: initialize it again and hand it the open file; it has no trial document. */
  private async replay(ch: ReplayChannel): Promise<void> {
    this.runner.upstreamRestarted();
    await ch.request('initialize', this.initParams());
    ch.notify('initialized', {});
    for (const p of this.docs.reopenParams()) ch.notify('textDocument/didOpen', p);
  }

  /** Close everything and stop the prover (the server is ending). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.runner.switchedOff();
    const st = this.link.state;
    if (st.tag === 'stopped') return;
    this.closeFile();
    await Promise.race([this.link.stop(1000), new Promise((r) => setTimeout(r, 3000).unref())]);
  }
}

/** Rejects with the signal's reason once it aborts. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const on = () => reject(signal.reason);
    signal.addEventListener('abort', on, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', on);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', on);
        reject(e);
      },
    );
  });
}

interface CheckedArgs {
  file: string;
  line: number;
  column?: number;
  after?: string;
  premises?: string[];
  tactics?: string[];
}

/** The arguments, checked: each fault is one line for the agent. */
export function checkArgs(a: TryToolArgs): CheckedArgs {
  if (typeof a.file !== 'string' || !a.file.trim()) throw new ToolError('file must be a path to a .lean file in the project');
  if (!Number.isInteger(a.line) || (a.line as number) < 1) throw new ToolError(`line must be a line number, 1 for the first line (got ${JSON.stringify(a.line)})`);
  if (a.column !== undefined && a.column !== null && (!Number.isInteger(a.column) || (a.column as number) < 1)) throw new ToolError(`column must be 1 or more (got ${JSON.stringify(a.column)})`);
  if (a.after !== undefined && a.after !== null && (typeof a.after !== 'string' || a.after === '')) throw new ToolError('after must be a piece of the line\'s text');
  if (a.column != null && a.after != null) throw new ToolError('give column or after, not both');
  const list = (key: 'premises' | 'tactics'): string[] | undefined => {
    const v = a[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.length > MAX_NAMES || !v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 1024)) throw new ToolError(`${key} must be a list of at most ${MAX_NAMES} names`);
    return v as string[];
  };
  const tactics = list('tactics');
  const unknown = tactics?.filter((t) => !(TACTICS as readonly string[]).includes(t));
  if (unknown?.length) throw new ToolError(`unknown tactics ${unknown.join(', ')}; the tactics tried are ${TACTICS.join(', ')}`);
  return { file: a.file, line: a.line as number, column: (a.column ?? undefined) as number | undefined, after: (a.after ?? undefined) as string | undefined, premises: list('premises'), tactics };
}

/**
 * The LSP position (0-based line, UTF-16 character) of `line` (1-based) at
 * `column` (1-based, in characters), or just after the first `after` on the
 * line, or at the line's end.
 */
export function positionOf(text: string, a: Pick<CheckedArgs, 'line' | 'column' | 'after'>, path: string): { line: number; character: number } {
  const lines = text.split('\n');
  if (a.line > lines.length) throw new ToolError(`line ${a.line} is past the end of ${path} (${lines.length} lines)`);
  const lineText = lines[a.line - 1]!.replace(/\r$/, '');
  if (a.after !== undefined) {
    const at = lineText.indexOf(a.after);
    if (at < 0) throw new ToolError(`line ${a.line} of ${path} has no ${JSON.stringify(a.after)}: ${JSON.stringify(lineText)}`);
    return { line: a.line - 1, character: at + a.after.length };
  }
  if (a.column === undefined) return { line: a.line - 1, character: lineText.length };
  const chars = [...lineText];
  if (a.column > chars.length + 1) throw new ToolError(`column ${a.column} is past the end of line ${a.line} of ${path} (${chars.length} characters)`);
  return { line: a.line - 1, character: chars.slice(0, a.column - 1).join('').length };
}

