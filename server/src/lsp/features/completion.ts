/**
 * Premise completions: ranked premises for the goal at the cursor, merged into
 * the upstream's completion reply (array or CompletionList), tagged so that
 * `completionItem/resolve` for them is answered here and never forwarded.
 *
 * Each item is shaped for completion engines that show what the server sends
 * (blink.cmp, nvim-cmp, VS Code) with no plugin: a `kind` by declaration kind
 * (`completionKind`), a short `detail` (the module, or "needs import M"),
 * `labelDetails.description` the module, and markdown `documentation` with the
 * statement in a code block, the docstring and the module; a premise from a
 * module the file does not import carries the import as `additionalTextEdits`.
 */
import type { CompletionItem, CompletionList, Range, TextEdit } from 'vscode-languageserver';
import type { DeclKind } from '../../../../indexes/src/extract/record.js';
import type { PremiseInfo, SearchHit } from '../../engine/types.js';
import { codePointBoundary, cursorContext, type Slot } from '../text/context.js';
import type { Region } from '../text/syntax.js';
import { TRIGGER_CHARACTERS } from '../capabilities.js';
import { langFor, syntaxFor, type FeatureContext } from './context.js';
import { premiseMarkdown, shortName } from './present.js';
import { fileImports, importOptions, rankByImports, type FileImports } from './imports.js';
import { inScope, queryAt } from './query.js';

export const TAG = 'premise-lsp';
/** The proof state must come quickly for completion; after this we fall back. */
export const COMPLETION_GOAL_BUDGET_MS = 1500;

export interface CompletionParamsLike {
  textDocument?: { uri?: unknown };
  position?: { line?: unknown; character?: unknown };
  context?: { triggerKind?: number; triggerCharacter?: string };
}

export interface PremiseCompletions {
  items: CompletionItem[];
  prefix: string;
  slot?: Slot;
}

/**
 * Is this a place (and a moment) to offer premises? Never in a comment or a string
 * (`region`); one of our trigger characters (`triggered`: space, `[`, `,`) only where a
 * premise begins in a slot (`rw [`, `exact `, after a comma in a lemma list); else in
 * a slot or after two typed characters. Everywhere else the prover's own completion
 * is left as it is. Test: test/protocol/completion-places.test.ts.
 */
export function wantsPremises(prefix: string, slot: Slot | undefined, region: Region = 'code', triggered = false): boolean {
  if (region !== 'code') return false;
  if (triggered) return slot?.start === true;
  return slot !== undefined || prefix.length >= 2;
}

export async function premiseCompletions(ctx: FeatureContext, params: CompletionParamsLike): Promise<PremiseCompletions> {
  const empty = { items: [], prefix: '' };
  const uri = params.textDocument?.uri;
  const doc = ctx.docs.get(uri);
  const pos = params.position;
  if (!doc || typeof pos?.line !== 'number' || typeof pos.character !== 'number' || !ctx.config().completion.enabled) return empty;
  const position = { line: pos.line, character: pos.character };
  const text = doc.getText();
  const at = doc.offsetAt(position);
  const offset = codePointBoundary(text, at);
  const { prefix, prefixStart, region, slot } = cursorContext(text, offset, syntaxFor(ctx, doc.uri));
  // one of our trigger characters, as VS Code sends it: `{triggerKind: 2, triggerCharacter: " "}` (the prover's own, Lean's `.`, is not)
  const trig = params.context?.triggerKind === 2 ? params.context.triggerCharacter : undefined;
  const triggered = typeof trig === 'string' && TRIGGER_CHARACTERS.includes(trig);
  if (!wantsPremises(prefix, slot, region, triggered)) return { items: [], prefix, slot };
  const engine = ctx.engines.now();
  // No index (or an empty one): stay out of the way, and do not ask the prover for goals.
  if (!engine || engine.size === 0) return { items: [], prefix, slot };

  const cfg = ctx.config();
  const lang = langFor(ctx, doc.uri);
  const query = await queryAt(ctx, doc.uri, position, Math.min(cfg.goalTimeoutMs, COMPLETION_GOAL_BUDGET_MS));
  const fi = fileImports(ctx, doc.uri);
  const opts = { k: cfg.k, mode: cfg.mode, rerank: cfg.rerank, lang, ...inScope(query), ...importOptions(engine, fi) };
  const [byGoal, byPrefix] = await Promise.all([
    // the slot's tactic ranks the goal's premises (`rw [` wants equations whose left side is in the goal)
    // a goal or a typed prefix, never a pattern
    query ? engine.search(query.text, { ...opts, slot: slot?.tactic, pattern: false }).catch(() => []) : Promise.resolve([] as SearchHit[]),
    prefix.length >= 2 ? engine.search(prefix, { ...opts, pattern: false }).catch(() => []) : Promise.resolve([] as SearchHit[]),
  ]);
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const h of [...byGoal, ...byPrefix]) {
    if (seen.has(h.name)) continue;
    seen.add(h.name);
    hits.push(h);
  }
  const range = { start: doc.positionAt(prefixStart), end: offset === at ? position : doc.positionAt(offset) };
  const items = rankByImports(hits, fi).map((h, i) => premiseItem(h, i + 1, range, importFor(fi, h, prefixStart)));
  return { items: withVerdicts(ctx, doc.uri, doc.version, position.line, items), prefix, slot };
}

/**
 * Items whose premise a trial at this step tried carry the verdict: one that
 * closes the goal says so in its detail and documentation and comes first; one
 * that makes progress says so; a failure is not shown.
 */
