/**
 * Session lifecycle: `initialize` (settings, capability merge, engine load with
 * progress), `shutdown`/`exit`, settings changes, and replaying the session to a
 * restarted prover.
 */
import type { ReplayChannel, UpstreamLink } from '../upstream/link.js';
import { ErrorCodes, success, type Id, type RequestMessage } from '../jsonrpc/messages.js';
import { mergeCapabilities, ownCapabilities, POSITION_ENCODING, projectCommandSuffix, withCommandSuffix } from './capabilities.js';
import { fileURLToPath } from 'node:url';
import { applyConfig, initializeWaitMs, SECTION, sectionOf } from './config.js';
import type { LoadRequest } from './engine-host.js';
import { beginProgress, type ProgressReporter } from './progress.js';
import { ProjectFinder } from './project-root.js';
import type { HandlerContext, RouterOptions } from './handler-context.js';

/** What the lifecycle handlers may use (the router provides it). */
export interface LifecycleHost extends Pick<HandlerContext, 'session' | 'editor' | 'forward' | 'replyNow'> {
  readonly link: UpstreamLink | undefined;
  readonly options: RouterOptions;
  /** Stop waiting for the prover's reply to a forwarded editor request (its transform is dropped); false when not pending. */
  abandonForwarded(id: Id): boolean;
}

/** How long the prover has to answer `shutdown` before premise-lsp answers it (a hung prover must not hold up the editor's exit). */
export const SHUTDOWN_WAIT_MS = 3000;

export class Lifecycle {
  private exiting = false;
  /** The editor's initialize, lost in a crash: answered by the replay instead. */
  private heldInitialize: RequestMessage | undefined;
  /** A prover given up before it answered initialize, being stopped (exit waits for it). */
  private stoppingProver: Promise<void> | undefined;
  /** Resolved once the editor may be sent requests (progress for index builds waits for it). */
  private readonly initialized: Promise<void>;
  private markInitialized!: () => void;

  /** Which project the automatic index serves (the workspace folder's, else the first opened file's), and the word when none. */
  private readonly project: ProjectFinder;

  constructor(private readonly r: LifecycleHost) {
    this.initialized = new Promise((resolve) => (this.markInitialized = resolve));
    this.project = new ProjectFinder(
      r.session.log,
      () => this.afterInitialize(this.load()),
      () => workspaceRoot(r.session.initParams),
    );
  }

  /** Load the engine under the current settings; the project finder hears which project it serves and how many premises it got. */
  private load(): Promise<unknown> {
    const s = this.r.session;
    let root: string | null | undefined;
    const request: LoadRequest = {
      index: s.cfg.index,
      autoIndex: s.cfg.autoIndex,
      workspaceRoot: this.project.fileRoot ?? workspaceRoot(s.initParams),
      progress: (title: string): Promise<ProgressReporter> => this.initialized.then(() => beginProgress(this.r.editor, s.supportsProgress, title)),
      onProject: (r) => {
        root = r ?? null;
        this.project.chosen(r);
      },
    };
    const loading = s.engines.load(request);
    void loading.then((e) => this.project.loaded(root, e?.size));
    return loading;
  }

  /** A document was opened (its project may be the one to index). */
  documentOpened(uri: unknown): void {
    this.project.opened(uri);
  }

  initialize(msg: RequestMessage, raw: Buffer): void {
    const s = this.r.session;
    if (s.initParams !== undefined) {
      // it may be sent once: a second would reload the index and re-initialize the prover under the editor
      this.r.editor.replyError(msg.id, ErrorCodes.InvalidRequest, 'premise-lsp: initialize was already received');
      return;
    }
    const offered = (msg.params ?? {}) as Record<string, unknown>;
    const params = utf16Only(offered);
    s.initParams = params;
    // the project's own command names: its workspace folder (vscode-lean4 gives each project's server its folder), else where it runs
    if (s.projectCommands) s.commandSuffix = projectCommandSuffix(workspaceRoot(params) ?? process.cwd());
    const caps = params.capabilities as { window?: { workDoneProgress?: boolean } } | undefined;
    s.supportsProgress = caps?.window?.workDoneProgress === true;
    this.applySettings(sectionOf(params.initializationOptions, !this.r.link));
    if (!this.r.link && s.cfg.upstreamCommand) this.r.options.startUpstream(s.cfg.upstreamCommand);
    this.load();

    if (!this.r.link) {
      this.r.replyNow(msg.id, { capabilities: withCommandSuffix(ownCapabilities(), s.commandSuffix), serverInfo: { name: 'premise-lsp', version: this.r.options.version } });
      this.afterInitialize();
      return;
    }
    // Isabelle answers only once its session is built (minutes): no timeout here.
    const narrowed = params === offered ? undefined : { ...msg, params };
    this.r.forward(narrowed ?? msg, narrowed ? Buffer.from(JSON.stringify(narrowed), 'utf8') : raw, (resp) => {
      if (resp.error || typeof resp.result !== 'object' || resp.result === null) return undefined;
      return success(resp.id, this.adoptUpstreamInit(resp.result as Record<string, unknown>));
    });
  }

