/**
 * A `@[to_additive]` twin's text as Lean prints it: a multiplicative statement's
 * tokens translated with notation in mind, after Mathlib's own rules
 * (`Mathlib/Tactic/ToAdditive/Frontend.lean`: `Mul → Add`, `Inv → Neg`,
 * `Div → Sub`, `Pow → SMul` with the operands swapped, `One → Zero`, `mabs → abs`,
 * `Finset.prod → Finset.sum`), where a token-by-token mapping gave `a- + a`,
 * `a • 2`, `|a|ₘ`:
 *
 * - postfix `x⁻¹` is prefix `-x`, on the atom it follows (a name, a numeral, a
 *   bracketed group, a projection `x.1`): `(a * b)⁻¹` → `-(a + b)`, `a⁻¹⁻¹` →
 *   `- -a`, and in argument position parenthesised: `edist a⁻¹ b⁻¹` →
 *   `edist (-a) (-b)`, `↑a⁻¹` → `↑(-a)`, as a function or projected:
 *   `f⁻¹ i` → `(-f) i`, `s⁻¹.card` → `(-s).card`; `f ⁻¹' s` (preimage) is kept;
 * - `a ^ n` is `n • a`: the base is the application before `^` (`f x ^ n` →
 *   `n • f x`), the exponent the one after, right-associated, kept as written
 *   (it is a natural number or an integer: `a ^ (m * n)` → `(m * n) • a`, its
 *   `*` and `1` untranslated), and parenthesised when it is itself a power
 *   (`a ^ m ^ n` → `(m ^ n) • a`; an application needs none: `gcd m n • a`);
 * - `*` → `+`, `/` → `-`, `∏` → `∑`, `∏ᶠ` → `∑ᶠ`, `•` → `+ᵥ`, `|a|ₘ` → `|a|`,
 *   `a⁺ᵐ`/`a⁻ᵐ` → `a⁺`/`a⁻`, `Gᵐᵒᵖ` → `Gᵃᵒᵖ`;
 *   names through the name dictionary (`names.ts`: `mulIndicator` → `indicator`);
 * - `1` → `0` only where it stands for `One.one`. Without types this is a
 *   heuristic: a `1` stays a numeral in an exponent, next to a `+` or `-` of the
 *   source (`n + 1`: the multiplicative source has no `+` on the monoid), as the
 *   argument of `Fin`, `range`, `Finset.range`, `List.range`, `Nat.succ`,
 *   ascribed `(1 : ℕ)`/`(1 : ℤ)`, and compared with a natural-number-valued
 *   function (`orderOf x = 1`, `s.card ≤ 1`, `H.index = 1`: `NAT_VALUED`);
 *   everywhere else it is the monoid's one. Other
 *   numerals (`2`, `10`) are never translated.
 *
 * Anything it does not recognise passes through token by token (`translateTok`),
 * so a text it cannot read is translated no worse than before. Never throws on
 * any token sequence; groups nested deeper than 32 and texts of over 20,000
 * tokens are translated token by token (`⁻¹` and `^` then left as written), and
 * a `|` looks at most 256 tokens ahead for its `|ₘ`: the work is linear.
 */
import { T, matchClose, plainTok, type Tok } from './lex.js';
import { translateTok } from './names.js';

/** A piece of the translated text: its text, whether whitespace came before it in the source, and what it is. */
interface Item {
  text: string;
  sp: boolean;
  /** `atom`: a name, numeral, group (can take `⁻¹`, be an argument); `neg`: a translated `x⁻¹`; `prefix`: `↑`-like; `compound`: `n • a`; `op`: anything else. */
  kind: 'atom' | 'neg' | 'prefix' | 'compound' | 'op';
  /** For `( … )` around an application alone: the application, which a negation needs no parentheses for (`-f x`). */
  app?: string;
}

