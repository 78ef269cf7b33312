/**
 * "Insert premise" code actions at the cursor for the top premises, as versioned
 * WorkspaceEdits; merged after the upstream's actions; resolved locally.
 */
import type { CodeAction } from 'vscode-languageserver';
import type { PremiseSearch, SearchHit } from '../../engine/types.js';
import { INTERACTIVE_WAIT_MS } from '../engine-host.js';
import { CODE_ACTION_KIND } from '../capabilities.js';
import { codePointBoundary, cursorContext } from '../text/context.js';
import { TAG } from './completion.js';
import { langFor, syntaxFor } from './context.js';
import type { FeatureContext } from './context.js';
import { fileImports, importOptions, rankByImports, type FileImports } from './imports.js';
import { inScope, queryAt } from './query.js';
import { isabelleInsertion, leanInsertion, separatorBefore } from './tactics.js';
import { editText } from '../trials/place.js';

export interface CodeActionParamsLike {
  textDocument?: { uri?: unknown };
  range?: { start?: { line?: unknown; character?: unknown } };
  context?: { only?: unknown };
}

function kindWanted(only: unknown): boolean {
  if (!Array.isArray(only) || only.length === 0) return true;
  return only.some((k) => typeof k === 'string' && (CODE_ACTION_KIND === k || CODE_ACTION_KIND.startsWith(k + '.')));
}

export async function premiseCodeActions(ctx: FeatureContext, params: CodeActionParamsLike): Promise<CodeAction[]> {
  const doc = ctx.docs.get(params.textDocument?.uri);
  const start = params.range?.start;
  const max = ctx.config().codeActions.max;
  if (!doc || typeof start?.line !== 'number' || typeof start.character !== 'number' || max === 0 || !kindWanted(params.context?.only)) return [];
  const verified = trialActions(ctx, doc.uri, doc.version, start.line, max);
  const engine = await ctx.engines.get(INTERACTIVE_WAIT_MS);
  if (!engine || engine.size === 0) return verified;
  return [...verified, ...(await insertActions(ctx, engine, doc.uri, start as { line: number; character: number }, max))];
}

/**
 * What trials found at this step, for this version of the document: the steps
 * Lean said close the goal ("✓ exact add_comm a b — closes the goal"), then those
 * that leave goals; never one that failed or timed out.
 */
function trialActions(ctx: FeatureContext, uri: string, version: number, line: number, max: number): CodeAction[] {
  const known = ctx.trials?.verdicts(uri, version, line)[0];
  if (!known) return [];
  const doc = ctx.docs.get(uri)!;
  const { place, results } = known;
  const range = { start: { line: place.line, character: place.start }, end: { line: place.line, character: place.end } };
  const useful = results.filter((r) => r.outcome === 'closes' || r.outcome === 'progress').slice(0, max);
  return useful.map((r, i) => {
    const left = r.goals?.length;
    const title = r.outcome === 'closes' ? `✓ ${r.step} — closes the goal` : `${r.step} — makes progress${left ? ` (${left} goal${left === 1 ? '' : 's'} left)` : ''}`;
    return {
      title,
      kind: CODE_ACTION_KIND,
      ...(i === 0 && r.outcome === 'closes' ? { isPreferred: true } : {}),
      edit: { documentChanges: [{ textDocument: { uri, version: doc.version }, edits: [{ range, newText: editText(place, r.step) }] }] },
      data: { [TAG]: { name: r.premise, form: 'trial', outcome: r.outcome, verified: true } },
    };
  });
}

async function insertActions(ctx: FeatureContext, engine: PremiseSearch, uri: string, start: { line: number; character: number }, max: number): Promise<CodeAction[]> {
  const doc = ctx.docs.get(uri)!;
  const pos = doc.positionAt(codePointBoundary(doc.getText(), doc.offsetAt({ line: start.line, character: start.character })));
  const query = await queryAt(ctx, doc.uri, pos, ctx.config().goalTimeoutMs);
  if (!query) return [];
  const cfg = ctx.config();
  const text = doc.getText();
  const offset = doc.offsetAt(pos);
  const { slot, prefixStart, prefix } = cursorContext(text, offset, syntaxFor(ctx, doc.uri));
  const fi = fileImports(ctx, doc.uri);
  const hits = await engine.search(query.text, { k: max, mode: cfg.mode, rerank: cfg.rerank, lang: langFor(ctx, doc.uri), slot: slot?.tactic, pattern: false, ...inScope(query), ...importOptions(engine, fi) });
  const goalText = query.source === 'goal' ? query.text : undefined;
  return rankByImports(hits, fi)
    .slice(0, max)
    .map((h) => insertAction(ctx, doc.uri, doc.version, text, offset, prefixStart, prefix, slot, h, goalText, fi));
}

function insertAction(
  ctx: FeatureContext,
  uri: string,
  version: number,
  text: string,
  offset: number,
  prefixStart: number,
  prefix: string,
  slot: ReturnType<typeof cursorContext>['slot'],
  hit: SearchHit,
  goalText: string | undefined,
  fi: FileImports | undefined,
): CodeAction {
  const ins = syntaxFor(ctx, uri) === 'isabelle' ? isabelleInsertion(hit, slot) : leanInsertion(hit, slot, goalText);
  // Inside a slot, a half-typed name is replaced by the premise name.
  const from = slot && prefix ? prefixStart : offset;
  // an action leaves valid syntax: close a Lean rewrite/simp list the line leaves open
  const eol = text.indexOf('\n', offset);
  const lineRest = text.slice(offset, eol < 0 ? text.length : eol);
  const close = syntaxFor(ctx, uri) !== 'isabelle' && slot?.kind === 'list' && !lineRest.includes(']') ? ']' : '';
  const newText = separatorBefore(text.slice(0, from), slot) + ins.text + close;
  const doc = ctx.docs.get(uri)!;
  const range = { start: doc.positionAt(from), end: doc.positionAt(offset) };
  const needs = fi?.needs(hit);
  const importEdit = needs ? fi!.edit(needs, from) : undefined;
  return {
    title: `Insert premise: ${ins.text}${importEdit ? ` (adds import ${fi!.label(needs!)})` : needs ? ` (needs import ${fi!.label(needs)})` : ''}`,
    kind: CODE_ACTION_KIND,
    edit: { documentChanges: [{ textDocument: { uri, version }, edits: [...(importEdit ? [importEdit] : []), { range, newText }] }] },
    data: { [TAG]: { name: hit.name, form: ins.form, rank: hit.rank, ...(needs ? { needs: fi!.label(needs) } : {}) } },
  };
}

export function isOurAction(action: unknown): boolean {
  const data = (action as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) && TAG in (data as object);
}

/** Steps Lean itself verified first (trials), then the upstream's actions (array of Command | CodeAction, or null), then ours. */
export function mergeCodeActions(upstream: unknown, ours: CodeAction[]): unknown[] {
  const verified = ours.filter(isVerified);
  return [...verified, ...(Array.isArray(upstream) ? upstream : []), ...ours.filter((a) => !isVerified(a))];
}

function isVerified(a: CodeAction): boolean {
  return (a.data as Record<string, { verified?: unknown }> | undefined)?.[TAG]?.verified === true;
}