  /** Record the upstream's initialize result; the editor's version has our capabilities merged in. */
  private adoptUpstreamInit(result: Record<string, unknown>): Record<string, unknown> {
    const s = this.r.session;
    s.upstreamCaps = (result.capabilities ?? {}) as Record<string, unknown>;
    s.learnFlavor(result);
    setImmediate(() => this.afterInitialize());
    return { ...result, capabilities: withCommandSuffix(mergeCapabilities(result.capabilities), s.commandSuffix) };
  }

  /**
   * The prover died before answering the editor's initialize. While it restarts,
   * hold the request (the replay answers it); if it will not come back, run
   * standalone rather than fail the whole session.
   */
  adoptLostInitialize(msg: RequestMessage): boolean {
    const link = this.r.link;
    if (!link) return false;
    if (link.state.tag === 'restarting' || link.state.tag === 'starting') {
      this.heldInitialize = msg;
      return true;
    }
    if (link.state.tag === 'stopped') {
      // (the link already told the user why, via window/showMessage)
      this.standaloneInitialize(msg);
      return true;
    }
    return false;
  }

  /**
   * The prover stayed silent for `limitMs` while the editor's initialize waited
   * (`upstreamInitializeTimeoutMs`): answer it here, stop the prover, go on with
   * premises alone, and say once what to check.
   */
  initializeTimedOut(msg: RequestMessage, limitMs: number): void {
    const link = this.r.link;
    if (!link || !this.r.abandonForwarded(msg.id)) return;
    const cmd = [link.command.command, ...link.command.args].join(' ');
    this.stoppingProver = link.stop(2000);
    this.standaloneInitialize(msg);
    const secs = `${limitMs / 1000} s`;
    this.r.session.log.alert(
      'error',
      `the prover (${cmd}) did not answer initialize within ${secs}; premise-lsp answered it and runs without the prover. ` +
        'Check that the command starts and answers in a terminal in the project (for Lean: `lake serve`; a first start may still be ' +
        'fetching or building dependencies: run `lake build` there), then restart the language server; the wait is the ' +
        'upstreamInitializeTimeoutMs setting (or --initialize-timeout-ms; 0 waits for ever). ' +
        'Premise features keep working (completion, code actions, hover, search); prover features are unavailable.',
    );
  }

  /** The link gave up restarting: an initialize held for the replay is answered standalone. */
  upstreamGaveUp(): void {
    const held = this.heldInitialize;
    this.heldInitialize = undefined;
    if (held) this.standaloneInitialize(held);
  }

  private standaloneInitialize(msg: RequestMessage): void {
    this.r.session.setUpstream(undefined, 'generic');
    this.r.replyNow(msg.id, { capabilities: withCommandSuffix(ownCapabilities(), this.r.session.commandSuffix), serverInfo: { name: 'premise-lsp', version: this.r.options.version } });
    this.afterInitialize();
  }

  /** Progress for the engine load (`reload`: one replacing a loaded engine), once requests to the editor are allowed. */
  private afterInitialize(reload?: Promise<unknown>): void {
    const s = this.r.session;
    this.markInitialized();
    this.r.session.log.attachEditor((type, message) => this.r.editor.notify('window/logMessage', { type, message }));
    if ((!reload && s.engines.now()) || !s.supportsProgress) return;
    void beginProgress(this.r.editor, true, 'premise-lsp: loading premise index').then(async (p) => {
      p.report(s.cfg.index ?? (s.cfg.autoIndex ? 'automatic index' : 'index'));
      const e = reload ? ((await reload) as { size: number } | undefined) : await s.engines.get();
      p.end(e ? `${e.size} premises` : `failed: ${s.engines.error ?? 'unknown error'}`);
    });
  }

  shutdown(msg: RequestMessage, raw: Buffer): void {
    this.r.session.shutdownRequested = true;
    const link = this.r.link;
    if (!link) return this.r.replyNow(msg.id, null);
    link.expectExit();
    this.r.forward(msg, raw);
    setTimeout(() => {
      if (!link.abandon(msg.id)) return;
      this.r.session.log.warn(`the prover did not answer shutdown within ${SHUTDOWN_WAIT_MS} ms; premise-lsp answered it`);
      this.r.replyNow(msg.id, null);
    }, SHUTDOWN_WAIT_MS).unref();
  }