/** Identifiers that are syntax, not terms (never part of an application). */
const KEYWORDS = new Set(['fun', 'then', 'else', 'if', 'let', 'have', 'show', 'from', 'by', 'at', 'with', 'match', 'do', 'in', 'λ', 'Type', 'Sort', 'Prop']);
/** Prefix operators at maximal precedence: part of the application they start. */
const PREFIX = new Set(['↑', '⇑', '↥', '@']);
/** Heads whose argument `1` is a natural number. */
const NAT_HEADS = new Set(['Fin', 'range', 'Finset.range', 'List.range', 'Nat.succ', 'Fin.last', 'Multiset.range']);
/** Natural-number-valued functions (by last name component): `orderOf x = 1`, `s.card ≤ 1`, `H.index = 1` compare numerals. */
const NAT_VALUED = new Set(['orderOf', 'card', 'index', 'relindex', 'exponent', 'natDegree', 'degree', 'length', 'finrank', 'rank', 'count', 'multiplicity']);
/** Relations whose sides are of one type. */
const RELATIONS = new Set(['=', '≠', '<', '≤', '>', '≥', '∣']);

/** Is the operand run ending before `j` (or starting after it, `dir` 1) headed by a natural-number-valued function? */
function natValued(toks: Tok[], j: number, dir: -1 | 1, a: number, b: number): boolean {
  let head: Tok | undefined;
  let depth = 0;
  for (let k = j, n = 0; k >= a && k < b && n < 16; k += dir, n++) {
    const t = toks[k]!;
    if (t.k === T.Open || t.k === T.Close) {
      depth += (t.k === T.Open ? 1 : -1) * dir;
      if (depth < 0) break;
      continue;
    }
    if (depth > 0) continue;
    if (t.k === T.Id || t.k === T.Proj) {
      head = t;
      if (dir === 1) break;
    } else if (t.k !== T.Num) break;
  }
  if (!head) return false;
  const last = head.v.slice(head.v.lastIndexOf('.') + 1);
  return NAT_VALUED.has(last) || NAT_VALUED.has(translateBack(last));
}

/** `addOrderOf` reads as `orderOf` for `NAT_VALUED`. */
const translateBack = (s: string) => (s.startsWith('add') && s.length > 3 ? s[3]!.toLowerCase() + s.slice(4) : s);

/** Number types: `(1 : ℕ)` is a numeral. */
const NUMBER_TYPES = new Set(['ℕ', 'ℤ', 'Nat', 'Int']);

const isOp = (t: Tok | undefined, v: string) => t !== undefined && t.k === T.Op && t.v === v;
const isNeg = (v: string) => /^(⁻¹)+$/.test(v);

/** Should the numeral `1` at `i` become `0`? (See the header: the monoid's one unless the context says natural number.) */
function oneIsOne(toks: Tok[], i: number, a: number, b: number): boolean {
  const prev = i > a ? toks[i - 1] : undefined;
  const next = i + 1 < b ? toks[i + 1] : undefined;
  if (prev && prev.k === T.Op && (prev.v === '+' || prev.v === '-')) return false;
  if (next && next.k === T.Op && (next.v === '+' || next.v === '-')) return false;
  if (prev && prev.k === T.Id && NAT_HEADS.has(prev.v)) return false;
  if (next && next.k === T.Colon && i + 2 < b && NUMBER_TYPES.has(toks[i + 2]!.v)) return false;
  if (prev && prev.k === T.Op && RELATIONS.has(prev.v) && natValued(toks, i - 2, -1, a, b)) return false;
  if (next && next.k === T.Op && RELATIONS.has(next.v) && natValued(toks, i + 2, 1, a, b)) return false;
  return true;
}

/** The end of the application run of raw tokens starting at `i` (for an exponent: kept as written), `^` chains included. */
function exponentEnd(toks: Tok[], i: number, b: number): number {
  let j = i;
  let any = false;
  while (j < b) {
    const t = toks[j]!;
    if (t.k === T.Open || t.k === T.Attr) {
      const c = matchClose(toks, j, b);
      j = c < b ? c + 1 : b;
      any = true;
    } else if ((t.k === T.Id && !KEYWORDS.has(t.v)) || t.k === T.Num || t.k === T.Str || t.k === T.Char) {
      j++;
      any = true;
    } else if (t.k === T.Proj || (any && !t.sp && t.k === T.Op && (t.v === '.' || isNeg(t.v)))) j++;
    else if (t.k === T.Op && PREFIX.has(t.v)) j++;
    else if (any && t.k === T.Op && t.v === '^') {
      j++;
      any = false;
    } else break;
  }
  return j;
}

