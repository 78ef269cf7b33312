/**
 * What the per-command parsers share: a reader over one theory command's tokens
 * (names, attributes, `name [attrs]:` bindings, propositions, `fixes`/`for`
 * groups, constant declarations, `|`/`and` clauses, proof-body references) and
 * the `Draft` a parser returns. Text is normalised to Unicode here.
 */
import type { DeclKind } from '../record.js';
import { isText, lexIsabelle, tokenBody, type Token } from './lexer.js';
import type { Command } from './commands.js';
import { CONTEXT_ELEMENTS, DIAGNOSTIC_COMMANDS, PROOF_KEYWORDS, PROOF_START } from './keywords.js';
import { collapse, normaliseProp } from './props.js';
import { collectLocals, matchClose, newLocals, proofRefs, RefSink } from './refs.js';
import { isabelleToUnicode } from '../symbols.js';

export interface Draft {
  short: string;
  kind: DeclKind;
  /** Token range [startTok, endTok) of the whole declaration. */
  startTok: number;
  endTok: number;
  /** Exclusive token index where the statement (signature) ends. */
  stmtEndTok: number;
  args: string[];
  goal: string;
  attrs: string[];
  refs: string[];
  origin?: string;
  locale?: string;
  /** Isabelle name space: facts, constants and types may share a name. */
  space?: 'fact' | 'const' | 'type';
}

export interface SpecCtx {
  src: string;
  toks: Token[];
  warn: (msg: string, tokIndex: number) => void;
}