  /** End the session: stop the prover (see `UpstreamLink.stop`), then exit with `code` (default: 0 after shutdown, else 1). */
  async exit(raw: Buffer | undefined, code?: number): Promise<void> {
    if (this.exiting) return;
    this.exiting = true;
    const link = this.r.link;
    if (link) {
      if (raw && link.live) link.forwardNotification(raw);
      await link.stop(1500);
    }
    if (this.stoppingProver) await this.stoppingProver;
    this.r.options.onExit(code ?? (this.r.session.shutdownRequested ? 0 : 1));
  }

  configurationChanged(params: unknown): void {
    const settings = (params as { settings?: unknown } | undefined)?.settings;
    const section = sectionOf(settings, false) ?? dotted(settings);
    if (section === undefined) return;
    const before = this.r.session.cfg;
    this.applySettings(section);
    const after = this.r.session.cfg;
    if (after.index !== before.index || after.autoIndex !== before.autoIndex) {
      this.load();
      this.afterInitialize();
    }
    if (after.trials.mode === 'off' && before.trials.mode !== 'off') this.r.session.trials.switchedOff();
    if (JSON.stringify(after.upstreamCommand) !== JSON.stringify(before.upstreamCommand)) {
      this.r.editor.showMessage(3, 'premise-lsp: the new upstreamCommand takes effect when the editor restarts the language server');
    }
  }

  private applySettings(section: unknown): void {
    const s = this.r.session;
    const { config, errors, changed } = applyConfig(s.cfg, section);
    s.cfg = config;
    if (changed.includes('upstreamHangTimeoutMs')) this.r.link?.setHangTimeout(config.upstreamHangTimeoutMs);
    if (changed.includes('upstreamInitializeTimeoutMs')) this.r.link?.setInitializeTimeout(initializeWaitMs(config, s.flavor()));
    for (const e of errors) {
      s.log.warn(e);
      this.r.editor.showMessage(1, `premise-lsp: ${e}`);
    }
  }

  /** A restarted prover gets the editor's initialize, initialized, settings, and open documents. */
  async replay(channel: ReplayChannel): Promise<void> {
    const s = this.r.session;
    s.trials.upstreamRestarted(); // the new prover has no trial document
    if (!s.initParams) return; // the editor never initialized: its own initialize will come
    const result = (await channel.request('initialize', s.initParams)) as Record<string, unknown> | null;
    const held = this.heldInitialize;
    this.heldInitialize = undefined;
    if (held && result) this.r.replyNow(held.id, this.adoptUpstreamInit(result));
    else if (result?.capabilities) s.upstreamCaps = result.capabilities as Record<string, unknown>;
    if (s.initializedParams !== undefined) channel.notify('initialized', s.initializedParams);
    if (s.lastConfiguration !== undefined) channel.notify('workspace/didChangeConfiguration', s.lastConfiguration);
    for (const p of s.docs.reopenParams()) channel.notify('textDocument/didOpen', p);
  }
}

/**
 * The editor's initialize params as the prover gets them: positions here are
 * UTF-16 code units (JavaScript strings, and the LSP default Lean counts in), so
 * an offer of other position encodings (`general.positionEncodings`, LSP 3.17;
 * Neovim 0.11 offers UTF-8 first) is narrowed to UTF-16, and the prover cannot
 * pick one the proxy does not speak. Anything else is passed on as it was.
 */
export function utf16Only(params: Record<string, unknown>): Record<string, unknown> {
  const caps = params.capabilities as { general?: { positionEncodings?: unknown } } | undefined;
  const offer = caps?.general?.positionEncodings;
  if (!Array.isArray(offer) || (offer.length === 1 && offer[0] === POSITION_ENCODING)) return params;
  return { ...params, capabilities: { ...caps, general: { ...caps!.general, positionEncodings: [POSITION_ENCODING] } } };
}

/** The editor's workspace folder (`rootUri`, else the first `workspaceFolders` entry) as a path. */
function workspaceRoot(params: Record<string, unknown> | undefined): string | undefined {
  const folders = params?.workspaceFolders;
  const first = Array.isArray(folders) ? (folders[0] as { uri?: unknown } | undefined)?.uri : undefined;
  for (const uri of [params?.rootUri, first]) {
    if (typeof uri !== 'string' || !uri.startsWith('file:')) continue;
    try {
      return fileURLToPath(uri);
    } catch {
      /* not a local path */
    }
  }
  const rootPath = params?.rootPath;
  return typeof rootPath === 'string' && rootPath ? rootPath : undefined;
}

/** `{"premise-lsp.k": 5}` style settings. */
function dotted(settings: unknown): Record<string, unknown> | undefined {
  if (typeof settings !== 'object' || settings === null) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(settings)) if (k.startsWith(SECTION + '.')) out[k.slice(SECTION.length + 1)] = v;
  return Object.keys(out).length ? out : undefined;
}