/** Does [a, b) hold a `^` outside brackets (an exponent that is itself a power, `m ^ n`, is parenthesised; an application is not)? */
function hasPow(toks: Tok[], a: number, b: number): boolean {
  let depth = 0;
  for (let i = a; i < b; i++) {
    const t = toks[i]!;
    if (t.k === T.Open || t.k === T.Attr) depth++;
    else if (t.k === T.Close) depth--;
    else if (depth === 0 && isOp(t, '^')) return true;
  }
  return false;
}

/** Raw text of tokens [a, b), as written. */
function rawText(toks: Tok[], a: number, b: number): string {
  let out = '';
  for (let i = a; i < b; i++) out += (i > a && toks[i]!.sp ? ' ' : '') + plainTok(toks, i);
  return out;
}

/** A translated `x⁻¹` is written `(-x)` where it is an argument or follows a prefix operator. */
function joinItems(items: Item[]): string {
  let out = '';
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    const prev = items[k - 1];
    let text = it.text;
    const next = items[k + 1];
    if (it.kind === 'neg' && ((prev && (prev.kind === 'atom' || prev.kind === 'neg' || prev.kind === 'prefix')) || (next && next.sp && (next.kind === 'atom' || next.kind === 'neg')))) text = `(${text})`;
    out += (k > 0 && it.sp ? ' ' : '') + text;
  }
  return out;
}

/** `x.f`: a projection of an atom (no longer an application alone) or of a negation (`(-s).encard`). */
const project = (x: Item, proj: string): Item => ({ text: (x.kind === 'neg' ? `(${x.text})` : x.text) + proj, sp: x.sp, kind: 'atom' });

/** `-x`, spaced as Lean prints a negation of a negation (`- -a`). */
const negate = (x: Item): Item => ({ text: x.kind === 'neg' ? `- ${x.text}` : `-${x.app ?? x.text}`, sp: x.sp, kind: 'neg' });

