/**
 * Trials: the upstream Lean server elaborates candidate steps in a shadow
 * document and says which ones work. One runner per session.
 *
 * Mechanism: a shadow document, its own URI beside the user's file
 * (`Foo.lean` → `Foo__premise_trial.lean`, never written to disk), holding the
 * user's text with the candidate in place of the cursor's step. Lean's file
 * worker for it reuses its snapshots up to the changed line, as it does for any
 * edit; the user's document is never touched, so its versions, diagnostics and
 * progress stay the editor's alone. Each trial is one ranged `didChange` of the
 * shadow, then `textDocument/waitForDiagnostics` for that version (the barrier),
 * the diagnostics Lean published for it, and `$/lean/plainGoal` just after the
 * step (the goals after it). See docs/trials.md for why not the user's document.
 *
 * Invariants (test/protocol/trials.test.ts):
 * - nothing about a shadow URI reaches the editor: its diagnostics, fileProgress
 *   and every other notification naming it are taken here (`observe`), and no
 *   message of a trial names the user's URI, so the prover holds exactly the text
 *   the editor sent, at the versions it sent;
 * - a user's edit (any `didChange`, or closing the tried document) cancels every
 *   trial at once (the prover's waits get `$/cancelRequest`); the user's
 *   notifications are never held or reordered, since trials send none of theirs;
 * - one batch of trials runs at a time in a session (so at most one per file);
 * - each trial has `maxHeartbeats` around its step and a wall-clock limit, after
 *   which it is abandoned as `timeout`;
 * - at most one shadow document is open per session: it is closed (`didClose`,
 *   which ends Lean's file worker for it) `keepOpenMs` after the last batch, at
 *   once after a timeout, when its user document closes, and when the session's
 *   trials are switched off. A restarted prover has none.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ErrorCodes, RpcError, type NotificationMessage } from '../../jsonrpc/messages.js';
import { goalsOf } from '../goals/lean.js';
import type { Candidate } from './candidates.js';
import { judge, OUTCOME_ORDER, stepErrors, type LeanDiagnostic, type Outcome } from './outcome.js';
import { stepEnd, withStep, type StepPlace } from './place.js';

export type TrialMode = 'auto' | 'on request' | 'off';
export const TRIAL_MODES: readonly TrialMode[] = ['auto', 'on request', 'off'];

export interface TrialSettings {
  mode: TrialMode;
  /** How many premises are tried (the engine's top ones). */
  premises: number;
  /** Wall-clock limit of one trial. */
  timeoutMs: number;
  /** `set_option maxHeartbeats N in` around each step (0: none). */
  heartbeats: number;
  /** How long the shadow document stays open after the last trial (Lean keeps a file worker for it). */
  keepOpenMs: number;
}

export interface TrialUpstream {
  readonly live: boolean;
  /** Editor requests the prover has not answered yet: a trial waits for them (up to `YIELD_MS`). */
  readonly editorRequestsWaiting?: number;
  request<T>(method: string, params: unknown, opts: { timeoutMs?: number; signal?: AbortSignal }): Promise<T>;
  notify(method: string, params: unknown): void;
}

export interface TrialResult {
  step: string;
  /** The premise the step uses (a batch: the names joined by ", "). */
  premise: string;
  premises: string[];
  tactic: string;
  outcome: Outcome;
  goals?: string[];
  message?: string;
}

export interface TrialJob {
  uri: string;
  version: number;
  text: string;
  place: StepPlace;
  candidates: Candidate[];
  /** Called after each trial (done of total). */
  onProgress?(done: number, total: number, last: TrialResult): void;
  /** Background (`auto`) jobs: a newer one for another place replaces it. */
  background?: boolean;
}

/** How long a trial waits, at most, for the editor's own requests to be answered before it starts. */
export const YIELD_MS = 250;

/** Where premise-lsp writes trials for `uri`: beside it, a name no project uses. */
export const SHADOW_MARK = '__premise_trial';
export function shadowUri(uri: string): string {
  return uri.endsWith('.lean') ? uri.slice(0, -'.lean'.length) + SHADOW_MARK + '.lean' : uri + SHADOW_MARK + '.lean';
}