function withVerdicts(ctx: FeatureContext, uri: string, version: number, line: number, items: CompletionItem[]): CompletionItem[] {
  const results = ctx.trials?.verdicts(uri, version, line)[0]?.results;
  if (!results?.length) return items;
  const out = items.map((it) => {
    const r = results.find((x) => x.premises.length === 1 && x.premises[0] === it.label && (x.outcome === 'closes' || x.outcome === 'progress'));
    if (!r) return it;
    const closes = r.outcome === 'closes';
    const note = closes ? `✓ \`${r.step}\` closes the goal (checked by Lean)` : `\`${r.step}\` makes progress (checked by Lean)`;
    const docs = it.documentation as { kind: 'markdown'; value: string } | undefined;
    return {
      ...it,
      detail: `${closes ? '✓ closes the goal' : 'makes progress'}: ${r.step}`,
      documentation: { kind: 'markdown' as const, value: note + (docs?.value ? '\n\n' + docs.value : '') },
      // before the prover's items too (theirs are 'a…', ours 'b…')
      ...(closes ? { sortText: '0' + it.sortText!.slice(1) } : {}),
    };
  });
  return [...out.filter((it) => it.detail?.startsWith('✓')), ...out.filter((it) => !it.detail?.startsWith('✓'))];
}

/**
 * The CompletionItemKind of a declaration kind. Theorems and lemmas are used by
 * name as proofs, never called, so they are Constants (as are axioms); what
 * takes arguments to compute is a Function; types are Struct (structures,
 * inductives) or Class (type classes); constructors Constructor, fields Field,
 * instances Value.
 */
export function completionKind(kind: DeclKind): NonNullable<CompletionItem['kind']> {
  switch (kind) {
    case 'def':
    case 'abbrev':
    case 'definition':
    case 'fun':
    case 'opaque':
      return 3; // Function
    case 'structure':
    case 'inductive':
      return 22; // Struct
    case 'class':
      return 7; // Class
    case 'constructor':
      return 4; // Constructor
    case 'field':
      return 5; // Field
    case 'instance':
      return 12; // Value
    default:
      return 21; // Constant: theorems, lemmas, corollaries, propositions, axioms
  }
}

function pad(n: number): string {
  return String(n).padStart(4, '0');
}

/** The import a premise needs, with its edit when that goes before the completion's own text; none when it needs none. */
function importFor(fi: FileImports | undefined, h: PremiseInfo, before: number): { module: string; edit?: TextEdit } | undefined {
  const module = fi?.needs(h);
  if (!module) return undefined;
  const edit = fi!.edit(module, before);
  return { module: fi!.label(module), ...(edit ? { edit } : {}) };
}

/** The documentation of a premise item: statement, docstring, module, and the import it needs. */
function itemDocs(h: PremiseInfo, needs: string | undefined, added = true): { kind: 'markdown'; value: string } {
  const note = needs ? `\n\nNeeds \`import ${needs}\`${added ? ' (added when picked)' : ''}.` : '';
  return { kind: 'markdown', value: premiseMarkdown(h) + note };
}

export function premiseItem(h: PremiseInfo & { rank?: number }, rank: number, range: Range, needs?: { module: string; edit?: TextEdit }): CompletionItem {
  return {
    label: h.name,
    kind: completionKind(h.kind),
    detail: needs ? `needs import ${needs.module}` : h.module,
    documentation: itemDocs(h, needs?.module, needs?.edit !== undefined),
    labelDetails: { description: h.module },
    sortText: 'b' + pad(rank),
    filterText: h.name,
    textEdit: { range, newText: h.name },
    ...(needs?.edit ? { additionalTextEdits: [needs.edit] } : {}),
    data: { [TAG]: h.name, rank, ...(needs ? { needs: needs.module } : {}) },
  };
}

/** How well a label answers the typed prefix (0 = not at all). */
export function prefixScore(label: string, prefix: string): number {
  if (!prefix) return 0;
  const short = shortName(label);
  if (label === prefix || short === prefix) return 3;
  if (short.startsWith(prefix) || label.startsWith(prefix)) return 2;
  const p = prefix.toLowerCase();
  if (short.toLowerCase().startsWith(p) || label.toLowerCase().startsWith(p)) return 1;
  return 0;
}

type Reply = CompletionItem[] | CompletionList | null | undefined;

/**
 * Upstream items first, then premises by rank; a premise whose name matches the
 * typed prefix better than every upstream label moves ahead. Keeps the reply's
 * shape (Isabelle replies with a plain array).
 */
export function mergeCompletions(upstream: Reply, ours: CompletionItem[], prefix: string): CompletionItem[] | CompletionList {
  const list = Array.isArray(upstream) ? upstream : Array.isArray(upstream?.items) ? upstream!.items : [];
  let best = 0;
  for (const it of list) best = Math.max(best, prefixScore(typeof it.label === 'string' ? it.label : '', prefix));
  const up = list.map((it) => ({ ...it, sortText: 'a' + (it.sortText ?? it.label) }));
  const mine = ours.map((it) => (prefixScore(it.label, prefix) > best ? { ...it, sortText: '0' + it.sortText!.slice(1) } : it));
  const items = [...up, ...mine];
  if (Array.isArray(upstream)) return items;
  if (upstream && typeof upstream === 'object') return { ...upstream, items };
  return { isIncomplete: false, items };
}

export function isOurItem(item: unknown): item is CompletionItem & { data: Record<string, unknown> } {
  const data = (item as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) && typeof (data as Record<string, unknown>)[TAG] === 'string';
}

export function resolveItem(ctx: FeatureContext, item: CompletionItem & { data: Record<string, unknown> }): CompletionItem {
  const name = item.data[TAG] as string;
  const info = ctx.engines.now()?.lookup(name);
  if (!info) return item;
  const needs = typeof item.data.needs === 'string' ? item.data.needs : undefined;
  return { ...item, documentation: itemDocs(info, needs, Boolean(item.additionalTextEdits?.length)) };
}
