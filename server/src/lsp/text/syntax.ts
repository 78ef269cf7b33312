/**
 * Whether an offset of a document is in code, a comment or a string, read from
 * the start of the text in one linear pass (a block comment may open anywhere
 * before the cursor), and the code before it with every comment and string
 * blanked out: what the premise-slot reader (context.ts) looks at, so an unclosed
 * `simp [` never reaches through a comment, and a `(` in a comment never hides one.
 *
 * Lean: `--` to the end of the line; `/- … -/` nested (doc comments `/-- -/` and
 * `/-! -/` too); `"…"` with `\` escapes; raw strings `r"…"`, `r#"…"#`; character
 * literals `'a'`, `'\n'` (a `'` after an identifier character is part of the name,
 * `h'`). Isabelle: `(* … *)` nested; `"…"` and `` `…` `` with `\` escapes; cartouches
 * `‹ … ›` and `\<open> … \<close>`, nested, either spelling; `{* … *}`. Comments and
 * strings the text never closes run to its end.
 *
 * Invariant: completion offers no premise inside a comment, a string or a
 * cartouche (test/protocol/completion-places.test.ts, test/unit/lsp-syntax.test.ts).
 */
import type { Flavor } from '../../upstream/command.js';

export type Region = 'code' | 'comment' | 'string';

export interface CodeBefore {
  /** What `offset` is in. */
  region: Region;
  /**
   * `text[from, offset)` with each character of a comment or string as U+00A0 (line breaks
   * kept, so offsets and lines stay): whitespace to `\s`, but a line that held a comment
   * never reads as a blank line (which ends a tactic call).
   */
  code: string;
}

const IDENT_CHAR = /[\p{L}\p{N}_'!?.\u2080-\u209c\u1d62-\u1d6a]/u;

/** Where `offset` is, and the code of `[from, offset)`; Isabelle's rules for Isabelle, Lean's otherwise. */
export function codeBefore(text: string, offset: number, from: number, flavor: Flavor): CodeBefore {
  offset = Math.max(0, Math.min(offset, text.length));
  from = Math.max(0, Math.min(from, offset));
  const spans = flavor === 'isabelle' ? isabelleSpans(text, offset) : leanSpans(text, offset);
  let region: Region = 'code';
  const parts: string[] = [];
  let at = from;
  for (const s of spans) {
    // a span ending at the offset holds it when nothing closed it there (`holdsEnd`)
    if (s.start < offset && (s.end > offset || (s.end === offset && s.holdsEnd))) region = s.kind;
    const a = Math.max(s.start, from);
    const b = Math.min(s.end, offset);
    if (b <= a) continue;
    parts.push(text.slice(at, a), blank(text.slice(a, b)));
    at = b;
  }
  parts.push(text.slice(at, offset));
  return { region, code: parts.join('') };
}

function blank(s: string): string {
  return s.replace(/[^\n]/g, '\u00a0');
}

interface Span {
  kind: 'comment' | 'string';
  start: number;
  /** Exclusive; for a span still open at the limit, the limit. */
  end: number;
  /** An offset at `end` is inside: the span is still open there (cut by the limit, never closed), or is a line comment. */
  holdsEnd: boolean;
}

/** Lean comment and string spans that start before `limit` (each clipped to it). */
function leanSpans(text: string, limit: number): Span[] {
  const out: Span[] = [];
  let i = 0;
  while (i < limit) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '-' && next === '-') {
      const nl = text.indexOf('\n', i + 2);
      const end = nl < 0 ? text.length : nl;
      // the end of the line is still in the comment: a space typed there is typed in it
      out.push(span('comment', i, end, limit, true));
      i = end;
    } else if (c === '/' && next === '-') {
      let depth = 1;
      let j = i + 2;
      while (j < text.length && depth > 0) {
        if (text[j] === '/' && text[j + 1] === '-') {
          depth++;
          j += 2;
        } else if (text[j] === '-' && text[j + 1] === '/') {
          depth--;
          j += 2;
        } else j++;
        if (j >= limit && depth > 0) break;
      }
      out.push(span('comment', i, j, limit, depth > 0));
      i = j;
    } else if (c === '"') {
      const j = stringEnd(text, i + 1, limit, '"');
      out.push(span('string', i, j.end, limit, j.open));
      i = j.end;
    } else if (c === 'r' && (next === '"' || next === '#') && !identBefore(text, i)) {
      let hashes = 0;
      while (text[i + 1 + hashes] === '#') hashes++;
      if (text[i + 1 + hashes] !== '"') {
        i++;
        continue;
      }
      const close = '"' + '#'.repeat(hashes);
      const k = text.indexOf(close, i + 2 + hashes);
      const end = k < 0 ? text.length : k + close.length;
      out.push(span('string', i, end, limit, k < 0 || end > limit));
      i = end;
    } else if (c === "'" && !identBefore(text, i)) {
      // a character literal: one character or one escape, then `'`
      const m = /^'(?:\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)|[^'\\\n])'/su.exec(text.slice(i, i + 12));
      if (m) {
        out.push(span('string', i, i + m[0].length, limit, false));
        i += m[0].length;
      } else i++;
    } else i++;
  }
  return out;
}