interface Shadow {
  uri: string;
  forUri: string;
  version: number;
  doc: TextDocument;
  /** The last diagnostics Lean published for it (with their version). */
  diags?: { version: number | undefined; list: LeanDiagnostic[] };
  /** A trial timed out: Lean may still be busy with it. */
  stuck: boolean;
}

interface Active {
  abort: AbortController;
  uri: string;
  key: string;
  background: boolean;
}

const cancelled = (why: 'edited' | 'cancelled' | 'restarted' | 'off' | 'replaced'): RpcError =>
  why === 'edited'
    ? new RpcError(ErrorCodes.ContentModified, 'premise-lsp: the document changed while premises were being tried (the trials were stopped; nothing was changed)')
    : why === 'restarted'
      ? new RpcError(ErrorCodes.RequestFailed, 'premise-lsp: the prover restarted while premises were being tried')
      : why === 'off'
        ? new RpcError(ErrorCodes.RequestFailed, 'premise-lsp: trials were switched off')
        : new RpcError(ErrorCodes.RequestCancelled, 'premise-lsp: the trials were cancelled');

export class TrialRunner {
  private shadow: Shadow | undefined;
  private closeTimer: NodeJS.Timeout | undefined;
  private tail: Promise<void> = Promise.resolve();
  private readonly active = new Set<Active>();
  /** Verdicts per document, for its current version only: line → results. */
  private readonly verdictsByUri = new Map<string, { version: number; byLine: Map<number, { place: StepPlace; results: TrialResult[] }> }>();
  /** Trials run since the session started (bench and tests). */
  count = 0;

  constructor(
    private readonly upstream: () => TrialUpstream | undefined,
    private readonly settings: () => TrialSettings,
    /** Is `uri` a document the editor itself opened (then it is never taken for a shadow)? */
    private readonly editorHas: (uri: string) => boolean,
    private readonly log: { debug(m: string): void; warn(m: string): void },
  ) {}

  /** Is `uri` one of premise-lsp's trial documents? */
  isShadow(uri: unknown): boolean {
    return typeof uri === 'string' && uri.includes(SHADOW_MARK) && !this.editorHas(uri);
  }

  /** A notification from the prover: true when it is about a trial document (then it is ours and goes no further). */
  observe(msg: NotificationMessage): boolean {
    const p = msg.params as { uri?: unknown; textDocument?: { uri?: unknown }; version?: unknown; diagnostics?: unknown } | undefined;
    const uri = p?.uri ?? p?.textDocument?.uri;
    if (!this.isShadow(uri)) return false;
    const sh = this.shadow;
    if (msg.method === 'textDocument/publishDiagnostics' && sh && uri === sh.uri && Array.isArray(p!.diagnostics)) {
      sh.diags = { version: typeof p!.version === 'number' ? p!.version : undefined, list: p!.diagnostics as LeanDiagnostic[] };
    }
    return true;
  }

  /** The editor changed a document: every trial stops (the user types; the prover serves the user first). */
  userEdited(_uri: string): void {
    this.stopAll('edited');
  }

  /** The editor closed a document: trials stop, and its shadow goes too. */
  userClosed(uri: string): void {
    this.stopAll('edited');
    this.verdictsByUri.delete(uri);
    if (this.shadow?.forUri === uri) this.close();
  }

  /** A fresh prover knows no shadow document; running trials fail. */
  upstreamRestarted(): void {
    this.stopAll('restarted');
    this.shadow = undefined;
  }

  /** Trials switched off: stop them and close the shadow. */
  switchedOff(): void {
    this.stopAll('off');
    this.close();
  }

  private stopAll(why: Parameters<typeof cancelled>[0]): void {
    for (const a of this.active) if (!a.abort.signal.aborted) a.abort.abort(cancelled(why));
  }

  /** The results known for `uri` at `version` on `line` (any line when omitted), best first. */
  verdicts(uri: string, version: number, line?: number): Array<{ place: StepPlace; results: TrialResult[] }> {
    const v = this.verdictsByUri.get(uri);
    if (!v || v.version !== version) return [];
    if (line !== undefined) {
      const at = v.byLine.get(line);
      return at ? [at] : [];
    }
    return [...v.byLine.values()];
  }

  /** Places a background job is being prepared for (goal and search), before it runs. */
  private readonly preparing = new Set<string>();

