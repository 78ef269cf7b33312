/**
 * Per-command parsers: turn one theory command (see isabelle-commands.ts) into
 * declaration drafts — name, kind, premises, conclusion, token ranges, refs.
 * Text is normalised to Unicode here; records are assembled in isabelle.ts.
 */
import type { DeclKind } from '../record.js';
import { isText, lexIsabelle, tokenBody, type Token } from './lexer.js';
import type { Command } from './commands.js';
import {
  CONTEXT_ELEMENTS,
  DATATYPE_COMMANDS,
  DIAGNOSTIC_COMMANDS,
  FUN_COMMANDS,
  INDUCTIVE_COMMANDS,
  PROOF_KEYWORDS,
  PROOF_START,
  THEOREM_COMMANDS,
} from './keywords.js';
import { collapse, normaliseProp, splitPremises } from './props.js';
import { collectLocals, factListRefs, matchClose, newLocals, proofRefs, RefSink } from './refs.js';
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

const isSym = (t: Token | undefined, s: string): boolean => t !== undefined && t.kind === 'sym' && t.text === s;
const isWord = (t: Token | undefined, s: string): boolean => t !== undefined && t.kind === 'ident' && t.text === s;
const FIXES_STOP = new Set(['if', 'where', 'monos']);
const SYM_NAME = /^[!#$%&*+\-/<=>?@^_|~]+$/;
const HEAD_RE = /^[\s(]*([\p{L}][\p{L}\p{N}_'.₀-₉]*)/u;
/** Head constant of a definition's left-hand side `c x y = …`, unless it is written infix. */
const DEF_HEAD_RE = /^([\p{L}][\p{L}\p{N}_'.₀-₉]*)\s*([^\s])?/u;
function definedConstant(eq: string): string | undefined {
  const m = DEF_HEAD_RE.exec(eq);
  if (!m) return undefined;
  const next = m[2];
  if (next === undefined || next === '=' || next === '≡' || /[\p{L}\p{N}_(\[{'"?‹]/u.test(next)) return m[1];
  return undefined;
}

/** Render tokens as text: strings/cartouches by their body, parenthesised mixfix dropped. */
function renderTokens(toks: Token[], from: number, to: number, dropParens: boolean): string {
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
interface Clause {
  name?: string;
  attrs: string[];
  props: string[];
  from: number;
  to: number;
}

class Parser {
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

  // ---------------------------------------------------------------- theorems

  theorem(): Draft[] {
    const kw = this.cmd.kw;
    const kind: DeclKind =
      kw === 'theorem' ? 'theorem' : kw === 'corollary' ? 'corollary' : kw === 'proposition' ? 'proposition' : 'lemma';
    let [i, locale] = this.head(this.cmd.start + 1);
    const d = this.thmDecl(i);
    if (d) i = d.next;
    const end = this.proofStart(i);
    const args: string[] = [];
    let groups: Array<{ name?: string; attrs: string[]; props: string[] }> = [];
    let obtains: string | undefined;

    const t = this.tok(i);
    if (t && t.kind === 'ident' && CONTEXT_ELEMENTS.has(t.text)) {
      while (i < end) {
        const w = this.toks[i]!;
        if (w.kind !== 'ident') {
          i++;
          continue;
        }
        if (w.text === 'fixes') {
          const [f, next] = this.fixes(i + 1, end);
          args.push(...f);
          i = next;
        } else if (w.text === 'assumes' || w.text === 'defines') {
          const [g, next] = this.namedProps(i + 1, end);
          for (const x of g) args.push(...x.props);
          i = Math.max(next, i + 1);
        } else if (w.text === 'shows') {
          const [g, next] = this.namedProps(i + 1, end);
          groups.push(...g);
          i = Math.max(next, i + 1);
        } else if (w.text === 'obtains') {
          obtains = renderTokens(this.toks, i + 1, end, false);
          i = end;
        } else i++;
      }
    } else {
      const [g, next] = this.namedProps(i, end);
      groups = g;
      i = next;
      const ifArgs: string[] = [];
      const forArgs: string[] = [];
      while (i < end) {
        const w = this.toks[i]!;
        if (isWord(w, 'if')) {
          const [ig, n2] = this.namedProps(i + 1, end);
          for (const x of ig) ifArgs.push(...x.props);
          i = Math.max(n2, i + 1);
        } else if (isWord(w, 'for')) {
          const [f, n2] = this.fixes(i + 1, end);
          forArgs.push(...f);
          i = Math.max(n2, i + 1);
        } else i++;
      }
      args.push(...forArgs, ...ifArgs);
    }

    const props = groups.flatMap((g) => g.props);
    const shape = (ps: string[], base: string[]): { args: string[]; goal: string } => {
      if (ps.length === 1) {
        const s = splitPremises(ps[0]!);
        return { args: [...base, ...s.args], goal: s.goal };
      }
      return { args: [...base], goal: ps.join('; ') };
    };

    // `oops` abandons the proof: no fact is stored
    for (let k = end; k < this.cmd.end; k++) if (isWord(this.toks[k], 'oops')) return [];
    const refs = () => this.bodyRefs(this.cmd.start + 1, end, this.cmd.end);
    if (d?.name) {
      if (props.length === 0 && obtains === undefined) {
        this.ctx.warn(`${kw} ${d.name}: no statement found`, this.cmd.start);
        return [];
      }
      const sh = obtains !== undefined ? { args, goal: obtains } : shape(props, args);
      return [
        this.draft(d.name, kind, {
          stmtEndTok: end,
          args: sh.args,
          goal: sh.goal,
          attrs: d.attrs,
          refs: refs(),
          locale,
        }),
      ];
    }
    // unnamed: named conclusions (`shows a: … and b: …`) still make facts
    const named = groups.filter((g) => g.name);
    if (named.length === 0) return [];
    const r = refs();
    return named.map((g) => {
      const sh = shape(g.props, args);
      return this.draft(g.name!, kind, { stmtEndTok: end, args: sh.args, goal: sh.goal, attrs: g.attrs, refs: r, locale });
    });
  }

  lemmas(): Draft[] {
    let [i, locale] = this.head(this.cmd.start + 1);
    const t = this.tok(i);
    if (!t || t.kind !== 'ident' || this.isKeyword(t)) return [];
    const { attrs, next: k } = this.optAttrs(i + 1);
    if (!isSym(this.tok(k), '=')) return [];
    const sink = new RefSink(newLocals());
    const last = Math.max(factListRefs(this.toks, k + 1, this.cmd.end, sink), k + 1);
    return [this.draft(t.text, 'lemma', { stmtEndTok: last, endTok: last, attrs, refs: sink.refs, locale })];
  }

  // -------------------------------------------------------------- definitions

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

  definition(): Draft[] {
    const kw = this.cmd.kw;
    let [i, locale] = this.head(this.cmd.start + 1);
    let name: string | undefined;
    let typed: string | undefined;
    // decl form: `c :: T (mixfix) where`
    if (!this.thmDecl(i)) {
      const c = this.constDecl(i);
      if (c && (isWord(this.tok(c[1]), 'where') || c[0][0]!.typed !== undefined)) {
        // `c :: T (mixfix) where`, or old syntax without `where`
        ({ name, typed } = c[0][0]!);
        i = isWord(this.tok(c[1]), 'where') ? c[1] + 1 : c[1];
      }
    }
    const d = this.thmDecl(i);
    if (d) i = d.next;
    const [props, next] = this.props(i, this.cmd.end);
    if (props.length === 0) {
      this.ctx.warn(`${kw}${name ? ' ' + name : ''}: no defining proposition`, this.cmd.start);
      return [];
    }
    let end = next;
    if (isWord(this.tok(end), 'for')) end = this.fixes(end + 1, this.cmd.end)[1];
    const goal = props[0]!;
    // without a declaration the fact name (`foo_def: …`) or the head constant names it;
    // overloaded instance definitions like `"0 = …"` have neither and are skipped
    if (!name) name = d?.name;
    if (!name) {
      const head = definedConstant(splitPremises(goal).goal);
      if (!head) return [];
      // overloaded definitions in `instantiation T :: c` are named `c_T` (fact `c_T_def`)
      name = this.cmd.instType ? `${head}_${this.cmd.instType}` : head;
    }
    return [
      this.draft(name, 'definition', {
        stmtEndTok: end,
        endTok: end,
        args: typed ? [typed] : [],
        goal,
        attrs: d?.attrs ?? [],
        locale,
      }),
    ];
  }

  /** `name :: type … [for …]` after the keyword: the constants, the locale, and where the header ends. */
  private constHeader(): { consts: ReturnType<Parser['constDecls']>[0]; locale: ReturnType<Parser['head']>[1]; next: number } {
    const [start, locale] = this.head(this.cmd.start + 1);
    const [consts, afterDecls] = this.constDecls(start);
    let next = afterDecls;
    if (isWord(this.tok(next), 'for')) next = this.fixes(next + 1, this.cmd.end)[1];
    return { consts, locale, next };
  }

  /** `[name:] "prop" … | [name:] "prop" …` clauses from `i` (`and`-separated with `sep = 'and'`). */
  private clauses(i: number, sep: '|' | 'and' = '|'): { clauses: Clause[]; next: number } {
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

  fun(): Draft[] {
    const kw = this.cmd.kw;
    const { consts, locale, next } = this.constHeader();
    let i = next;
    if (consts.length === 0 || !isWord(this.tok(i), 'where')) {
      this.ctx.warn(`${kw}${consts[0] ? ' ' + consts[0].name : ''}: expected \`where\``, this.cmd.start);
      return [];
    }
    const body = this.clauses(i + 1);
    i = body.next;
    const eqs = body.clauses.flatMap((c) => c.props);
    if (eqs.length === 0) {
      this.ctx.warn(`${kw} ${consts[0]!.name}: no equations`, this.cmd.start);
      return [];
    }
    const stmtEnd = i;
    const hasProof = kw === 'function' || kw === 'nominal_primrec' || kw === 'corecursive' || kw === 'primcorecursive';
    const endTok = hasProof ? this.cmd.end : stmtEnd;
    const refs = hasProof ? this.bodyRefs(this.cmd.start + 1, stmtEnd, this.cmd.end) : [];
    const heads = eqs.map((e) => HEAD_RE.exec(splitPremises(e).goal)?.[1]);
    return consts.map((c) => {
      let mine = consts.length === 1 ? eqs : eqs.filter((_, k) => heads[k] === c.name);
      if (mine.length === 0) mine = eqs;
      return this.draft(c.name, 'fun', {
        stmtEndTok: stmtEnd,
        endTok,
        args: c.typed ? [c.typed] : [],
        goal: mine.join('; '),
        refs,
        locale,
      });
    });
  }

  inductive(): Draft[] {
    const kw = this.cmd.kw;
    const { consts: preds, locale, next } = this.constHeader();
    let i = next;
    if (preds.length === 0) {
      this.ctx.warn(`${kw}: no predicate name`, this.cmd.start);
      return [];
    }
    let rules: Array<{ name?: string; attrs: string[]; prop: string; from: number; to: number }> = [];
    if (isWord(this.tok(i), 'where')) {
      const body = this.clauses(i + 1);
      rules = body.clauses.map((c) => ({ ...c, prop: c.props.join('; ') }));
      i = body.next;
    }
    if (isWord(this.tok(i), 'monos')) {
      i++;
      while (i < this.cmd.end && this.tok(i)!.kind === 'ident' && !this.isKeyword(this.tok(i))) i++;
    }
    const stmtEnd = i;
    const out: Draft[] = preds.map((p) =>
      this.draft(p.name, 'definition', {
        stmtEndTok: stmtEnd,
        endTok: stmtEnd,
        args: p.typed ? [p.typed] : [],
        goal: rules.map((r) => r.prop).join('; '),
        locale,
      }),
    );
    for (const r of rules) {
      if (!r.name) continue;
      const sp = splitPremises(r.prop);
      const head = HEAD_RE.exec(sp.goal)?.[1];
      const origin = preds.find((p) => p.name === head)?.name ?? preds[0]!.name;
      out.push(
        this.draft(r.name, 'lemma', {
          startTok: r.from,
          endTok: r.to,
          stmtEndTok: r.to,
          args: sp.args,
          goal: sp.goal,
          attrs: r.attrs,
          origin,
          locale,
        }),
      );
    }
    return out;
  }

  /** `inductive_cases` / `inductive_simps`: named facts from propositions. */
  namedFacts(kind: DeclKind): Draft[] {
    const [start, locale] = this.head(this.cmd.start + 1);
    const out: Draft[] = [];
    for (const c of this.clauses(start, 'and').clauses) {
      if (!c.name) continue;
      const sh = c.props.length === 1 ? splitPremises(c.props[0]!) : { args: [], goal: c.props.join('; ') };
      out.push(this.draft(c.name, kind, { startTok: c.from, endTok: c.to, stmtEndTok: c.to, args: sh.args, goal: sh.goal, attrs: c.attrs, locale }));
    }
    return out;
  }

  axiomatization(): Draft[] {
    let i = this.cmd.start + 1;
    while (i < this.cmd.end && !isWord(this.tok(i), 'where')) {
      if (isSym(this.tok(i), '(')) i = this.close(i);
      i++;
    }
    if (i >= this.cmd.end) return [];
    this.cmd = { ...this.cmd, start: i };
    return this.namedFacts('axiom');
  }

  datatype(): Draft[] {
    let [i] = this.head(this.cmd.start + 1);
    const specs: Array<{ name: string; ctors: string; from: number; to: number }> = [];
    while (i < this.cmd.end) {
      const from = i;
      let name: string | undefined;
      while (i < this.cmd.end && !isSym(this.tok(i), '=')) {
        const t = this.tok(i)!;
        if (isSym(t, '(')) i = this.close(i);
        else if (t.kind === 'ident' || t.kind === 'str') {
          if (this.isKeyword(t)) break;
          name = this.nameAt(i) ?? name;
        }
        i++;
      }
      if (!isSym(this.tok(i), '=') || !name) break;
      const cFrom = i + 1;
      i = cFrom;
      while (i < this.cmd.end) {
        const t = this.tok(i)!;
        if (
          t.kind === 'ident' &&
          (t.text === 'and' || t.text === 'for' || t.text === 'where' || PROOF_START.has(t.text) || DIAGNOSTIC_COMMANDS.has(t.text))
        ) {
          break;
        }
        if (isSym(t, '(')) i = this.close(i);
        i++;
      }
      specs.push({ name, ctors: collapse(this.slice(cFrom, i).replace(/"/g, '')), from, to: i });
      if (isWord(this.tok(i), 'and')) i++;
      else break;
    }
    if (specs.length === 0) {
      this.ctx.warn(`${this.cmd.kw}: cannot parse the type specification`, this.cmd.start);
      return [];
    }
    // trailing `for map: f rel: g` / `where "…" | "…"` clauses belong to the statement
    let end = specs[specs.length - 1]!.to;
    if (isWord(this.tok(end), 'for')) {
      end++;
      while (this.tok(end)?.kind === 'ident' && isSym(this.tok(end + 1), ':') && this.tok(end + 2)?.kind === 'ident') end += 3;
    }
    if (isWord(this.tok(end), 'where')) {
      end++;
      for (;;) {
        const d = this.thmDecl(end);
        const [ps, next] = this.props(d ? d.next : end, this.cmd.end);
        if (ps.length === 0) break;
        end = next;
        if (isSym(this.tok(end), '|')) end++;
        else break;
      }
    }
    return specs.map((s) => this.draft(s.name, 'definition', { stmtEndTok: end, endTok: end, goal: s.ctors }));
  }

  get src(): string {
    return this.ctx.src;
  }

  liftDefinition(): Draft[] {
    let [i, locale] = this.head(this.cmd.start + 1);
    const c = this.constDecl(i);
    if (!c) {
      this.ctx.warn('lift_definition: no constant name', this.cmd.start);
      return [];
    }
    const { name, typed } = c[0][0]!;
    i = c[1];
    let goal = '';
    if (isWord(this.tok(i), 'is')) {
      i++;
      const t = this.tok(i);
      if (t) {
        goal = isText(t) ? normaliseProp(tokenBody(t)) : isabelleToUnicode(t.text);
        i++;
      }
    }
    if (isWord(this.tok(i), 'parametric')) {
      i++;
      while (i < this.cmd.end && this.tok(i)!.kind === 'ident' && !this.isKeyword(this.tok(i))) i++;
    }
    const refs = this.bodyRefs(this.cmd.start + 1, i, this.cmd.end);
    return [this.draft(name, 'definition', { stmtEndTok: i, args: typed ? [typed] : [], goal, refs, locale })];
  }
}

/** Drafts for one command; [] for commands that declare nothing we index. */
export function parseCommand(ctx: SpecCtx, cmd: Command): Draft[] {
  const p = new Parser(ctx, cmd);
  const kw = cmd.kw;
  if (THEOREM_COMMANDS.has(kw)) return p.theorem();
  if (kw === 'lemmas' || kw === 'theorems') return p.lemmas();
  if (kw === 'definition' || kw === 'abbreviation') return p.definition();
  if (FUN_COMMANDS.has(kw)) return p.fun();
  if (INDUCTIVE_COMMANDS.has(kw)) return p.inductive();
  if (kw === 'inductive_cases' || kw === 'inductive_simps') return p.namedFacts('lemma');
  if (DATATYPE_COMMANDS.has(kw)) return p.datatype().map((d) => ({ ...d, space: 'type' as const }));
  if (kw === 'lift_definition') return p.liftDefinition();
  if (kw === 'axiomatization') return p.axiomatization();
  return [];
}
