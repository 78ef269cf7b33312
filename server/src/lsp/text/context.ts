/**
 * Reading the document text around the cursor: the identifier being typed or
 * hovered, and whether the cursor sits in a "premise slot" (`rw [`, `simp [`,
 * `exact `, `apply `, `using `, `by (simp add: `, `(rule ` …).
 */
import type { Flavor } from '../../upstream/command.js';
import { codeBefore, type Region } from './syntax.js';

/** Identifier characters (Lean and Isabelle): letters, digits, `_ ' ! ? .`, subscripts. */
const IDENT = /[\p{L}\p{N}_'!?.\u2080-\u209c\u1d62-\u1d6a]/u;

export type SlotKind = 'list' | 'term';
export interface Slot {
  kind: SlotKind;
  /** The tactic or method that opened the slot (`rw`, `simp`, `exact`, `simp add:`, `using`…). */
  tactic: string;
  /**
   * The cursor is where a new premise begins: right after the opener (`rw [`, `exact `,
   * `simp add: `, `using `), a comma or a rewrite arrow, not after an argument
   * (`simp [foo `). Only there does a typed trigger character (space, `[`, `,`) offer premises.
   */
  start?: boolean;
}

export interface CursorContext {
  /** The identifier fragment before the cursor. */
  prefix: string;
  /** Offset where `prefix` starts. */
  prefixStart: number;
  /** Whether the cursor is in code, a comment or a string (syntax.ts); outside code there is never a slot. */
  region: Region;
  slot?: Slot;
}

const LOOKBACK = 600;

function isIdent(ch: string): boolean {
  return IDENT.test(ch);
}

/** Start of the identifier characters that end at `offset` (code points may be surrogate pairs). */
function identStart(text: string, offset: number): number {
  let start = offset;
  while (start > 0) {
    const ch = charBefore(text, start);
    if (!isIdent(ch)) break;
    start -= ch.length;
  }
  return start;
}

/** An offset between the two halves of a surrogate pair moves past the pair: an edit there would split the character. */
export function codePointBoundary(text: string, offset: number): number {
  const hi = text.charCodeAt(offset - 1);
  const lo = text.charCodeAt(offset);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff ? offset + 1 : offset;
}

export function cursorContext(text: string, offset: number, flavor: Flavor): CursorContext {
  offset = Math.max(0, Math.min(offset, text.length));
  const start = identStart(text, offset);
  const prefix = text.slice(start, offset);
  // comments and strings blanked: an unclosed `simp [` is never read through a comment, nor a `(` in one
  const { region, code } = codeBefore(text, offset, Math.max(0, start - LOOKBACK), flavor);
  if (region !== 'code') return { prefix, prefixStart: start, region };
  let before = code.slice(0, code.length - prefix.length);
  // a blank line ends any tactic or method call
  const blank = before.search(/\n[ \t]*\n(?![\s\S]*\n[ \t]*\n)/);
  if (blank >= 0) before = before.slice(blank + 1).replace(/^[ \t]*\n/, '');
  const slot = flavor === 'isabelle' ? isabelleSlot(before) : flavor === 'lean' ? leanSlot(before) : leanSlot(before) ?? isabelleSlot(before);
  return { prefix, prefixStart: start, region, slot };
}

function charBefore(text: string, i: number): string {
  const c = text.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const h = text.charCodeAt(i - 2);
    if (h >= 0xd800 && h <= 0xdbff) return text.slice(i - 2, i);
  }
  return text[i - 1];
}