  /** Is a job for this place being prepared, running or queued, or its verdicts known? */
  known(uri: string, version: number, line: number): boolean {
    const key = `${uri}\0${version}\0${line}`;
    return this.verdicts(uri, version, line).length > 0 || this.preparing.has(key) || [...this.active].some((a) => a.key === key);
  }

  /** Mark a place as being prepared for a background job until `done` settles. */
  preparingFor(uri: string, version: number, line: number, done: Promise<unknown>): void {
    const key = `${uri}\0${version}\0${line}`;
    this.preparing.add(key);
    void done.finally(() => this.preparing.delete(key)).catch(() => undefined);
  }

  /** Run `job`'s candidates one after another, after any batch before it; best first. Rejects when cancelled. */
  async run(job: TrialJob, signal?: AbortSignal): Promise<TrialResult[]> {
    const active: Active = { abort: new AbortController(), uri: job.uri, key: `${job.uri}\0${job.version}\0${job.place.line}`, background: job.background === true };
    // a newer background job replaces older background ones (the cursor moved on)
    if (active.background) for (const a of this.active) if (a.background && a.key !== active.key && !a.abort.signal.aborted) a.abort.abort(cancelled('replaced'));
    const onCaller = () => active.abort.abort(cancelled('cancelled'));
    if (signal?.aborted) throw cancelled('cancelled');
    signal?.addEventListener('abort', onCaller, { once: true });
    this.active.add(active);
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise((r) => (release = r));
    const sig = active.abort.signal;
    try {
      await before;
      if (this.closeTimer) clearTimeout(this.closeTimer);
      this.closeTimer = undefined;
      const results: TrialResult[] = [];
      for (const c of job.candidates) {
        if (sig.aborted) throw sig.reason;
        const r = await this.trial(job, c, sig);
        results.push(r);
        job.onProgress?.(results.length, job.candidates.length, r);
      }
      if (sig.aborted) throw sig.reason;
      const sorted = results.map((r, i) => ({ r, i })).sort((a, b) => OUTCOME_ORDER[a.r.outcome] - OUTCOME_ORDER[b.r.outcome] || progressOrder(a.r, b.r) || a.i - b.i).map((x) => x.r);
      this.remember(job, sorted);
      return sorted;
    } finally {
      signal?.removeEventListener('abort', onCaller);
      this.active.delete(active);
      release();
      this.afterBatch();
    }
  }

  private remember(job: TrialJob, results: TrialResult[]): void {
    let v = this.verdictsByUri.get(job.uri);
    if (!v || v.version !== job.version) {
      v = { version: job.version, byLine: new Map() };
      this.verdictsByUri.set(job.uri, v);
    }
    v.byLine.set(job.place.line, { place: job.place, results });
  }

