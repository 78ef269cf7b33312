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
import { arrowParts, patternBinds, patternMatches, patternTarget, readTermPattern, splitConclusion, type TermPattern } from './slot.js';

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

/** A bad pattern: a message for the user (empty part, unbalanced brackets, unclosed quote). */
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
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) {
      if (--depth < 0) throw new PatternError(`unbalanced ${JSON.stringify(c)} in the pattern`);
    } else if (depth === 0 && /[∀∃λ∑∏]/.test(c)) binder = true;
    else if (c === ',' && depth === 0) {
      if (binder) binder = false;
      else {
        out.push(text.slice(at, i).trim());
        at = i + 1;
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

/** Without the brackets around the whole text (`⊢ (_ < _ → _)`), if they are one group. */
function unwrap(text: string): string {
  let t = text.trim();
  while (t.startsWith('(') && t.endsWith(')')) {
    let depth = 0;
    let whole = true;
    for (let i = 0; i < t.length - 1 && whole; i++) {
      if (OPEN.includes(t[i]!)) depth++;
      else if (CLOSE.includes(t[i]!) && --depth === 0) whole = false;
    }
    if (!whole) break;
    t = t.slice(1, -1).trim();
  }
  return t;
}

/** Reads a pattern (throws PatternError with what is wrong). */
export function parsePattern(text: string): Pattern {
  const t = text.trim();
  if (!t) throw new PatternError('the pattern is empty');
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
      const pieces = arrowParts(body).map(readTermPattern);
      if (pieces.some((p) => !p.toks.length)) throw new PatternError(`empty hypothesis or conclusion in ${JSON.stringify(raw)}`);
      parts.push({ kind: 'concl', text: body, hyps: pieces.slice(0, -1), concl: pieces[pieces.length - 1]! });
      plain.push(body);
    } else if (IDENT.test(raw)) {
      parts.push({ kind: 'const', name: raw });
      plain.push(raw);
    } else {
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

/** Whether a premise matches a term or conclusion part (constants and names are decided by the symbol sets and names). */
function matchesTerm(part: Extract<PatternPart, { kind: 'term' | 'concl' }>, p: PremiseInfo): boolean {
  const st = statementType(p);
  if (part.kind === 'term') return patternMatches(part.pat, patternTarget(st.type));
  // a `?a` of the conclusion is the same text in the hypotheses (each hypothesis takes the first that fits)
  let bind = patternBinds(part.concl, patternTarget(st.concl), new Map());
  if (!bind) return false;
  const hyps = part.hyps.length ? st.hyps.map(patternTarget) : [];
  for (const h of part.hyps) {
    let next: Map<string, string> | undefined;
    for (const t of hyps) if ((next = patternBinds(h, t, bind))) break;
    if (!next) return false;
    bind = next;
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

/**
 * The ids of a segment's premises that match every part, the most used first, at
 * most MAX_MATCHES of the MAX_CHECKED most used candidates; `usable` says which may be returned.
 */
export function matchSegment(pattern: Pattern, seg: Segment, usable: (id: number) => boolean): number[] {
  let cands: number[] | undefined;
  const groups = pattern.parts.flatMap(requiredSymbols);
  if (groups.length) {
    const sets = groups.map((g) => postingsOf(seg, g)).sort((a, b) => a.size - b.size);
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
    for (let id = 0; id < seg.table.size; id++) if (named(id)) cands.push(id);
  } else if (fragments.length) cands = cands.filter(named);
  cands = cands.filter(usable);
  cands.sort((a, b) => seg.usesOf(b) - seg.usesOf(a) || a - b);
  if (cands.length > MAX_CHECKED) cands.length = MAX_CHECKED;
  // constants named in full: also those inside terms (`Real.sqrt ?a`), which the matcher reads by their last part
  const consts = [...new Set(pattern.parts.flatMap((p) => (p.kind === 'const' ? [p.name] : p.kind === 'name' ? [] : qualified(p.text))))];
  const terms = pattern.parts.filter((p): p is Extract<PatternPart, { kind: 'term' | 'concl' }> => p.kind === 'term' || p.kind === 'concl');
  const out: number[] = [];
  for (const id of cands) {
    if (!consts.every((c) => meansConstant(seg, id, c))) continue;
    if (terms.length) {
      const info = seg.table.get(id);
      if (!terms.every((t) => matchesTerm(t, info))) continue;
    }
    out.push(id);
    if (out.length >= MAX_MATCHES) break;
  }
  return out;
}