/** Isabelle comment, string and cartouche spans that start before `limit`. */
function isabelleSpans(text: string, limit: number): Span[] {
  const out: Span[] = [];
  let i = 0;
  while (i < limit) {
    const c = text[i];
    if (c === '(' && text[i + 1] === '*') {
      const end = nested(text, i, limit, ['(*'], ['*)']);
      out.push(span('comment', i, end.end, limit, end.open));
      i = end.end;
    } else if (c === '{' && text[i + 1] === '*') {
      const k = text.indexOf('*}', i + 2);
      const end = k < 0 ? text.length : k + 2;
      out.push(span('string', i, end, limit, k < 0 || end > limit));
      i = end;
    } else if (c === '"' || c === '`') {
      const j = stringEnd(text, i + 1, limit, c);
      out.push(span('string', i, j.end, limit, j.open));
      i = j.end;
    } else if (c === '‹' || text.startsWith('\\<open>', i)) {
      const end = nested(text, i, limit, ['‹', '\\<open>'], ['›', '\\<close>']);
      out.push(span('string', i, end.end, limit, end.open));
      i = end.end;
    } else i++;
  }
  return out;
}

function span(kind: Span['kind'], start: number, end: number, limit: number, open: boolean): Span {
  return { kind, start, end: Math.min(end, Math.max(limit, start)), holdsEnd: open || end > limit };
}

/** End (past the closing quote) of a string whose body starts at `i`; open when it does not close before `limit`. */
function stringEnd(text: string, i: number, limit: number, quote: string): { end: number; open: boolean } {
  for (let j = i; j < text.length; j++) {
    if (j >= limit) return { end: j, open: true };
    if (text[j] === '\\') j++;
    else if (text[j] === quote) return { end: j + 1, open: false };
  }
  return { end: text.length, open: true };
}

/** End of a nested block opening at `i` (with one of `opens`), counting either spelling of each delimiter. */
function nested(text: string, i: number, limit: number, opens: string[], closes: string[]): { end: number; open: boolean } {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const o = opens.find((s) => text.startsWith(s, j));
    const c = o ? undefined : closes.find((s) => text.startsWith(s, j));
    if (o) {
      depth++;
      j += o.length;
    } else if (c) {
      depth--;
      j += c.length;
      if (depth === 0) return { end: j, open: false };
    } else j++;
    if (j >= limit) return { end: j, open: true };
  }
  return { end: text.length, open: true };
}

function identBefore(text: string, i: number): boolean {
  if (i === 0) return false;
  const c = text.charCodeAt(i - 1);
  const ch = c >= 0xdc00 && c <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text[i - 1];
  return IDENT_CHAR.test(ch);
}
