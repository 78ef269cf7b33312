/**
 * Lexical terms for the sparse (BM25) index: identifiers split on `.`, `_` and
 * camelCase (the whole last component is kept too), each mathematical symbol as a
 * term of its own, English words lowercased with stop words removed. The same
 * function serves premises and queries, so both sides agree.
 */

const STOP = new Set(
  (
    'a an the of to in on for and or is are be by with that this it its as at from ' +
    'if then there any all some every each which such where when we our let show ' +
    'prove proof given find suppose assume has have using into than two one'
  ).split(' '),
);

/** Identifier characters: letters (any script), digits, `_`, `'`, `!`, `?`, subscripts. */
const IDENT_RE = /[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)*/uy;
/** Multi-character ASCII operators kept as one term. */
const ASCII_OPS = ['<->', '->', '<=', '>=', '!=', '==', ':=', '::', '=>', '||', '&&', '++'];
/** Characters never worth a term (single UTF-16 units all), by code. */
const NOISE_CODES = new Set([...' \t\r\n()[]{},;:`"\'↑⇑↥✝'].map((c) => c.charCodeAt(0)));

/** Splits one identifier component on `_` and camelCase boundaries. */
export function splitIdent(component: string): string[] {
  return identParts(component).slice();
}

/**
 * Results of the pure functions below for identifiers seen before (a corpus
 * repeats them), bounded: a few thousand in a long-lived process (the server's
 * queries), many more while an index is built (`rememberIdentifiers`).
 */
let memoLimit = 10_000;
/** Longer identifiers are not remembered (no real one is this long; a request's may be megabytes each). */
const MEMO_MAX_CHARS = 256;
const remember = (memo: Map<string, unknown>, s: string) => memo.size < memoLimit && s.length <= MEMO_MAX_CHARS;
const partsMemo = new Map<string, readonly string[]>();
const identMemo = new Map<string, readonly string[]>();

/** How many identifiers to remember from now on (an index build: every identifier of a corpus). */
export function rememberIdentifiers(limit: number): void {
  memoLimit = limit;
}

/** For a build of a whole corpus: Mathlib has about 150,000 distinct identifier components. */
export const CORPUS_IDENTIFIERS = 200_000;

/**
 * A copy that does not keep a larger string alive: V8 makes substrings of 13 or
 * more characters views into their parent, and a remembered view would pin a
 * whole statement.
 */
const own = (s: string) => (s.length < 13 ? s : flatCopy(s));

/** A flat copy of a string, one-byte when it can be (a round trip through UTF-8): it keeps no larger string alive. */
export const flatCopy = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** splitIdent, remembered: the array is shared, callers must not change it. */
export function identParts(component: string): readonly string[] {
  let out = partsMemo.get(component);
  if (out === undefined) {
    out = splitIdentFresh(component);
    if (remember(partsMemo, component)) partsMemo.set(own(component), (out = out.map(own)));
  }
  return out;
}

function splitIdentFresh(component: string): string[] {
  const out: string[] = [];
  for (const piece of component.split(/_+/)) {
    if (!piece) continue;
    // camelCase / PascalCase boundaries, and letter↔digit boundaries
    const parts = piece.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z\p{Ll}'!?]+|\p{Lu}|[0-9]+|[^\sA-Za-z0-9]+/gu) ?? [piece];
    for (const p of parts) out.push(p.toLowerCase());
  }
  return out;
}

/** The terms of one identifier (see identTerms), appended to `out`. */
function pushIdent(ident: string, out: string[]): void {
  let ts = identMemo.get(ident);
  if (ts === undefined) {
    ts = identTerms(ident);
    if (remember(identMemo, ident)) identMemo.set(own(ident), (ts = ts.map(own)));
  }
  for (const t of ts) out.push(t);
}

function identTerms(ident: string): string[] {
  const out: string[] = [];
  const stripped = ident.replace(/✝\d*/g, '');
  const comps = stripped.split('.');
  const last = comps[comps.length - 1]!;
  const lowerLast = last.toLowerCase();
  const parts: string[] = [];
  for (const c of comps) for (const p of identParts(c)) parts.push(p); // no spread: an identifier may have 10^6 parts
  // single ASCII letters are almost always bound variables (h, x, h₀): no signal
  let kept = 0;
  for (const p of parts) {
    if (p.length === 1 && /[a-z]/.test(p)) continue;
    if (/^[₀-₉ₐ-ₜᵢ-ᵪ'!?]+$/u.test(p)) continue;
    if (STOP.has(p) && comps.length === 1 && parts.length === 1) continue;
    out.push(p);
    kept++;
  }
  if (kept > 1 && lowerLast.length > 1) out.push(lowerLast);
  if (comps.length > 1) out.push(stripped.toLowerCase());
  return out;
}

/** Terms of a text, in order, with repetitions (term frequency matters). */
export function terms(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (NOISE_CODES.has(code)) {
      i++;
      continue;
    }
    // an identifier starts with a letter or `_`: ASCII ones are told apart here, the rest by the regex
    if (mayStartIdent(code)) {
      IDENT_RE.lastIndex = i;
      const m = IDENT_RE.exec(text);
      if (m && m[0].length > 0) {
        pushIdent(m[0], out);
        i += m[0].length;
        continue;
      }
    }
    if (code >= 48 && code <= 57) {
      let j = i;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      out.push(text.slice(i, j));
      i = j;
      continue;
    }
    const op = OP_STARTS.has(code) ? ASCII_OPS.find((o) => text.startsWith(o, i)) : undefined;
    if (op) {
      out.push(op);
      i += op.length;
      continue;
    }
    // one symbol (a whole surrogate pair), e.g. ≤ ∑ ⁻ ¹
    const cp = text.codePointAt(i)!;
    const sym = String.fromCodePoint(cp);
    i += sym.length;
    if (/\s/u.test(sym)) continue;
    if (sym === '⁻' && text[i] === '¹') {
      out.push('⁻¹');
      i++;
      continue;
    }
    out.push(sym);
  }
  return out;
}

/** Can an identifier start here? ASCII letters and `_`; non-ASCII characters are left to the regex (`\p{L}`). */
export const mayStartIdent = (c: number) => c >= 0x80 || c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
export const isDigit = (c: number) => c >= 48 && c <= 57;
const OP_STARTS = new Set(ASCII_OPS.map((o) => o.charCodeAt(0)));
