/**
 * Pattern search over the index, in Loogle's syntax (docs/ranking.md, "Pattern
 * search"): a constant (`Real.sqrt`: premises that mention it), a name fragment in
 * quotes (`"sqrt_mul"`: names that contain it), a term with holes (`_ * (_ ^ _)`,
 * `?a * ?b = ?b * ?a`: a subterm of the statement), a conclusion (`⊢ tsum _ = _`,
 * `|- _ < _ → tsum _ < tsum _`: the conclusion, and each hypothesis of the
 * pattern some hypothesis), and any of them separated by commas (all must hold).
 * No elaboration: terms are matched as the sources write them, by the slot
 * signal's matcher (slot.ts). Candidates are narrowed by the segment's symbol
 * sets (symbol-sets.ts) before anything is matched, and bounded.
 */
import type { PremiseInfo } from '../../../indexes/src/store/premises.js';
import { binderToHyp } from '../../../indexes/src/extract/lean/signature.js';
import type { Segment } from './segment.js';
import { QueryError } from './query-error.js';
import { readScopeTerms } from './scope.js';
import { arrowParts, MATCH_BUDGET, patternBinds, patternMatches, patternTarget, readTermPattern, splitConclusion, stepsLeft, type TermPattern } from './slot.js';
import { PatternRun } from './pattern-run.js';

export type PatternPart =
  | { kind: 'const'; name: string }
  | { kind: 'name'; fragment: string }
  | { kind: 'term'; text: string; pat: TermPattern }
  | { kind: 'concl'; text: string; hyps: TermPattern[]; concl: TermPattern };

export interface Pattern {
  parts: PatternPart[];
  /** The pattern as a plain query (holes and markers dropped), for the usual signals that order the matches. */
  searchText: string;
}

/** Most candidates one segment's pattern search matches (the most used first), and most matches it keeps. */
export const MAX_CHECKED = 30_000;
export const MAX_MATCHES = 2_000;

/**
 * Bounds on a pattern's own size, checked when it is read (a PatternError past
 * them): Loogle queries are a line of a few parts, and every part, hypothesis and
 * hole multiplies the matching work of every candidate.
 */
export const MAX_PATTERN_CHARS = 1_000;
export const MAX_PATTERN_PARTS = 16;
/** Hypotheses of one `⊢` part (`⊢ _ < _ → _ ≤ _ → …`). */
export const MAX_PATTERN_HYPS = 16;
/** Brackets open at once. */
export const MAX_PATTERN_DEPTH = 32;
/** Holes one after the other (`_ _ _ _`: a hole applied to holes, each way of splitting an application tried). */
export const MAX_HOLES_IN_A_ROW = 4;
/** Steps of the matcher one premise may take for all the parts of a pattern together. */
const PREMISE_STEPS = 4 * MATCH_BUDGET;

/** A bad pattern: a message for the user (empty part, unbalanced brackets, unclosed quote, too large). */
export class PatternError extends QueryError {}

const IDENT = /^[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)*$/u;
const TURNSTILE = /^(?:⊢|\|-)\s*/;
const HOLE = /(?<![\p{L}\p{N}_'.?])_(?![\p{L}\p{N}_'])|\?[\p{L}_]/u;
const QUOTED = /^"[^"\s]+"$/;
const OPEN = '([{⟨⦃';
const CLOSE = ')]}⟩⦄';

/** The top-level comma-separated parts (a comma inside brackets, or after a binder `∀ x`, is not a separator). */
function splitParts(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let at = 0;
  let binder = false;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    if (quoted) continue;
    if (OPEN.includes(c)) {
      if (++depth > MAX_PATTERN_DEPTH) throw new PatternError(`the pattern nests brackets more than ${MAX_PATTERN_DEPTH} deep`);
    } else if (CLOSE.includes(c)) {
      if (--depth < 0) throw new PatternError(`unbalanced ${JSON.stringify(c)} in the pattern`);
    } else if (depth === 0 && /[∀∃λ∑∏]/.test(c)) binder = true;
    else if (c === ',' && depth === 0) {
      if (binder) binder = false;
      else {
        out.push(text.slice(at, i).trim());
        at = i + 1;
        if (out.length >= MAX_PATTERN_PARTS) throw new PatternError(`the pattern has more than ${MAX_PATTERN_PARTS} comma-separated parts`);
      }
    }
  }
  if (quoted) throw new PatternError('a name fragment in the pattern has no closing "');
  if (depth !== 0) throw new PatternError('unbalanced brackets in the pattern');
  out.push(text.slice(at).trim());
  return out;
}

/**
 * Whether a query is written as a pattern: one line whose comma-separated parts are
 * all pattern-like, at least one of them unmistakably so (holes `_` or `?a`, a quoted
 * name fragment, `⊢`/`|-` followed by a hole, or `|-`). A bare name alone stays a
 * name search (`--pattern` reads it as a constant).
 */
