/**
 * A small, linear-time Lean 4 tokenizer for the source extractor. It is not a
 * faithful Lean lexer: it only distinguishes what the extractor needs (identifiers,
 * brackets, `:`/`:=`/`|`, docstrings, strings) and skips comments. It never
 * throws and never backtracks; malformed input produces warnings.
 */
import { matchGroup } from '../brackets.js';

export const enum T {
  Id = 1,
  Num,
  Str,
  Char,
  Doc,
  Op,
  Open,
  Close,
  Comma,
  Colon,
  Assign,
  Bar,
  /** `@[` (counts as an opening bracket). */
  Attr,
  /** Identifier written after a projection dot (`h.1.trans`, `(f x).le`, `x |>.foo`). */
  Proj,
}

export interface Tok {
  k: T;
  /** Text; for identifiers the name (leading `.` kept for `.inl`), for docstrings the inner text. */
  v: string;
  /** Start/end offsets in the source. */
  s: number;
  e: number;
  line: number;
  col: number;
  /** First token on its line. */
  nl: boolean;
  /** Preceded by whitespace or a comment. */
  sp: boolean;
}

export interface LexResult {
  toks: Tok[];
  /** Offsets of line starts (index = line number). */
  lineStarts: number[];
  warnings: string[];
}

export function isLetterLike(c: number): boolean {
  return (
    (c >= 0x3b1 && c <= 0x3c9 && c !== 0x3bb) ||
    (c >= 0x391 && c <= 0x3a9 && c !== 0x3a0 && c !== 0x3a3) ||
    (c >= 0x3ca && c <= 0x3fb) ||
    (c >= 0x1f00 && c <= 0x1ffe) ||
    (c >= 0x2100 && c <= 0x214f) ||
    (c >= 0x1d49c && c <= 0x1d59f)
  );
}

function isSubScriptAlnum(c: number): boolean {
  return (
    (c >= 0x2080 && c <= 0x2089) ||
    (c >= 0x2090 && c <= 0x209c) ||
    (c >= 0x1d62 && c <= 0x1d6a) ||
    c === 0x2c7c
  );
}

export function isIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c > 127 && isLetterLike(c));
}

export function isIdRest(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 39 /* ' */ ||
    c === 33 /* ! */ ||
    c === 63 /* ? */ ||
    (c > 127 && (isLetterLike(c) || isSubScriptAlnum(c)))
  );
}

const OPENERS = new Set([0x28, 0x5b, 0x7b, 0x2983, 0x27e8, 0x27e6, 0x2045, 0x27ee, 0x27ea]);
const CLOSERS = new Set([0x29, 0x5d, 0x7d, 0x2984, 0x27e9, 0x27e7, 0x2046, 0x27ef, 0x27eb]);

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10 || c === 12 || c === 0xa0 || c === 0xfeff;
}

/** Characters that end an operator run. */
function endsOp(c: number): boolean {
  return (
    isSpace(c) ||
    isIdStart(c) ||
    (c >= 48 && c <= 57) ||
    OPENERS.has(c) ||
    CLOSERS.has(c) ||
    c === 44 /* , */ ||
    c === 58 /* : */ ||
    c === 34 /* " */ ||
    c === 39 /* ' */ ||
    c === 0xab /* « */
  );
}

const MAX_WARNINGS_PER_KIND = 5;

/** Control characters, lone surrogates and non-characters: signs of binary input. */
function isBad(c: number): boolean {
  return c < 32 || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffd || c === 0xfffe || c === 0xffff || c === 0x7f;
}

