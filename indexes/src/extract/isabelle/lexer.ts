/**
 * A small, linear-time lexer for Isabelle outer syntax. It only needs to be good
 * enough to split a theory into commands and find names: inner syntax (terms in
 * "…" or ‹…›) stays one opaque token. Comments and `--`/`\<comment>` remarks are
 * dropped. Never throws; an unterminated cartouche or string ends before the next
 * line that starts with a theory-level command (`lemma`, `definition`, `end`, …),
 * so that one typo does not swallow the rest of the theory; other unterminated
 * constructs run to end of input. Both are reported as warnings.
 */
import { DOC_COMMANDS, THEORY_COMMANDS } from './keywords.js';

export type TokKind =
  | 'ident' // names, long names `A.b`, keywords
  | 'tvar' // 'a
  | 'num'
  | 'str' // "…"
  | 'alt' // `…`
  | 'cart' // ‹…› or \<open>…\<close>
  | 'verb' // {* … *}
  | 'sym'; // symbolic run or single delimiter

export interface Token {
  kind: TokKind;
  /** Source text (whole token, delimiters included). */
  text: string;
  start: number;
  end: number;
}

export interface LexResult {
  tokens: Token[];
  warnings: string[];
}

const SYM_CHARS = new Set('!#$%&*+-/<=>?@^_|~\\');
const SINGLE = new Set('()[]{},;');

/** `\<name>` symbols that count as letters in Isabelle names. */
const LETTER_SYMBOLS = new Set<string>([
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'mu',
  'nu', 'xi', 'pi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega', 'Gamma',
  'Delta', 'Theta', 'Lambda', 'Xi', 'Pi', 'Sigma', 'Upsilon', 'Phi', 'Psi', 'Omega',
  // script / fraktur / sans-serif letters: \<A> \<AA> \<a> \<aa>
  ...Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz').flatMap((c) => [c, c + c]),
]);

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

const UNI_LETTER = /\p{L}/u;
const NON_LETTERS = new Set(['λ', '‹', '›']);