export function looksLikePattern(text: string): boolean {
  const t = text.trim();
  if (!t || t.includes('\n')) return false;
  let parts: string[];
  try {
    parts = splitParts(t);
  } catch {
    return false;
  }
  if (parts.some((p) => !p)) return false;
  // a printed goal's metavariables (`?m.5`) and binders named `_` (`fun _ =>`) are no holes
  const sure = (p: string) => QUOTED.test(p) || p.startsWith('|-') || HOLE.test(p.replace(/\?[\p{L}_][\p{L}\p{N}_']*\.\d+/gu, ' ').replace(/(?:fun|λ|∀|∃)\s+_/gu, ' '));
  return parts.some(sure) && parts.every((p) => sure(p) || IDENT.test(p) || TURNSTILE.test(p));
}

/** Whether a search of this query text (without the `pattern` option) reads it as a pattern. */
export function isPatternQuery(query: string): boolean {
  return looksLikePattern(readScopeTerms(query).text);
}

/** Without the brackets around the whole text (`⊢ (_ < _ → _)`), if they are one group (one pass over the text, however deep). */
function unwrap(text: string): string {
  const t = text.trim();
  // where each bracket closes
  const closer = new Int32Array(t.length).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < t.length; i++) {
    if (OPEN.includes(t[i]!)) stack.push(i);
    else if (CLOSE.includes(t[i]!) && stack.length) closer[stack.pop()!] = i;
  }
  let a = 0;
  let b = t.length - 1;
  while (a < b && t[a] === '(' && closer[a] === b) {
    a++;
    b--;
    while (a <= b && /\s/.test(t[a]!)) a++;
    while (b >= a && /\s/.test(t[b]!)) b--;
  }
  return t.slice(a, b + 1);
}

/** A PatternError when a term part has more holes in a row than MAX_HOLES_IN_A_ROW. */
function checkHoles(raw: string): void {
  const run = new RegExp(`(?:(?:${HOLE.source})\\s*){${MAX_HOLES_IN_A_ROW + 1}}`, 'u');
  if (run.test(raw.replace(/\?[\p{L}_][\p{L}\p{N}_']*/gu, '?a'))) {
    throw new PatternError(`more than ${MAX_HOLES_IN_A_ROW} holes in a row in ${JSON.stringify(raw.length > 60 ? raw.slice(0, 60) + '…' : raw)}`);
  }
}

/** Reads a pattern (throws PatternError with what is wrong). */
export function parsePattern(text: string): Pattern {
  const t = text.trim();
  if (!t) throw new PatternError('the pattern is empty');
  if (t.length > MAX_PATTERN_CHARS) throw new PatternError(`the pattern has ${t.length} characters, more than the ${MAX_PATTERN_CHARS} allowed`);
  const parts: PatternPart[] = [];
  const plain: string[] = [];
  for (const raw of splitParts(t)) {
    if (!raw) throw new PatternError(`empty part in the pattern ${JSON.stringify(t)} (parts are separated by commas)`);
    if (raw.startsWith('"')) {
      if (!QUOTED.test(raw)) throw new PatternError(`a name fragment is one quoted word, got ${raw}`);
      parts.push({ kind: 'name', fragment: raw.slice(1, -1) });
      plain.push(raw.slice(1, -1).replace(/[_.]/g, ' '));
    } else if (TURNSTILE.test(raw)) {
      const body = unwrap(raw.replace(TURNSTILE, ''));
      if (!body) throw new PatternError('⊢ needs a conclusion after it');
      const arrows = arrowParts(body);
      if (arrows.length - 1 > MAX_PATTERN_HYPS) throw new PatternError(`the conclusion pattern has ${arrows.length - 1} hypotheses, more than the ${MAX_PATTERN_HYPS} allowed`);
      arrows.forEach(checkHoles);
      const pieces = arrows.map(readTermPattern);
      if (pieces.some((p) => !p.toks.length)) throw new PatternError(`empty hypothesis or conclusion in ${JSON.stringify(raw)}`);
      parts.push({ kind: 'concl', text: body, hyps: pieces.slice(0, -1), concl: pieces[pieces.length - 1]! });
      plain.push(body);
    } else if (IDENT.test(raw)) {
      parts.push({ kind: 'const', name: raw });
      plain.push(raw);
    } else {
      checkHoles(raw);
      const pat = readTermPattern(raw);
      if (!pat.toks.length) throw new PatternError(`nothing to match in ${JSON.stringify(raw)}`);
      parts.push({ kind: 'term', text: raw, pat });
      plain.push(raw);
    }
  }
  const searchText = plain
    .join(' ')
    .replace(/\?([\p{L}_])/gu, '$1')
    .replace(new RegExp(HOLE.source.split('|')[0]!, 'gu'), ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { parts, searchText: searchText || t };
}

/** Notations the sources write for constants a pattern names (the matcher reads them as the function too). */
const NOTATION_OF: Readonly<Record<string, string>> = { sqrt: '√', tsum: '∑', tprod: '∏' };
/** Tokens that symbol sets never hold (statementSymbols' noise): no narrowing by them. */
const NOT_SYMBOLS = new Set([...'()[]{},;:.`"\'↑⇑↥⦃⦄⟨⟩@$', ...'=≠↔→∧∨¬∀∃⟹⋀⟷⟶', 'True', 'False', 'fun', 'λ', 'Prop', '⊢']);

/** A constant as statements may write it: in full, by any dotted suffix (inside its namespace, or opened), by its notation. */
function forms(name: string): string[] {
  const parts = name.split('.');
  const out = parts.map((_, i) => parts.slice(i).join('.'));
  const notation = NOTATION_OF[parts[parts.length - 1]!];
  if (notation) out.push(notation);
  return out;
}

/**
 * What a premise must mention for a part to match: groups of symbol forms, one form
 * of each group. Holes and single letters (variables) say nothing.
 */
function requiredSymbols(part: PatternPart): string[][] {
  if (part.kind === 'name') return [];
  if (part.kind === 'const') return [forms(part.name)];
  const text = part.text.replace(/\?[\p{L}_][\p{L}\p{N}_']*/gu, ' ').replace(/->/g, '→');
  const groups: string[][] = [];
  for (const m of text.matchAll(/([\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)*)|([0-9]+)|(\S)/gu)) {
    const [tok, ident, num, sym] = m;
    if (ident !== undefined) {
      if (ident === '_' || /^[A-Za-zα-ορ-ωϕ][₀-₉'!?]*$/u.test(ident) || NOT_SYMBOLS.has(ident)) continue;
      groups.push(forms(ident));
    } else if (num !== undefined) groups.push([num]);
    else if (sym !== undefined && !NOT_SYMBOLS.has(tok!) && tok !== '_') groups.push([sym]);
  }
  return groups;
}

/** The qualified names (`Real.sqrt`) a term writes. */
function qualified(text: string): string[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}_'.?])[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)+/gu)].map((m) => m[0]);
}

/** A premise's statement as one type: its binders' types as `T →` (one per name bound), then its conclusion. */
export function statementType(p: Pick<PremiseInfo, 'args' | 'goal' | 'statement'>): { type: string; hyps: string[]; concl: string } {
  const hyps: string[] = [];
  for (const a of p.args) {
    const h = binderToHyp(a);
    const m = /^([^:]*?)\s:\s([\s\S]*)$/.exec(h);
    if (!m) continue;
    const names = m[1]!.split(/\s+/).filter(Boolean);
    for (let i = 0; i < Math.max(1, names.length); i++) hyps.push(m[2]!.trim());
  }
  const goal = p.goal || p.statement;
  const inner = splitConclusion(goal);
  const wrap = (t: string) => (/[→∀]|->/.test(t) ? `(${t})` : t);
  return { type: [...hyps.map(wrap), goal].join(' → '), hyps: [...hyps, ...inner.hyps], concl: inner.concl };
}

type TermPart = Extract<PatternPart, { kind: 'term' | 'concl' }>;

/**
 * Whether a premise matches every term and conclusion part (constants and names
 * are decided by the symbol sets and names), within PREMISE_STEPS of the matcher
 * for all of them together.
 */
function matchesTerms(parts: readonly TermPart[], p: PremiseInfo): boolean {
  const st = statementType(p);
  let steps = PREMISE_STEPS;
  let type: ReturnType<typeof patternTarget> | undefined;
  for (const part of parts) {
    if (part.kind === 'term') {
      const ok = patternMatches(part.pat, (type ??= patternTarget(st.type)), false, steps);
      steps = stepsLeft();
      if (!ok) return false;
      continue;
    }
    // a `?a` of the conclusion is the same text in the hypotheses (each hypothesis takes the first that fits)
    let bind = patternBinds(part.concl, patternTarget(st.concl), new Map(), steps);
    steps = stepsLeft();
    if (!bind) return false;
    const hyps = part.hyps.length ? st.hyps.map(patternTarget) : [];
    for (const h of part.hyps) {
      let next: Map<string, string> | undefined;
      for (const t of hyps) {
        if (steps <= 0) return false;
        next = patternBinds(h, t, bind, steps);
        steps = stepsLeft();
        if (next) break;
      }
      if (!next) return false;
      bind = next;
    }
  }
  return true;
}

/** Union of the postings of any of the forms (empty when none is a known symbol: nothing can match). */
function postingsOf(seg: Segment, group: readonly string[]): Set<number> {
  const sets = seg.symbols;
  const out = new Set<number>();
  for (const id of sets.ids(group)) for (const d of sets.postings(id)) out.add(d);
  return out;
}

/**
 * A constant written by a suffix only (`sqrt` for `Real.sqrt`) counts unless the
 * premise's own namespace has a constant of that suffix (`NNReal.sqrt_mul` writes
 * `sqrt` for `NNReal.sqrt`).
 */
function meansConstant(seg: Segment, id: number, name: string): boolean {
  const sets = seg.symbols;
  const written = new Set(sets.ids(forms(name)));
  const full = sets.ids([name])[0];
  const has = sets.symbols(id);
  if (full !== undefined && has.includes(full)) return true;
  if (!has.some((s) => written.has(s))) return false;
  const premise = seg.table.name(id);
  const suffix = name.slice(name.lastIndexOf('.') + 1);
  const ns = premise.split('.').slice(0, -1);
  for (let i = ns.length; i > 0; i--) {
    const local = `${ns.slice(0, i).join('.')}.${suffix}`;
    if (local === name) return true;
    if (seg.table.id(local) !== undefined) return false;
  }
  return true;
}

/** Sorts ids by uses, most first, then by id (one numeric key each: no comparator calls). */
function byUses(seg: Segment, ids: number[]): number[] {
  const keys = new Float64Array(ids.length);
  // ids < 2^24 and uses < 2^28 in any index: the key is exact
  ids.forEach((id, i) => (keys[i] = -seg.usesOf(id) * 2 ** 24 + id));
  keys.sort();
  return Array.from(keys, (k) => ((k % 2 ** 24) + 2 ** 24) % 2 ** 24);
}

/**
 * The ids of a segment's premises that match every part, the most used first, at
 * most MAX_MATCHES of the MAX_CHECKED most used candidates; `usable` says which may
 * be returned. Works in slices that give other callers a turn, and stops when
 * `run`'s budget is spent (`run.partial`: the matches found by then).
 */
export async function matchSegment(pattern: Pattern, seg: Segment, usable: (id: number) => boolean, run: PatternRun = new PatternRun(Infinity)): Promise<number[]> {
  let cands: number[] | undefined;
  const groups = pattern.parts.flatMap(requiredSymbols);
  if (groups.length) {
    const sets: Set<number>[] = [];
    for (const g of groups) {
      sets.push(postingsOf(seg, g));
      if (!(await run.tick())) return [];
    }
    sets.sort((a, b) => a.size - b.size);
    cands = [...sets[0]!].filter((d) => sets.every((s) => s.has(d)));
  }
  const fragments = pattern.parts.flatMap((p) => (p.kind === 'name' ? [p.fragment] : []));
  // as Loogle: case does not matter
  const lower = fragments.map((f) => f.toLowerCase());
  const named = (id: number) => {
    const name = seg.table.name(id).toLowerCase();
    return lower.every((f) => name.includes(f));
  };
  if (!cands) {
    cands = [];
    for (let id = 0; id < seg.table.size; id++) {
      if (named(id)) cands.push(id);
      if ((id & 1023) === 1023 && !(await run.tick())) return [];
    }
  } else if (fragments.length) cands = cands.filter(named);
  cands = byUses(seg, cands.filter(usable));
  if (cands.length > MAX_CHECKED) cands.length = MAX_CHECKED;
  // constants named in full: also those inside terms (`Real.sqrt ?a`), which the matcher reads by their last part
  const consts = [...new Set(pattern.parts.flatMap((p) => (p.kind === 'const' ? [p.name] : p.kind === 'name' ? [] : qualified(p.text))))];
  const terms = pattern.parts.filter((p): p is TermPart => p.kind === 'term' || p.kind === 'concl');
  const out: number[] = [];
  for (const id of cands) {
    if (!(await run.tick())) break;
    if (!consts.every((c) => meansConstant(seg, id, c))) continue;
    if (terms.length && !matchesTerms(terms, seg.table.get(id))) continue;
    out.push(id);
    if (out.length >= MAX_MATCHES) break;
  }
  return out;
}

/**
 * A pattern's matches in each of the segments (in order), within one budget for
 * all of them: `partial` when it ran out before every candidate was checked.
 */
export async function matchSegments(
  pattern: Pattern,
  segs: readonly Segment[],
  usable: (seg: Segment, segIndex: number, id: number) => boolean,
  budgetMs: number,
): Promise<{ ids: number[][]; partial: boolean }> {
  // an index without stored symbol sets builds them here, outside the budget (which is for matching)
  for (const seg of segs) seg.prepareSymbols();
  const run = new PatternRun(budgetMs);
  const ids: number[][] = [];
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    ids.push(run.partial ? [] : await matchSegment(pattern, seg, (id) => usable(seg, i, id), run));
  }
  return { ids, partial: run.partial };
}