/** Index of the last unmatched `open` in `s`, or -1. */
function unmatched(s: string, open: string, close: string): number {
  let depth = 0;
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s[i];
    if (c === close) depth++;
    else if (c === open) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

const LEAN_LIST =
  /(?:^|[\s;(<>·{])(rw|rwa|rewrite|erw|rw_mod_cast|nth_rewrite\s+\d+(?:\s+\d+)*|nth_rw\s+\d+(?:\s+\d+)*|simp_rw|simp|simp_all|dsimp|simpa|field_simp|norm_num|simp_arith|linarith|nlinarith|positivity|polyrith|aesop|grind|exacts|calc)(?:\?|!)*(?:\s+only)?(?:\s*\([^)]*\))?\s*$/;
const LEAN_TERM = /(?:^|[\s;(<>·{])(exact|apply|refine'?|exact_mod_cast|apply_mod_cast|convert|specialize|using)(?:\?|!)?\s+$/;

function leanSlot(before: string): Slot | undefined {
  let list: Slot | undefined;
  const open = unmatched(before, '[', ']');
  if (open >= 0) {
    const inside = before.slice(open + 1);
    const m = LEAN_LIST.exec(before.slice(0, open));
    // only identifiers, arrows, commas, spaces and `*` between `[` and the cursor
    if (m && /^[^\[\]();:=]*$/.test(inside) && (inside.trim() === '' || /(^|[\s,←<-])$/.test(inside))) {
      list = { kind: 'list', tactic: m[1].split(/\s/)[0], start: /(?:^|[,←]|<-)\s*$/.test(inside) };
      if (list.start) return list;
    }
  }
  // `simp [foo` on an earlier line, `exact ` on this one: the term slot
  const t = LEAN_TERM.exec(before);
  return t ? { kind: 'term', tactic: t[1], start: true } : list;
}

const ISA_LIST_METHOD = /^\s*(simp|auto|force|fastforce|blast|clarsimp|fast|slow|best|bestsimp|simp_all|fastsimp|iprover|argo|linarith|presburger|smt|metis|meson)\b/;
const ISA_MODIFIER = /\b(add|del|intro|elim|dest|simp|split|cong|only|iff|unfold)\s*:\s*(?:[^:()]*?)$/;
const ISA_RULE = /^\s*(rule|erule|drule|frule|rule_tac|intro|elim|subst|metis|meson|smt|unfold|insert|cut_tac|fact|rules|iprover)\b[^()]*$/;
const ISA_USING = /(?:^|[\s(])(using|from|with|unfolding|including|note|thus|hence)\s+([^\n]*)$/;

function isabelleSlot(before: string): Slot | undefined {
  const open = unmatched(before, '(', ')');
  if (open >= 0) {
    const inside = before.slice(open + 1);
    const mm = ISA_LIST_METHOD.exec(inside);
    const mod = ISA_MODIFIER.exec(inside);
    // Isabelle separates facts by spaces: after a fact is where the next one begins
    if (mm && mod) return { kind: 'list', tactic: `${mm[1]} ${mod[1]}:`, start: true };
    const r = ISA_RULE.exec(inside);
    if (r && /\s$/.test(inside)) return { kind: 'term', tactic: r[1], start: true };
    if (mm && mm[1] === 'metis' && /\s$/.test(inside)) return { kind: 'list', tactic: 'metis', start: true };
  }
  const u = ISA_USING.exec(before);
  if (u && !/\b(by|apply|proof|show|have|obtain|qed|done|lemma|theorem)\b/.test(u[2]) && (u[2] === '' || /\s$/.test(u[2]))) {
    if (u[1] !== 'thus' && u[1] !== 'hence') return { kind: 'list', tactic: u[1], start: true };
  }
  return undefined;
}

/** The identifier that contains `offset` (hover), or undefined. */
export function identifierAt(text: string, offset: number): { name: string; start: number; end: number } | undefined {
  offset = Math.max(0, Math.min(offset, text.length));
  const start = identStart(text, offset);
  let end = offset;
  while (end < text.length) {
    const cp = text.codePointAt(end)!;
    const ch = String.fromCodePoint(cp);
    if (!isIdent(ch)) break;
    end += ch.length;
  }
  let name = text.slice(start, end);
  // trim dots at the edges (`foo.` while typing, `.bar` field notation)
  const lead = name.length - name.replace(/^\.+/, '').length;
  name = name.replace(/^\.+/, '');
  const trimmed = name.replace(/\.+$/, '');
  if (!trimmed || /^\p{N}/u.test(trimmed)) return undefined;
  return { name: trimmed, start: start + lead, end: start + lead + trimmed.length };
}

/**
 * Fallback query when no proof state is available: the enclosing declaration's
 * text up to the cursor (capped).
 */
export function declarationBefore(text: string, offset: number, flavor: Flavor, cap = 2000): string {
  const before = text.slice(Math.max(0, offset - 20_000), offset);
  const kw = flavor === 'isabelle' ? /(^|\n)\s*(lemma|theorem|corollary|proposition|schematic_goal)\b/g : /(^|\n)\s*(?:@\[[^\]]*\]\s*)?(?:private\s+|protected\s+)?(theorem|lemma|example|def|instance)\b/g;
  let last = -1;
  for (let m = kw.exec(before); m; m = kw.exec(before)) last = m.index + m[1].length;
  const chunk = last >= 0 ? before.slice(last) : before.split('\n').slice(-3).join('\n');
  return chunk.slice(0, cap).trim();
}
