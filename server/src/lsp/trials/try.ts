/**
 * `premise-lsp.try` and the `auto` trials (started by code action and goal requests): the goal at a tactic step, the top
 * premises for it (or the ones named), their candidate steps, and the runner's
 * verdicts, best first. `$/progress` reports each trial while they run.
 */
import { ErrorCodes, RpcError } from '../../jsonrpc/messages.js';
import type { PremiseInfo } from '../../engine/types.js';
import type { FeatureContext } from '../features/context.js';
import { langFor, syntaxFor } from '../features/context.js';
import { fileImports, importOptions } from '../features/imports.js';
import { inScope, queryAt } from '../features/query.js';
import type { ProgressReporter } from '../progress.js';
import { codePointBoundary, cursorContext } from '../text/context.js';
import { buildCandidates } from './candidates.js';
import { stepPlace } from './place.js';
import type { TrialResult, TrialRunner } from './runner.js';

export interface TryContext extends FeatureContext {
  trials: TrialRunner;
  /** Whether a live Lean server is behind premise-lsp. */
  leanLive(): boolean;
  progress(title: string): Promise<ProgressReporter>;
}

export interface TryArgs {
  uri: string;
  position: { line: number; character: number };
  premises?: string[];
  tactics?: string[];
}

const MAX_NAMES = 50;
/** Candidates per request at most (a few forms of each premise, and the batches). */
const MAX_CANDIDATES = 40;

export function tryArgs(raw: unknown): TryArgs {
  const first = (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown> | undefined;
  const td = first?.textDocument as { uri?: unknown } | undefined;
  const uri = td?.uri ?? first?.uri;
  const pos = first?.position as { line?: unknown; character?: unknown } | undefined;
  const usage = 'premise-lsp.try expects [{textDocument: {uri}, position, premises?, tactics?}]';
  if (typeof uri !== 'string' || !pos || !Number.isInteger(pos.line) || !Number.isInteger(pos.character) || (pos.line as number) < 0 || (pos.character as number) < 0) {
    throw new RpcError(ErrorCodes.InvalidParams, usage);
  }
  const list = (key: string): string[] | undefined => {
    const v = first![key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.length > MAX_NAMES || !v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 1024)) {
      throw new RpcError(ErrorCodes.InvalidParams, `premise-lsp.try: ${key} must be a list of at most ${MAX_NAMES} names`);
    }
    return v as string[];
  };
  return { uri, position: { line: pos.line as number, character: pos.character as number }, premises: list('premises'), tactics: list('tactics') };
}

/** Why trials cannot run now, or undefined. */
export function trialsUnavailable(ctx: TryContext): string | undefined {
  if (ctx.config().trials.mode === 'off') return 'trials are off (the premise-lsp setting "trials")';
  if (ctx.flavor() !== 'lean' || !ctx.leanLive()) return 'trials need the Lean server behind premise-lsp (Lean only; Isabelle: docs/trials.md)';
  return undefined;
}

export interface TryAnswer {
  results: Array<{ step: string; premise: string; outcome: TrialResult['outcome']; goals?: string[]; message?: string }>;
  /** Why nothing was tried (no tactic step, no goal there). */
  reason?: string;
}

/** Try the top premises (or `args.premises`) at `args.position`; best first. */
export async function tryAt(ctx: TryContext, args: TryArgs, signal?: AbortSignal, background = false): Promise<TryAnswer> {
  const why = trialsUnavailable(ctx);
  if (why) throw new RpcError(ErrorCodes.RequestFailed, `premise-lsp: ${why}`);
  const doc = ctx.docs.get(args.uri);
  if (!doc) throw new RpcError(ErrorCodes.InvalidParams, `unknown document ${args.uri} (not open in the editor)`);
  const version = doc.version;
  const text = doc.getText();
  const pos = doc.positionAt(codePointBoundary(text, doc.offsetAt(args.position)));
  const place = stepPlace(text, pos);
  if (!place) return { results: [], reason: 'not at a tactic step' };
  const cfg = ctx.config();
  const query = await queryAt(ctx, args.uri, pos, cfg.goalTimeoutMs);
  if (!query || query.source !== 'goal') return { results: [], reason: 'Lean gave no goal at this position' };
  const { slot } = cursorContext(text, doc.offsetAt(pos), syntaxFor(ctx, args.uri));
  let premises: PremiseInfo[];
  const engine = await ctx.engines.get();
  if (args.premises) {
    premises = args.premises.map((name) => engine?.lookup(name) ?? ({ name, kind: 'theorem', lang: 'lean', module: '', file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, statement: name, args: [], goal: '', uses: 0 } as unknown as PremiseInfo));
  } else {
    if (!engine) throw new RpcError(ErrorCodes.RequestFailed, `premise index not available${ctx.engines.error ? `: ${ctx.engines.error}` : ''}`);
    const fi = fileImports(ctx, args.uri);
    premises = await engine.search(query.text, { k: cfg.trials.premises, mode: cfg.mode, rerank: cfg.rerank, lang: langFor(ctx, args.uri), slot: slot?.tactic, pattern: false, ...inScope(query), ...importOptions(engine, fi) });
  }
  const candidates = buildCandidates(premises.slice(0, MAX_NAMES), query.text, { slotTactic: slot?.tactic, tactics: args.tactics, batch: cfg.trials.premises, max: MAX_CANDIDATES });
  if (candidates.length === 0) return { results: [], reason: 'no candidate step' };
  if (version !== ctx.docs.get(args.uri)?.version) throw new RpcError(ErrorCodes.ContentModified, 'premise-lsp: the document changed before the trials began');
  const progress = await ctx.progress(`premise-lsp: trying ${candidates.length} steps`);
  let closes = 0;
  try {
    const results = await ctx.trials.run(
      {
        uri: args.uri,
        version,
        text,
        place,
        candidates,
        background,
        onProgress: (done, total, last) => {
          if (last.outcome === 'closes') closes += 1;
          progress.report(`${done}/${total}: ${last.step} — ${last.outcome}`, Math.round((100 * done) / total));
        },
      },
      signal,
    );
    progress.end(closes ? `${closes} close the goal` : 'none closes the goal');
    return { results: results.map((r) => ({ step: r.step, premise: r.premise, outcome: r.outcome, ...(r.goals ? { goals: r.goals } : {}), ...(r.message ? { message: r.message } : {}) })) };
  } catch (e) {
    progress.end('stopped');
    throw e;
  }
}

/** `auto` mode: try the place in the background when nothing is known or running for it. */
export function tryInBackground(ctx: TryContext, uri: unknown, position: { line?: unknown; character?: unknown } | undefined): void {
  if (ctx.config().trials.mode !== 'auto' || trialsUnavailable(ctx) || typeof uri !== 'string') return;
  const doc = ctx.docs.get(uri);
  if (!doc || typeof position?.line !== 'number' || typeof position.character !== 'number') return;
  if (ctx.trials.known(uri, doc.version, position.line)) return;
  const job = tryAt(ctx, { uri, position: { line: position.line, character: position.character } }, undefined, true);
  ctx.trials.preparingFor(uri, doc.version, position.line, job);
  void job.catch((e) => ctx.log.debug(`background trials: ${(e as Error).message}`));
}