export function lex(text: string, file = ''): LexResult {
  const toks: Tok[] = [];
  const lineStarts: number[] = [0];
  const warnings: string[] = [];
  const n = text.length;
  let i = 0;
  let line = 0;
  let lineStart = 0;
  let nl = true;
  let sp = true;
  let badChars = 0;

  const cp = (j: number): number => {
    const c = text.charCodeAt(j);
    if (c >= 0xd800 && c <= 0xdbff && j + 1 < n) {
      const d = text.charCodeAt(j + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
    }
    return c;
  };
  const width = (c: number): number => (c > 0xffff ? 2 : 1);
  const newline = (j: number): void => {
    line++;
    lineStart = j + 1;
    lineStarts.push(j + 1);
  };
  const push = (k: T, v: string, s: number, e: number, sLine: number, sCol: number): void => {
    toks.push({ k, v, s, e, line: sLine, col: sCol, nl, sp });
    nl = false;
    sp = false;
  };
  /** Scan an identifier (with dotted continuations and «escapes») from j; returns end. */
  const scanIdent = (j: number): number => {
    for (;;) {
      if (text.charCodeAt(j) === 0xab) {
        const close = text.indexOf('\u00bb', j + 1);
        const nlPos = text.indexOf('\n', j + 1);
        if (close < 0 || (nlPos >= 0 && nlPos < close)) return j + 1;
        j = close + 1;
      } else {
        j += width(cp(j));
        while (j < n) {
          const c = cp(j);
          if (!isIdRest(c)) break;
          j += width(c);
        }
      }
      if (j + 1 < n && text.charCodeAt(j) === 46 /* . */) {
        const c = cp(j + 1);
        if (isIdStart(c) || c === 0xab) {
          j++;
          continue;
        }
      }
      return j;
    }
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      newline(i);
      nl = true;
      sp = true;
      i++;
      continue;
    }
    if (isSpace(c)) {
      sp = true;
      i++;
      continue;
    }
    const sLine = line;
    const sCol = i - lineStart;
    // comments
    if (c === 45 /* - */ && text.charCodeAt(i + 1) === 45) {
      const e = text.indexOf('\n', i);
      i = e < 0 ? n : e;
      sp = true;
      continue;
    }
    if (c === 47 /* / */ && text.charCodeAt(i + 1) === 45) {
      const isDoc = text.charCodeAt(i + 2) === 45 && text.charCodeAt(i + 3) !== 47;
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        const d = text.charCodeAt(j);
        if (d === 10) newline(j);
        else if (d === 47 && text.charCodeAt(j + 1) === 45) {
          depth++;
          j++;
        } else if (d === 45 && text.charCodeAt(j + 1) === 47) {
          depth--;
          j++;
        }
        j++;
      }
      if (depth > 0) warnings.push(`${file}:${sLine + 1}: unterminated block comment`);
      if (isDoc) {
        const inner = text.slice(i + 3, depth > 0 ? n : j - 2);
        push(T.Doc, inner, i, j, sLine, sCol);
        sp = true;
      } else sp = true;
      i = j;
      continue;
    }
    if (c === 34 /* " */) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) {
          if (text.charCodeAt(j + 1) === 10) newline(j + 1);
          j += 2;
        } else if (d === 34) break;
        else {
          if (d === 10) newline(j);
          j++;
        }
      }
      if (j >= n) {
        warnings.push(`${file}:${sLine + 1}: unterminated string literal`);
        j = n - 1;
      }
      push(T.Str, text.slice(i, j + 1), i, j + 1, sLine, sCol);
      i = j + 1;
      continue;
    }
    if (c === 39 /* ' */) {
      // char literal 'a' or '\n'
      let j = -1;
      if (text.charCodeAt(i + 1) === 92) {
        const close = text.indexOf("'", i + 2);
        if (close > 0 && close - i <= 10) j = close;
      } else if (i + 1 < n) {
        const w = width(cp(i + 1));
        if (text.charCodeAt(i + 1 + w) === 39 && text.charCodeAt(i + 1) !== 10) j = i + 1 + w;
      }
      if (j > 0) {
        push(T.Char, text.slice(i, j + 1), i, j + 1, sLine, sCol);
        i = j + 1;
      } else {
        push(T.Op, "'", i, i + 1, sLine, sCol);
        i++;
      }
      continue;
    }
    const u = c >= 0xd800 && c <= 0xdbff ? cp(i) : c;
    if (isIdStart(u) || u === 0xab) {
      const e = scanIdent(i);
      push(T.Id, text.slice(i, e), i, e, sLine, sCol);
      i = e;
      continue;
    }
    if (c >= 48 && c <= 57) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if ((d >= 48 && d <= 57) || (d >= 97 && d <= 122) || (d >= 65 && d <= 90) || d === 95) j++;
        else if (d === 46 && text.charCodeAt(j + 1) >= 48 && text.charCodeAt(j + 1) <= 57) j += 2;
        else break;
      }
      push(T.Num, text.slice(i, j), i, j, sLine, sCol);
      i = j;
      continue;
    }
    if (c === 46 /* . */ && i + 1 < n) {
      const d = cp(i + 1);
      if (isIdStart(d) || d === 0xab) {
        const e = scanIdent(i + 1);
        const prev = toks.length > 0 ? toks[toks.length - 1] : undefined;
        const adjacent = !sp && prev !== undefined && prev.e === i;
        const proj =
          adjacent &&
          (prev.k === T.Id ||
            prev.k === T.Num ||
            prev.k === T.Close ||
            prev.k === T.Proj ||
            prev.k === T.Str ||
            (prev.k === T.Op && prev.v.endsWith('>')));
        if (proj) push(T.Proj, text.slice(i + 1, e), i, e, sLine, sCol);
        else push(T.Id, text.slice(i, e), i, e, sLine, sCol);
        i = e;
        continue;
      }
    }
    if (OPENERS.has(u)) {
      push(T.Open, String.fromCharCode(c), i, i + 1, sLine, sCol);
      i++;
      continue;
    }
    if (CLOSERS.has(u)) {
      push(T.Close, String.fromCharCode(c), i, i + 1, sLine, sCol);
      i++;
      continue;
    }
    if (c === 44) {
      push(T.Comma, ',', i, i + 1, sLine, sCol);
      i++;
      continue;
    }
    if (c === 58 /* : */) {
      const d = text.charCodeAt(i + 1);
      if (d === 61) {
        push(T.Assign, ':=', i, i + 2, sLine, sCol);
        i += 2;
      } else if (d === 58) {
        push(T.Op, '::', i, i + 2, sLine, sCol);
        i += 2;
      } else {
        push(T.Colon, ':', i, i + 1, sLine, sCol);
        i++;
      }
      continue;
    }
    if (c === 64 /* @ */ && text.charCodeAt(i + 1) === 91) {
      push(T.Attr, '@[', i, i + 2, sLine, sCol);
      i += 2;
      continue;
    }
    // operator run
    let j = i + width(u);
    if (isBad(u)) badChars++;
    while (j < n) {
      const d = cp(j);
      if (endsOp(d)) break;
      if (isBad(d)) badChars++;
      if (d === 46 && j + 1 < n && isIdStart(cp(j + 1))) break; // `.foo` after an operator
      if (d === 45 && text.charCodeAt(j + 1) === 45) break; // comment start
      if (d === 47 && text.charCodeAt(j + 1) === 45) break;
      if (d === 64 && text.charCodeAt(j + 1) === 91) break;
      j += width(d);
    }
    const v = text.slice(i, j);
    push(v === '|' ? T.Bar : T.Op, v, i, j, sLine, sCol);
    i = j;
  }
  if (badChars > 0) warnings.push(`${file}: ${badChars} control/invalid characters`);
  if (warnings.length > 3 * MAX_WARNINGS_PER_KIND) warnings.length = 3 * MAX_WARNINGS_PER_KIND;
  return { toks, lineStarts, warnings };
}