  /** One candidate: its text in the shadow, the barrier, the verdict. */
  private async trial(job: TrialJob, c: Candidate, signal: AbortSignal): Promise<TrialResult> {
    const up = this.upstream();
    if (!up?.live) throw new RpcError(ErrorCodes.RequestFailed, 'premise-lsp: trials need the Lean server behind premise-lsp, and it is not running');
    const cfg = this.settings();
    const wrapped = cfg.heartbeats > 0 ? `set_option maxHeartbeats ${cfg.heartbeats} in ${c.step}` : c.step;
    const base = { step: c.step, premise: c.premises.join(', '), premises: c.premises, tactic: c.tactic };
    // the editor first: a trial starts once the prover has answered the editor's requests (or YIELD_MS passed)
    for (const until = Date.now() + YIELD_MS; (up.editorRequestsWaiting ?? 0) > 0 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 2));
      if (signal.aborted) throw signal.reason;
    }
    const { uri, version } = this.sync(up, job.uri, withStep(job.text, job.place, wrapped));
    this.count += 1;
    const deadline = Date.now() + cfg.timeoutMs;
    try {
      await up.request('textDocument/waitForDiagnostics', { uri, version }, { timeoutMs: cfg.timeoutMs, signal });
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      if (e instanceof RpcError && e.code === ErrorCodes.RequestCancelled) {
        this.shadow && (this.shadow.stuck = true);
        return { ...base, outcome: 'timeout', message: `no verdict within ${cfg.timeoutMs} ms` };
      }
      throw e;
    }
    const sh = this.shadow;
    const diags = sh && sh.uri === uri && sh.diags && (sh.diags.version === undefined || sh.diags.version === version) ? sh.diags.list : [];
    const end = stepEnd(job.place, wrapped);
    const errors = stepErrors(diags, job.place.line, job.place.lead.length, end);
    let goals: string[] | undefined;
    if (errors.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) return { ...base, outcome: 'timeout', message: `no verdict within ${cfg.timeoutMs} ms` };
      try {
        const r = await up.request<unknown>('$/lean/plainGoal', { textDocument: { uri }, position: { line: job.place.line, character: end } }, { timeoutMs: left, signal });
        goals = Array.isArray((r as { goals?: unknown } | null)?.goals) ? (goalsOf(r) ?? []) : undefined;
      } catch (e) {
        if (signal.aborted) throw signal.reason;
        // out of time: a timeout; anything else (the prover gone, a refusal) fails the request, never a verdict
        if (e instanceof RpcError && e.code === ErrorCodes.RequestCancelled) return { ...base, outcome: 'timeout', message: `no verdict within ${cfg.timeoutMs} ms` };
        throw e;
      }
    }
    const v = judge(errors, goals);
    return { ...base, outcome: v.outcome, ...(v.goals ? { goals: v.goals } : {}), ...(v.message ? { message: v.message } : {}) };
  }

  /** The shadow of `forUri` holds `text` (opened, or changed by the smallest range); its URI and new version. */
  private sync(up: TrialUpstream, forUri: string, text: string): { uri: string; version: number } {
    if (this.shadow && this.shadow.forUri !== forUri) this.close();
    const sh = this.shadow;
    if (!sh) {
      const uri = shadowUri(forUri);
      this.shadow = { uri, forUri, version: 1, doc: TextDocument.create(uri, 'lean', 1, text), stuck: false };
      up.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lean', version: 1, text } });
      return { uri, version: 1 };
    }
    const old = sh.doc.getText();
    const { start, end, insert } = smallestChange(old, text);
    const range = { start: sh.doc.positionAt(start), end: sh.doc.positionAt(end) };
    sh.version += 1;
    sh.doc = TextDocument.update(sh.doc, [{ range, text: insert }], sh.version);
    sh.stuck = false;
    up.notify('textDocument/didChange', { textDocument: { uri: sh.uri, version: sh.version }, contentChanges: [{ range, text: insert }] });
    return { uri: sh.uri, version: sh.version };
  }

  /** After a batch: with nothing queued, the shadow closes (at once when a trial timed out, else after `keepOpenMs`). */
  private afterBatch(): void {
    if (this.active.size > 0 || !this.shadow) return;
    const keep = this.shadow.stuck ? 0 : this.settings().keepOpenMs;
    if (keep <= 0) return this.close();
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.closeTimer = setTimeout(() => {
      if (this.active.size === 0) this.close();
    }, keep);
    this.closeTimer.unref?.();
  }

  /** `didClose` the shadow (Lean ends its file worker). */
  close(): void {
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.closeTimer = undefined;
    const sh = this.shadow;
    this.shadow = undefined;
    if (!sh) return;
    const up = this.upstream();
    if (up?.live) up.notify('textDocument/didClose', { textDocument: { uri: sh.uri } });
    this.log.debug(`trial document ${sh.uri} closed`);
  }

  /** Whether a shadow document is open now (tests, bench). */
  get shadowOpen(): boolean {
    return this.shadow !== undefined;
  }
}

/** Fewer goals left first. */
function progressOrder(a: TrialResult, b: TrialResult): number {
  if (a.outcome !== 'progress' || b.outcome !== 'progress') return 0;
  return (a.goals?.length ?? Infinity) - (b.goals?.length ?? Infinity);
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** The one range of `before` that `after` replaces (never splitting a surrogate pair). */
export function smallestChange(before: string, after: string): { start: number; end: number; insert: string } {
  let p = 0;
  const max = Math.min(before.length, after.length);
  while (p < max && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  if (p > 0 && isHigh(before.charCodeAt(p - 1))) p--;
  let s = 0;
  while (s < max - p && before.charCodeAt(before.length - 1 - s) === after.charCodeAt(after.length - 1 - s)) s++;
  if (s > 0 && isHigh(before.charCodeAt(before.length - s - 1)) && before.length - s - 1 >= p) s--;
  return { start: p, end: before.length - s, insert: after.slice(p, after.length - s) };
}