export const isSym = (t: Token | undefined, s: string): boolean => t !== undefined && t.kind === 'sym' && t.text === s;
export const isWord = (t: Token | undefined, s: string): boolean => t !== undefined && t.kind === 'ident' && t.text === s;
const FIXES_STOP = new Set(['if', 'where', 'monos']);
const SYM_NAME = /^[!#$%&*+\-/<=>?@^_|~]+$/;

/** Render tokens as text: strings/cartouches by their body, parenthesised mixfix dropped. */
export function renderTokens(toks: Token[], from: number, to: number, dropParens: boolean): string {
  const parts: string[] = [];
  for (let i = from; i < to; i++) {
    const t = toks[i]!;
    if (dropParens && isSym(t, '(')) {
      i = matchClose(toks, i, to);
      continue;
    }
    parts.push(isText(t) ? tokenBody(t) : t.text);
  }
  return normaliseProp(parts.join(' '));
}

/** One `[name:] "prop"…` alternative of a `fun` or `inductive` body, with its token span. */
export interface Clause {
  name?: string;
  attrs: string[];
  props: string[];
  from: number;
  to: number;
}

export class SpecReader {
  constructor(
    readonly ctx: SpecCtx,
    public cmd: Command,
  ) {}

  get toks(): Token[] {
    return this.ctx.toks;
  }

  tok(i: number): Token | undefined {
    return i < this.cmd.end ? this.ctx.toks[i] : undefined;
  }

  slice(fromTok: number, toTok: number): string {
    if (toTok <= fromTok) return '';
    return isabelleToUnicode(this.ctx.src.slice(this.toks[fromTok]!.start, this.toks[toTok - 1]!.end)).trim();
  }

  close(i: number): number {
    return matchClose(this.toks, i, this.cmd.end);
  }

  isCommandWord(w: string): boolean {
    return PROOF_KEYWORDS.has(w) || PROOF_START.has(w) || DIAGNOSTIC_COMMANDS.has(w) || CONTEXT_ELEMENTS.has(w);
  }

  isKeyword(t: Token | undefined): boolean {
    return t !== undefined && t.kind === 'ident' && PROOF_KEYWORDS.has(t.text);
  }

  /** Skip `(in loc)` and option groups like `(sequential)`; returns [next, locale]. */
  head(i: number): [number, string | undefined] {
    let locale: string | undefined;
    while (isSym(this.tok(i), '(')) {
      const j = this.close(i);
      if (isWord(this.tok(i + 1), 'in') && this.tok(i + 2)?.kind === 'ident') locale = this.tok(i + 2)!.text;
      i = j + 1;
    }
    return [i, locale];
  }

  /** Attribute texts of the group `[ … ]` opening at i. */
  attrs(i: number, j: number): string[] {
    const out: string[] = [];
    let s = i + 1;
    let depth = 0;
    for (let k = i + 1; k <= j; k++) {
      const t = this.toks[k]!;
      if (t.kind === 'sym' && (t.text === '(' || t.text === '[')) depth++;
      else if (t.kind === 'sym' && (t.text === ')' || (t.text === ']' && k !== j))) depth--;
      if (k === j || (depth === 0 && isSym(t, ','))) {
        const text = collapse(this.slice(s, k));
        if (text) out.push(text);
        s = k + 1;
      }
    }
    return out;
  }

  /** An optional `[attrs]` at k, and the token after it. */
  optAttrs(k: number): { attrs: string[]; next: number } {
    if (!isSym(this.tok(k), '[')) return { attrs: [], next: k };
    const j = this.close(k);
    return { attrs: this.attrs(k, j), next: j + 1 };
  }

  /** `name [attrs]:` or `[attrs]:` at i (needs the colon). */
  thmDecl(i: number): { name?: string; attrs: string[]; next: number } | undefined {
    const t = this.tok(i);
    if (!t) return undefined;
    if (t.kind === 'ident' && !CONTEXT_ELEMENTS.has(t.text) && !this.isKeyword(t)) {
      const { attrs, next: k } = this.optAttrs(i + 1);
      if (isSym(this.tok(k), ':')) return { name: t.text, attrs, next: k + 1 };
      return undefined;
    }
    if (isSym(t, '[')) {
      const j = this.close(i);
      if (isSym(this.tok(j + 1), ':')) return { attrs: this.attrs(i, j), next: j + 2 };
      return undefined;
    }
    // symbolic or numeric binding such as `*: "…"`, `1: "…"`
    if (((t.kind === 'sym' && SYM_NAME.test(t.text)) || t.kind === 'num') && isSym(this.tok(i + 1), ':')) {
      return { name: t.text, attrs: [], next: i + 2 };
    }
    return undefined;
  }

  /** Consecutive propositions (text tokens), skipping `(is …)` patterns. */
  props(i: number, end: number): [string[], number] {
    const out: string[] = [];
    for (;;) {
      const t = this.tok(i);
      if (i >= end || !t) break;
      if (t.kind === 'str' || t.kind === 'cart' || t.kind === 'alt' || t.kind === 'verb') {
        out.push(normaliseProp(tokenBody(t)));
        i++;
      } else if (out.length === 0 && t.kind === 'ident' && !this.isCommandWord(t.text)) {
        // unquoted atomic proposition: `shows False`
        out.push(normaliseProp(t.text));
        i++;
      } else if (isSym(t, '(') && out.length > 0) {
        i = this.close(i) + 1;
      } else break;
    }
    return [out, i];
  }

  /** `and`-separated groups of optionally named propositions. */
  namedProps(i: number, end: number): [Array<{ name?: string; attrs: string[]; props: string[] }>, number] {
    const groups: Array<{ name?: string; attrs: string[]; props: string[] }> = [];
    for (;;) {
      const d = this.thmDecl(i);
      if (d) i = d.next;
      const [props, next] = this.props(i, end);
      if (props.length === 0 && !d) break;
      groups.push({ name: d?.name, attrs: d?.attrs ?? [], props });
      i = next;
      if (isWord(this.tok(i), 'and') && i < end) i++;
      else break;
    }
    return [groups, i];
  }

  /** `x y :: T and z` variable groups until a context element / `if` / end. */
  fixes(i: number, end: number): [string[], number] {
    const out: string[] = [];
    let s = i;
    const flush = (k: number) => {
      const text = renderTokens(this.toks, s, k, true);
      if (text) out.push(text);
    };
    while (i < end) {
      const t = this.toks[i]!;
      if (t.kind === 'ident' && (CONTEXT_ELEMENTS.has(t.text) || PROOF_START.has(t.text) || FIXES_STOP.has(t.text))) break;
      if (isWord(t, 'and')) {
        flush(i);
        s = i + 1;
      }
      if (isSym(t, '(')) i = this.close(i);
      i++;
    }
    flush(i);
    return [out, i];
  }

  proofStart(i: number): number {
    for (let k = i; k < this.cmd.end; k++) {
      const t = this.toks[k]!;
      if (t.kind === 'ident' && PROOF_START.has(t.text)) return k;
      if (t.kind === 'sym' && (t.text === '.' || t.text === '..')) return k;
    }
    return this.cmd.end;
  }

  bodyRefs(headerFrom: number, bodyFrom: number, to: number): string[] {
    const locals = newLocals();
    collectLocals(this.toks, headerFrom, to, locals);
    const sink = new RefSink(locals);
    proofRefs(this.toks, bodyFrom, to, sink);
    return sink.refs;
  }

  draft(short: string, kind: DeclKind, p: Partial<Draft> & { stmtEndTok: number }): Draft {
    return {
      space: kind === 'definition' || kind === 'fun' ? 'const' : 'fact',
      short,
      kind,
      startTok: this.cmd.start,
      endTok: this.cmd.end,
      args: [],
      goal: '',
      attrs: [],
      refs: [],
      ...p,
    };
  }

  /** A name token (identifier or quoted name) at i. */
  nameAt(i: number): string | undefined {
    const t = this.tok(i);
    if (!t) return undefined;
    if (t.kind === 'ident' && !this.isCommandWord(t.text)) return t.text;
    if (t.kind === 'str') {
      const body = tokenBody(t);
      if (body.length > 200) return undefined;
      const inner = lexIsabelle(body).tokens;
      if (inner.length === 1 && inner[0]!.kind === 'ident' && inner[0]!.text === body) return body;
    }
    return undefined;
  }

  /** `c d :: T (mixfix)` → names with their typed text, and the next index. */
  constDecl(i: number): [Array<{ name: string; typed?: string }>, number] | undefined {
    const names: string[] = [];
    let k = i;
    for (let n = this.nameAt(k); n !== undefined && !isSym(this.tok(k + 1), ':'); n = this.nameAt(k)) {
      names.push(n);
      k++;
    }
    if (names.length === 0) return undefined;
    let ty: string | undefined;
    if (isSym(this.tok(k), '::') && this.tok(k + 1)) {
      const t = this.tok(k + 1)!;
      ty = isText(t) ? normaliseProp(tokenBody(t)) : isabelleToUnicode(t.text);
      k += 2;
    }
    if (isSym(this.tok(k), '(')) k = this.close(k) + 1;
    return [names.map((name) => ({ name, typed: ty === undefined ? undefined : `${isabelleToUnicode(name)} :: ${ty}` })), k];
  }

  /** `and`-separated constant declarations (fun, inductive). */
  constDecls(i: number): [Array<{ name: string; typed?: string }>, number] {
    const out: Array<{ name: string; typed?: string }> = [];
    for (;;) {
      const c = this.constDecl(i);
      if (!c) break;
      out.push(...c[0]);
      i = c[1];
      if (isWord(this.tok(i), 'and')) i++;
      else break;
    }
    return [out, i];
  }

  /** `name :: type … [for …]` after the keyword: the constants, the locale, and where the header ends. */
  constHeader(): { consts: ReturnType<SpecReader['constDecls']>[0]; locale: ReturnType<SpecReader['head']>[1]; next: number } {
    const [start, locale] = this.head(this.cmd.start + 1);
    const [consts, afterDecls] = this.constDecls(start);
    let next = afterDecls;
    if (isWord(this.tok(next), 'for')) next = this.fixes(next + 1, this.cmd.end)[1];
    return { consts, locale, next };
  }

  /** `[name:] "prop" … | [name:] "prop" …` clauses from `i` (`and`-separated with `sep = 'and'`). */
  clauses(i: number, sep: '|' | 'and' = '|'): { clauses: Clause[]; next: number } {
    const clauses: Clause[] = [];
    for (;;) {
      const from = i;
      const d = this.thmDecl(i);
      if (d) i = d.next;
      const [props, next] = this.props(i, this.cmd.end);
      if (props.length === 0) break;
      clauses.push({ name: d?.name, attrs: d?.attrs ?? [], props, from, to: next });
      i = next;
      if (sep === '|' ? isSym(this.tok(i), '|') : isWord(this.tok(i), 'and')) i++;
      else break;
    }
    return { clauses, next: i };
  }

  get src(): string {
    return this.ctx.src;
  }
}