/** Convert an offset to a 0-based line/character position. */
export { offsetToPos } from '../positions.js';

/** The first token in [a, b) outside any bracket or attribute that `pred` accepts, or -1. */
export function firstAtDepth0(toks: Tok[], a: number, b: number, pred: (t: Tok) => boolean): number {
  let depth = 0;
  for (let m = a; m < b; m++) {
    const t = toks[m];
    if (t.k === T.Open || t.k === T.Attr) depth++;
    else if (t.k === T.Close) depth = Math.max(0, depth - 1);
    else if (depth === 0 && pred(t)) return m;
  }
  return -1;
}

/** Join tokens [a, b) into text, one space where the source had whitespace/comments. */
export function joinToks(toks: Tok[], a: number, b: number): string {
  let out = '';
  for (let i = a; i < b; i++) {
    const t = toks[i];
    if (i > a && t.sp) out += ' ';
    out += t.k === T.Doc ? `/--${t.v}-/` : t.k === T.Proj ? `.${t.v}` : t.v;
  }
  return out;
}

export function isOpenTok(t: Tok): boolean {
  return t.k === T.Open || t.k === T.Attr;
}

/** Index of the token closing the bracket opened at `i` (or `limit - 1` when unbalanced). */
export function matchClose(toks: Tok[], i: number, limit: number): number {
  return matchGroup(toks, i, limit, isOpenTok, isCloseTok);
}

const isCloseTok = (t: Tok) => t.k === T.Close;

/** A token as source text (docstrings and projections restored). */
export function plainTok(toks: Tok[], i: number): string {
  const t = toks[i];
  return t.k === T.Doc ? `/--${t.v}-/` : t.k === T.Proj ? `.${t.v}` : t.v;
}