/** Translated items of tokens [a, b); `nameIdx`, when given, is written as `short`. */
function items(toks: Tok[], a: number, b: number, nameIdx: number, short: string, depth: number): Item[] {
  const out: Item[] = [];
  for (let i = a; i < b; ) {
    const t = toks[i]!;
    if (i === nameIdx) {
      out.push({ text: short, sp: t.sp, kind: 'op' });
      i++;
      continue;
    }
    // brackets: one group, translated inside
    if (t.k === T.Open || t.k === T.Attr) {
      const c = matchClose(toks, i, b);
      if (c < b && c > i && toks[c]!.k === T.Close) {
        const parts = depth < MAX_DEPTH ? items(toks, i + 1, c, nameIdx, short, depth + 1) : [{ text: flat(toks, i + 1, c, nameIdx, short), sp: false, kind: 'op' as const }];
        const inner = joinItems(parts);
        const close = toks[c]!;
        const app = t.v === '(' && parts.length > 0 && parts.every((x) => x.kind === 'atom' || x.kind === 'prefix') ? inner : undefined;
        out.push({ text: `${plainTok(toks, i)}${i + 1 < c && toks[i + 1]!.sp ? ' ' : ''}${inner}${close.sp && c > i + 1 ? ' ' : ''}${plainTok(toks, c)}`, sp: t.sp, kind: 'atom', ...(app !== undefined ? { app } : {}) });
        i = c + 1;
        continue;
      }
    }
    // |x|ₘ → |x|
    if (t.k === T.Bar) {
      let depth = 0;
      let c = -1;
      for (let j = i; j < b && j < i + BAR_WINDOW; j++) {
        const u = toks[j]!;
        if (u.k === T.Open || u.k === T.Attr) {
          const m = matchClose(toks, j, b);
          if (toks[m]!.k !== T.Close) break;
          j = m;
        } else if (u.k === T.Bar) depth++;
        else if (isOp(u, '|ₘ') && --depth === 0) {
          c = j;
          break;
        }
      }
      if (c > i + 1) {
        const inner = depth < MAX_DEPTH ? joinItems(items(toks, i + 1, c, nameIdx, short, depth + 1)) : flat(toks, i + 1, c, nameIdx, short);
        out.push({ text: `|${inner}|`, sp: t.sp, kind: 'atom' });
        i = c + 1;
        continue;
      }
    }
    if (t.k === T.Op) {
      const last = out[out.length - 1];
      // x⁻¹ → -x (not the preimage `⁻¹'`)
      if (isNeg(t.v) && !t.sp && last && (last.kind === 'atom' || last.kind === 'neg') && !isOp(toks[i + 1], "'")) {
        let x = out.pop()!;
        for (let n = t.v.length / 2; n > 0; n--) x = negate(x);
        out.push(x);
        i++;
        continue;
      }
      // a ^ n → n • a: the base is the application before, the exponent the run after, as written
      if (t.v === '^' && last && (last.kind === 'atom' || last.kind === 'neg')) {
        const e = exponentEnd(toks, i + 1, b);
        if (e > i + 1) {
          let s = out.length;
          while (s > 0 && out[s - 1]!.kind !== 'op' && out[s - 1]!.kind !== 'compound') s--;
          const base = out.splice(s);
          const grouped = !hasPow(toks, i + 1, e);
          const exp = rawText(toks, i + 1, e);
          out.push({ text: `${grouped ? exp : `(${exp})`} • ${joinItems(base.map((x, k) => (k === 0 ? { ...x, sp: false } : x)))}`, sp: base[0]!.sp, kind: 'compound' });
          i = e;
          continue;
        }
      }
      // projections and `.1` continue the atom before them
      if (t.v === '.' && !t.sp && last && (last.kind === 'atom' || last.kind === 'neg') && i + 1 < b && !toks[i + 1]!.sp) {
        out[out.length - 1] = project(last, '.' + plainTok(toks, i + 1));
        i += 2;
        continue;
      }
      if (PREFIX.has(t.v)) {
        out.push({ text: t.v, sp: t.sp, kind: 'prefix' });
        i++;
        continue;
      }
      out.push({ text: translateTok(toks, i), sp: t.sp, kind: 'op' });
      i++;
      continue;
    }
    const lastItem = out[out.length - 1];
    if ((t.k === T.Proj || (t.k === T.Id && t.v.startsWith('.'))) && !t.sp && lastItem && (lastItem.kind === 'atom' || lastItem.kind === 'neg')) {
      out[out.length - 1] = project(lastItem, translateTok(toks, i));
      i++;
      continue;
    }
    if (t.k === T.Num) {
      out.push({ text: t.v === '1' && oneIsOne(toks, i, a, b) ? '0' : t.v, sp: t.sp, kind: 'atom' });
      i++;
      continue;
    }
    const atom = (t.k === T.Id && !KEYWORDS.has(t.v)) || t.k === T.Str || t.k === T.Char || t.k === T.Proj;
    out.push({ text: translateTok(toks, i), sp: t.sp, kind: atom ? 'atom' : 'op' });
    i++;
  }
  return out;
}

/** Groups nested deeper than this, and texts longer than `MAX_TOKENS`, are translated token by token (`flat`): the work stays linear. */
const MAX_DEPTH = 32;
const MAX_TOKENS = 20_000;
/** How far a `|` looks for its `|ₘ` (tokens). */
const BAR_WINDOW = 256;

/** Token by token, as before this module: names, operators and the numeral rule, no notation moved. */
function flat(toks: Tok[], a: number, b: number, nameIdx: number, short: string): string {
  let out = '';
  for (let i = a; i < b; i++) {
    const t = toks[i]!;
    // `⁻¹` and `^` stay as written: moved notation needs the structure, and a postfix `-` is no Lean
    const kept = t.k === T.Op && (isNeg(t.v) || t.v === '^');
    const text = i === nameIdx ? short : t.k === T.Num ? (t.v === '1' && oneIsOne(toks, i, a, b) ? '0' : t.v) : kept ? t.v : translateTok(toks, i);
    out += (i > a && t.sp ? ' ' : '') + text;
  }
  return out;
}

/** The additive text of tokens [a, b) (token `nameIdx`, when given, written as `short`). */
export function additiveText(toks: Tok[], a: number, b: number, nameIdx = -1, short = ''): string {
  if (b <= a) return '';
  if (b - a > MAX_TOKENS) return flat(toks, a, b, nameIdx, short);
  return joinItems(items(toks, a, b, nameIdx, short, 0));
}