export function lexIsabelle(src: string): LexResult {
  const tokens: Token[] = [];
  const warnings: string[] = [];
  const n = src.length;
  let i = 0;

  /** Length of a `\<name>` symbol at p, or 0. */
  const symbolAt = (p: number): number => {
    if (src.charCodeAt(p) !== 92 /* \ */ || src.charCodeAt(p + 1) !== 60 /* < */) return 0;
    let q = p + 2;
    if (src.charCodeAt(q) === 94 /* ^ */) q++;
    const s = q;
    while (q < n && q - s < 40) {
      const c = src.charCodeAt(q);
      if (isAsciiLetter(c) || isDigit(c) || c === 95 || c === 39) q++;
      else break;
    }
    if (q > s && src.charCodeAt(q) === 62 /* > */) return q + 1 - p;
    return 0;
  };
  const symName = (p: number, len: number): string => src.slice(p + 2, p + len - 1);

  /** Length of a letter starting at p (ASCII, letter symbol, Unicode letter), or 0. */
  const letterAt = (p: number): number => {
    const c = src.charCodeAt(p);
    if (isAsciiLetter(c)) return 1;
    if (c === 92) {
      const l = symbolAt(p);
      if (l && LETTER_SYMBOLS.has(symName(p, l))) return l;
      return 0;
    }
    if (c > 127) {
      const cp = src.codePointAt(p)!;
      const ch = String.fromCodePoint(cp);
      if (!NON_LETTERS.has(ch) && UNI_LETTER.test(ch)) return ch.length;
    }
    return 0;
  };
  /** Length of a quasi-letter continuing a name at p, or 0. */
  const quasiAt = (p: number): number => {
    const c = src.charCodeAt(p);
    if (isDigit(c) || c === 95 || c === 39) return 1;
    const l = letterAt(p);
    if (l) return l;
    if (c === 92) {
      const s = symbolAt(p);
      if (s) {
        const nm = symName(p, s);
        if (nm === '^sub' || nm === '^isub' || nm === '^sup' || nm === '^isup') return s;
      }
    }
    if (c === 0x21e9 /* ⇩ */) return 1;
    const ch = src[p];
    if (ch !== undefined && c > 127 && /[\u2080-\u209c\u1d62-\u1d6a]/.test(ch)) return 1; // ₀… subscripts
    return 0;
  };

  /** Skip a nested (* … *) comment starting at p; returns end index. */
  const skipComment = (p: number): number => {
    let depth = 0;
    let q = p;
    while (q < n) {
      if (src.charCodeAt(q) === 40 && src.charCodeAt(q + 1) === 42) {
        depth++;
        q += 2;
      } else if (src.charCodeAt(q) === 42 && src.charCodeAt(q + 1) === 41) {
        depth--;
        q += 2;
        if (depth === 0) return q;
      } else q++;
    }
    warnings.push(`unterminated comment at offset ${p}`);
    return n;
  };

  /**
   * Where lexing resumes after a text token opened at p runs to the end of input: the
   * start of the next line whose first word is a theory-level command, else the end.
   */
  const recover = (p: number, what: string): number => {
    const line = /\n[ \t]*([A-Za-z][A-Za-z0-9_]*)(?![A-Za-z0-9_'.])/g;
    line.lastIndex = p;
    for (let m = line.exec(src); m; m = line.exec(src)) {
      const word = m[1]!;
      if (THEORY_COMMANDS.has(word) || DOC_COMMANDS.has(word)) {
        const at = m.index + 1;
        warnings.push(`unterminated ${what} at offset ${p} (line ${lineOf(p)}); resumed at \`${word}\` on line ${lineOf(at)}`);
        return at;
      }
    }
    warnings.push(`unterminated ${what} at offset ${p}`);
    return n;
  };
  const lineOf = (p: number): number => {
    let line = 1;
    for (let q = src.indexOf('\n'); q >= 0 && q < p; q = src.indexOf('\n', q + 1)) line++;
    return line;
  };

  const skipQuoted = (p: number, quote: number, what: string): number => {
    let q = p + 1;
    while (q < n) {
      const c = src.charCodeAt(q);
      if (c === 92 /* \ */) {
        q += 2;
        continue;
      }
      if (c === quote) return q + 1;
      q++;
    }
    if (quote === 34) return recover(p, what);
    warnings.push(`unterminated ${what} at offset ${p}`);
    return n;
  };

  /** Cartouche: ‹ › or \<open> \<close>, nested, either spelling. */
  const skipCartouche = (p: number): number => {
    let depth = 0;
    let q = p;
    while (q < n) {
      const c = src.charCodeAt(q);
      if (c === 0x2039) {
        depth++;
        q++;
      } else if (c === 0x203a) {
        depth--;
        q++;
        if (depth === 0) return q;
      } else if (c === 92 && src.startsWith('\\<open>', q)) {
        depth++;
        q += 7;
      } else if (c === 92 && src.startsWith('\\<close>', q)) {
        depth--;
        q += 8;
        if (depth === 0) return q;
      } else q++;
    }
    return recover(p, 'cartouche');
  };

  const isCartoucheOpen = (p: number): boolean =>
    src.charCodeAt(p) === 0x2039 || (src.charCodeAt(p) === 92 && src.startsWith('\\<open>', p));

  const push = (kind: TokKind, start: number, end: number) => {
    tokens.push({ kind, text: src.slice(start, end), start, end });
  };

  let dropNextText = false; // after a `--` / `\<comment>` marker
  while (i < n) {
    const c = src.charCodeAt(i);
    // whitespace
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 0xa0 || c === 0xfeff) {
      i++;
      continue;
    }
    const start = i;
    // comments
    if (c === 40 && src.charCodeAt(i + 1) === 42) {
      i = skipComment(i);
      continue;
    }
    // text-like tokens
    let textEnd = -1;
    let textKind: TokKind = 'str';
    if (c === 34) {
      textEnd = skipQuoted(i, 34, 'string');
      textKind = 'str';
    } else if (c === 96) {
      textEnd = skipQuoted(i, 96, 'alt string');
      textKind = 'alt';
    } else if (isCartoucheOpen(i)) {
      textEnd = skipCartouche(i);
      textKind = 'cart';
    } else if (c === 123 && src.charCodeAt(i + 1) === 42) {
      const e = src.indexOf('*}', i + 2);
      if (e < 0) {
        warnings.push(`unterminated verbatim {* at offset ${i}`);
        textEnd = n;
      } else textEnd = e + 2;
      textKind = 'verb';
    }
    if (textEnd >= 0) {
      if (dropNextText) dropNextText = false;
      else push(textKind, start, textEnd);
      i = textEnd;
      continue;
    }
    dropNextText = false;
    // comment markers
    if (c === 0x2014 /* — */) {
      dropNextText = true;
      i++;
      continue;
    }
    if (c === 92) {
      const l = symbolAt(i);
      if (l && symName(i, l) === 'comment') {
        dropNextText = true;
        i += l;
        continue;
      }
    }
    // names
    const l0 = letterAt(i);
    if (l0) {
      let q = i + l0;
      for (;;) {
        const l = quasiAt(q);
        if (l) {
          q += l;
          continue;
        }
        // long name: `.` followed by a letter
        if (src.charCodeAt(q) === 46) {
          const l2 = letterAt(q + 1);
          if (l2) {
            q += 1 + l2;
            continue;
          }
        }
        break;
      }
      push('ident', start, q);
      i = q;
      continue;
    }
    if (isDigit(c)) {
      let q = i + 1;
      while (q < n && isDigit(src.charCodeAt(q))) q++;
      push('num', start, q);
      i = q;
      continue;
    }
    if (c === 39 /* ' */) {
      const l = letterAt(i + 1);
      if (l) {
        let q = i + 1 + l;
        while (q < n) {
          const m = quasiAt(q);
          if (!m) break;
          q += m;
        }
        push('tvar', start, q);
        i = q;
        continue;
      }
    }
    if (SINGLE.has(src[i]!)) {
      push('sym', start, i + 1);
      i++;
      continue;
    }
    if (c === 58 /* : */) {
      const q = src.charCodeAt(i + 1) === 58 ? i + 2 : i + 1;
      push('sym', start, q);
      i = q;
      continue;
    }
    if (c === 46 /* . */) {
      let q = i + 1;
      while (q < n && src.charCodeAt(q) === 46) q++;
      push('sym', start, q);
      i = q;
      continue;
    }
    // symbolic runs: ASCII symbol characters and non-letter \<…> symbols
    {
      let q = i;
      while (q < n) {
        const d = src.charCodeAt(q);
        if (d === 92) {
          const l = symbolAt(q);
          if (l) {
            const nm = symName(q, l);
            if (LETTER_SYMBOLS.has(nm) || nm === 'open' || nm === 'close' || nm === 'comment') break;
            q += l;
            continue;
          }
          q++;
          continue;
        }
        if (d === 40 && src.charCodeAt(q + 1) === 42) break; // comment start
        if (SYM_CHARS.has(src[q]!)) {
          q++;
          continue;
        }
        break;
      }
      if (q > i) {
        const text = src.slice(i, q);
        if (text === '--') {
          dropNextText = true;
        } else push('sym', start, q);
        i = q;
        continue;
      }
    }
    // anything else (Unicode operators, stray characters): one code point
    const cp = src.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    push('sym', start, i + len);
    i += len;
  }
  return { tokens, warnings };
}

/** Inner text of a text token (quotes / cartouche delimiters removed). */
export function tokenBody(t: Token): string {
  switch (t.kind) {
    case 'str':
    case 'alt':
      return t.text.slice(1, t.text.endsWith(t.text[0]!) && t.text.length > 1 ? -1 : undefined);
    case 'verb':
      return t.text.slice(2, t.text.endsWith('*}') && t.text.length >= 4 ? -2 : undefined);
    case 'cart': {
      let s = t.text;
      if (s.startsWith('‹')) s = s.slice(1);
      else if (s.startsWith('\\<open>')) s = s.slice(7);
      if (s.endsWith('›')) s = s.slice(0, -1);
      else if (s.endsWith('\\<close>')) s = s.slice(0, -8);
      return s;
    }
    default:
      return t.text;
  }
}

export function isText(t: Token | undefined): boolean {
  return t !== undefined && (t.kind === 'str' || t.kind === 'cart' || t.kind === 'alt' || t.kind === 'verb');
}
