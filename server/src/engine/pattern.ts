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

/**
 * Most matches of one segment kept for ranking (the most used first); the others are
 * counted (Loogle's `count` is the true total) and dropped. Every candidate is checked
 * unless the time budget runs out first.
 */
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

/**
 * Notations the sources write for constants a pattern names (the matcher reads them as the
 * function too): `√` is Mathlib's notation for `Real.sqrt` only (never `Nat.sqrt` or
 * `NNReal.sqrt`); a bare `sqrt` in a term may mean it.
 */
const NOTATION_OF: Readonly<Record<string, string>> = { 'Real.sqrt': '√', sqrt: '√', tsum: '∑', tprod: '∏' };
/** Tokens that symbol sets never hold (statementSymbols' noise): no narrowing by them. */
const NOT_SYMBOLS = new Set([...'()[]{},;:.`"\'↑⇑↥⦃⦄⟨⟩@$', ...'=≠↔→∧∨¬∀∃⟹⋀⟷⟶', 'True', 'False', 'fun', 'λ', 'Prop', '⊢']);

/** A constant as statements may write it: in full, by any dotted suffix (inside its namespace, or opened), by its notation. */
function forms(name: string): string[] {
  const parts = name.split('.');
  const out = parts.map((_, i) => parts.slice(i).join('.'));
  const notation = NOTATION_OF[name];
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

/** The constants a pattern names: its bare-name parts and the qualified names its terms write. */
export function patternConstants(pattern: Pattern): string[] {
  return [...new Set(pattern.parts.flatMap((p) => (p.kind === 'const' ? [p.name] : p.kind === 'name' ? [] : qualified(p.text))))];
}

/** The notation the sources write for a constant (`√` for `Real.sqrt`), if any. */
export const notationOf = (name: string): string | undefined => NOTATION_OF[name];

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
 * for all of them together; a part whose constant tokens the statement does not have
 * (as often) is refused before the matcher runs.
 */
function matchesTerms(parts: readonly { part: TermPart; need: ReadonlyMap<string, number> }[], p: PremiseInfo): boolean {
  const st = statementType(p);
  let steps = PREMISE_STEPS;
  let type: ReturnType<typeof patternTarget> | undefined;
  for (const { part, need } of parts) {
    if (part.kind === 'term') {
      type ??= patternTarget(st.type);
      if (!hasTokens(need, type)) return false;
      const ok = patternMatches(part.pat, type, false, steps);
      steps = stepsLeft();
      if (!ok) return false;
      continue;
    }
    // a `?a` of the conclusion is the same text in the hypotheses (each hypothesis takes the first that fits)
    const concl = patternTarget(st.concl);
    if (!hasTokens(need, concl)) return false;
    let bind = patternBinds(part.concl, concl, new Map(), steps);
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

/** Premises of a symbol looked at for a root-namespace statement that writes it. */
const ROOT_EVIDENCE_SCAN = 4096;

/**
 * Whether a name is a constant the segment knows: one of its premises; a qualified
 * name some statement writes in full (`Nat.sqrt`, declared outside the index: a
 * statement writing it is evidence that it exists); an unqualified one that a premise
 * outside every namespace writes (`List`: there it can only be the root constant,
 * where `rev` inside `namespace Fin` is `Fin.rev`).
 */
export function knownConstant(seg: Segment, name: string): boolean {
  if (seg.table.id(name) !== undefined) return true;
  const sets = seg.symbols;
  const t = sets.ids([name])[0];
  if (t === undefined) return false;
  if (name.includes('.')) return true;
  const docs = sets.postings(t);
  for (let i = 0; i < docs.length && i < ROOT_EVIDENCE_SCAN; i++) if (!seg.table.name(docs[i]!).includes('.')) return true;
  return false;
}

/**
 * Whether a premise's statement mentions the constant `name`, names resolved as Lean
 * resolves them (Loogle matches constants, never text): in full; by its notation
 * (`√` is `Real.sqrt`); or by a suffix (`sqrt`) that the premise's namespaces resolve
 * to it: the innermost namespace with a constant of that suffix decides, so
 * `NNReal.sqrt_mul` (`NNReal.sqrt`) and `Nat.sqrt_le` (`Nat.sqrt`, known from the
 * statements that write it in full) never mention `Real.sqrt`. A suffix that none of
 * the premise's namespaces resolves counts (an `open` the index does not record).
 * Test: test/unit/loogle-fidelity.test.ts.
 */
function meansConstant(seg: Segment, id: number, name: string): boolean {
  const sets = seg.symbols;
  const has = sets.symbols(id);
  const full = sets.ids([name])[0];
  if (full !== undefined && has.includes(full)) return true;
  const notation = NOTATION_OF[name];
  const mark = notation === undefined ? undefined : sets.ids([notation])[0];
  if (mark !== undefined && has.includes(mark)) return true;
  const written = new Set(sets.ids(forms(name).filter((f) => f !== name && f !== notation)));
  if (!has.some((s) => written.has(s))) return false;
  const premise = seg.table.name(id);
  const suffix = name.slice(name.lastIndexOf('.') + 1);
  const ns = premise.split('.').slice(0, -1);
  for (let i = ns.length; i > 0; i--) {
    const local = `${ns.slice(0, i).join('.')}.${suffix}`;
    if (local === name) return true;
    if (knownConstant(seg, local)) return false;
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
 * The groups of symbol forms a premise must mention, each once: a pattern that repeats
 * an operator (`_ * _ * _ * …`) or a constant asks for it once (issue 36: 499 `*` once
 * built 499 posting sets of the same symbol; test/unit/pattern-work.test.ts).
 */
export function symbolGroups(pattern: Pattern): string[][] {
  const seen = new Map<string, string[]>();
  for (const g of pattern.parts.flatMap(requiredSymbols)) {
    const key = [...new Set(g)].sort().join('\u0000');
    if (!seen.has(key)) seen.set(key, g);
  }
  return [...seen.values()];
}

/** Whether `d` is in any of the sorted lists (binary search in each). */
function inAny(lists: readonly Uint32Array[], d: number): boolean {
  for (const l of lists) {
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (l[mid]! < d) lo = mid + 1;
      else hi = mid;
    }
    if (lo < l.length && l[lo] === d) return true;
  }
  return false;
}

/**
 * The premises that mention one form of every group, in id order; undefined when the
 * budget ran out. Postings are read where they are stored (sorted id lists): the
 * smallest group's become the candidates, one array, and each other group filters them
 * in slices, by binary search in its lists; nothing is built per group.
 */
async function candidatesOf(seg: Segment, groups: readonly string[][], run: PatternRun): Promise<Uint32Array | undefined> {
  const sets = seg.symbols;
  const lists = groups.map((g) => sets.ids(g).map((t) => sets.postings(t)));
  const size = (ls: Uint32Array[]) => ls.reduce((n, l) => n + l.length, 0);
  lists.sort((a, b) => size(a) - size(b));
  const first = lists[0]!;
  let cands: Uint32Array;
  if (first.length === 1) cands = first[0]!;
  else {
    // the union of the smallest group's forms, sorted, each id once
    const all = new Uint32Array(size(first));
    let n = 0;
    for (const l of first) all.set(l, (n += l.length) - l.length);
    all.sort();
    let m = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[m++] = all[i]!;
    cands = all.subarray(0, m);
  }
  for (const ls of lists.slice(1)) {
    if (!cands.length) break;
    const kept = new Uint32Array(cands.length);
    let n = 0;
    for (let i = 0; i < cands.length; i++) {
      if (inAny(ls, cands[i]!)) kept[n++] = cands[i]!;
      if ((i & 4095) === 4095 && !(await run.tick())) return undefined;
    }
    cands = kept.subarray(0, n);
    if (!(await run.tick())) return undefined;
  }
  return cands;
}

/**
 * The constant tokens (not holes, not brackets) a term pattern has, with how often:
 * a statement matches only if it has each at least as often (every constant of the
 * pattern is matched by a token of its own), which rejects `_ * _ * … * _` (499 `*`)
 * before the matcher sees a statement with fewer.
 */
function constantCounts(pat: TermPattern): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of pat.toks) if (!pat.vars.has(t) && !OPEN.includes(t) && !CLOSE.includes(t)) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
}

/** Whether the target has every token at least as often as `need` says. */
function hasTokens(need: ReadonlyMap<string, number>, target: { toks: readonly string[] }): boolean {
  if (!need.size) return true;
  const left = new Map(need);
  let missing = left.size;
  for (const t of target.toks) {
    const n = left.get(t);
    if (n === undefined || n === 0) continue;
    left.set(t, n - 1);
    if (n === 1 && --missing === 0) return true;
  }
  return false;
}

/** A segment's matches: the ids kept for ranking (at most MAX_MATCHES, the most used first) and how many matched in all. */
export interface SegmentMatches {
  ids: number[];
  count: number;
}

/**
 * The ids of a segment's premises that match every part, the most used first, at
 * most MAX_MATCHES of them, and the number of all matches; `usable` says which may be
 * returned. Works in slices that give other callers a turn, and stops when `run`'s
 * budget is spent (`run.partial`: the matches found by then).
 */
export async function matchSegment(pattern: Pattern, seg: Segment, usable: (id: number) => boolean, run: PatternRun = new PatternRun(Infinity)): Promise<SegmentMatches> {
  const none: SegmentMatches = { ids: [], count: 0 };
  const groups = symbolGroups(pattern);
  const narrowed = groups.length ? await candidatesOf(seg, groups, run) : undefined;
  if (groups.length && !narrowed) return none;
  const fragments = pattern.parts.flatMap((p) => (p.kind === 'name' ? [p.fragment] : []));
  // as Loogle: case does not matter
  const lower = fragments.map((f) => f.toLowerCase());
  const named = (id: number) => {
    const name = seg.table.name(id).toLowerCase();
    return lower.every((f) => name.includes(f));
  };
  let found: number[] = [];
  if (!narrowed) {
    for (let id = 0; id < seg.table.size; id++) {
      if (named(id) && usable(id)) found.push(id);
      if ((id & 1023) === 1023 && !(await run.tick())) return none;
    }
  } else {
    for (let i = 0; i < narrowed.length; i++) {
      const id = narrowed[i]!;
      if ((!fragments.length || named(id)) && usable(id)) found.push(id);
      if ((i & 4095) === 4095 && !(await run.tick())) return none;
    }
  }
  // as Loogle: a constant the pattern names is a hit of that part itself (`Real.sqrt` finds `Real.sqrt`)
  const selves = pattern.parts.flatMap((p) => (p.kind === 'const' ? [p.name] : []));
  for (const c of selves) {
    const id = seg.table.id(c);
    if (id === undefined || found.includes(id) || !usable(id) || (fragments.length && !named(id))) continue;
    const has = new Set(seg.symbols.symbols(id));
    const own = new Set(forms(c));
    if (groups.every((g) => g.every((f) => own.has(f)) || seg.symbols.ids(g).some((t) => has.has(t)))) found.push(id);
  }
  const cands = byUses(seg, found);
  found = [];
  // constants named in full: also those inside terms (`Real.sqrt ?a`), which the matcher reads by their last part
  const consts = patternConstants(pattern);
  const terms = pattern.parts.filter((p): p is TermPart => p.kind === 'term' || p.kind === 'concl').map((part) => ({ part, need: constantCounts(part.kind === 'term' ? part.pat : part.concl) }));
  const out: number[] = [];
  let count = 0;
  for (const id of cands) {
    if (!(await run.tick())) break;
    if (!consts.every((c) => meansConstant(seg, id, c) || (selves.includes(c) && seg.table.name(id) === c))) continue;
    if (terms.length && !matchesTerms(terms, seg.table.get(id))) continue;
    count++;
    if (out.length < MAX_MATCHES) out.push(id);
  }
  return { ids: out, count };
}

/**
 * A pattern's matches in each of the segments (in order), within one budget for
 * all of them, and how many matched in all (`count`, more than the ids kept): `partial`
 * when it ran out before every candidate was checked (then `count` is those found by then).
 */
export async function matchSegments(
  pattern: Pattern,
  segs: readonly Segment[],
  usable: (seg: Segment, segIndex: number, id: number) => boolean,
  budgetMs: number,
): Promise<{ ids: number[][]; count: number; partial: boolean }> {
  // an index without stored symbol sets builds them here, outside the budget (which is for matching)
  for (const seg of segs) seg.prepareSymbols();
  const run = new PatternRun(budgetMs);
  const ids: number[][] = [];
  let count = 0;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const m = run.partial ? { ids: [], count: 0 } : await matchSegment(pattern, seg, (id) => usable(seg, i, id), run);
    ids.push(m.ids);
    count += m.count;
  }
  return { ids, count, partial: run.partial };
}
