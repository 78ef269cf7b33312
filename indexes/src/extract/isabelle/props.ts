/**
 * Inner-syntax text helpers: normalise a proposition to Unicode and split
 * `⟦A; B⟧ ⟹ C` / `A ⟹ B ⟹ C` into premises and conclusion.
 */
import { isabelleToUnicode } from '../symbols.js';

/** Unicode symbols, ASCII meta-logic (`==>`, `[| |]`, `!!`) as ⟹ ⟦ ⟧ ⋀, whitespace collapsed. */
export function normaliseProp(text: string): string {
  let s = isabelleToUnicode(text);
  if (s.indexOf('==>') >= 0) s = s.replace(/(?<![=\-])==>(?!>)/g, '⟹');
  if (s.indexOf('[|') >= 0) s = s.replace(/\[\|(?!\])/g, '⟦').replace(/(?<!\[)\|\]/g, '⟧');
  if (s.indexOf('!!') >= 0) s = s.replace(/(^|[\s(])!!(?=\s*[A-Za-z_])/g, '$1⋀');
  return collapse(s);
}

export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const OPEN = new Set(['(', '[', '{', '⟦', '⦃', '⟨', '‹', '⦇']);
const CLOSE = new Set([')', ']', '}', '⟧', '⦄', '⟩', '›', '⦈']);

/** Split at `sep` occurring outside brackets. */
export function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (OPEN.has(ch)) depth++;
    else if (CLOSE.has(ch)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && s.startsWith(sep, i)) {
      out.push(s.slice(last, i));
      i += sep.length - 1;
      last = i + 1;
    }
  }
  out.push(s.slice(last));
  return out;
}

/** Index of the bracket closing the one at `open`, or -1. */
function matchingClose(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const ch = s[i]!;
    if (OPEN.has(ch)) depth++;
    else if (CLOSE.has(ch)) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const BINDER = /^⋀[^.⟹⟦]{0,200}?\.(?!\.)\s*/u;

/** Premises and conclusion of one normalised proposition. */
export function splitPremises(prop: string): { args: string[]; goal: string } {
  let s = prop.trim();
  for (let k = 0; k < 4; k++) {
    const m = BINDER.exec(s);
    if (!m) break;
    s = s.slice(m[0].length);
  }
  if (s.indexOf('⟹') < 0) return { args: [], goal: prop.trim() };
  const parts = splitTop(s, '⟹').map((p) => p.trim());
  if (parts.length < 2) return { args: [], goal: prop.trim() };
  const args: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (p.startsWith('⟦') && matchingClose(p, 0) === p.length - 1) {
      for (const a of splitTop(p.slice(1, -1), ';')) {
        const t = a.trim();
        if (t) args.push(t);
      }
    } else if (p) args.push(p);
  }
  return { args, goal: parts[parts.length - 1]! };
}
