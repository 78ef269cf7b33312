/**
 * Lean 4 source extractor: one `ExtractedDecl` per declaration (plus generated
 * names: structure fields, constructors, `@[to_additive]`, `@[simps]`,
 * `@[reassoc]`, `@[ext]`), with the namespace/`open` scope for the resolver.
 *
 * Works on tokens from `lean-lex.ts`; commands are split at column-0 command
 * keywords. Never throws: problems become warnings.
 */
import type { DeclKind, ExtractedDecl, FileExtraction, Range } from '../record.js';
import { T, lex, matchClose, offsetToPos, plainTok, type Tok } from './lex.js';
import {
  addVariables,
  effectiveVars,
  idsIn,
  parseBinders,
  readBinders,
  renderBinder,
  selectVariables,
  syntheticBinder,
  type Binder,
} from './binders.js';
import { instanceName, joinMapped, translateComponent, translateName, translateNamespace, translateTok } from './names.js';
import { boundInBody, extractRefs } from './refs.js';
import { MODIFIERS, parseCtors, parseFields, untilDeriving, type Member } from './struct.js';
import { isSimps, isToAdditive, parseAttrList, parseSimps, parseToAdditive, type AttrEntry } from './attrs.js';

const DECL_KW: Record<string, DeclKind> = {
  theorem: 'theorem',
  lemma: 'lemma',
  def: 'def',
  abbrev: 'abbrev',
  instance: 'instance',
  structure: 'structure',
  class: 'class',
  inductive: 'inductive',
  axiom: 'axiom',
  opaque: 'opaque',
  irreducible_def: 'def',
};

/** Reserved words that start a command wherever they begin a line. */
const ANY_COL = new Set([
  'theorem', 'lemma', 'def', 'abbrev', 'instance', 'structure', 'class', 'inductive', 'axiom', 'opaque', 'example',
  'namespace', 'section', 'end', 'mutual', 'variable', 'universe',
]);

/** Declaration and scope keywords that start a command even in the middle of a line. */
const MID_LINE = new Set([
  'theorem', 'lemma', 'def', 'abbrev', 'instance', 'structure', 'class', 'inductive', 'axiom', 'opaque', 'example',
  'namespace', 'section', 'end',
]);

/** Words after which a declaration keyword continues the command (`class inductive`, `open Foo in def`). */
const CONTINUES = new Set(['in', 'class', 'deriving', 'where', 'with', 'extends', 'attribute', 'for']);

/** Words that start a command at column 0. */
const COL0 = new Set([
  ...ANY_COL, ...MODIFIERS, 'irreducible_def', 'universes', 'open', 'set_option', 'attribute', 'include', 'omit',
  'export', 'alias', 'import', 'macro', 'macro_rules', 'syntax', 'notation', 'notation3', 'infix', 'infixl',
  'infixr', 'prefix', 'postfix', 'elab', 'elab_rules', 'initialize', 'builtin_initialize', 'run_cmd', 'run_elab',
  'run_meta', 'assert_not_exists', 'assert_not_imported', 'library_note', 'initialize_simps_projections',
  'add_decl_doc', 'compile_inductive', 'compile_def', 'suppress_compilation', 'unseal', 'seal', 'proof_wanted',
  'declare_aesop_rule_sets', 'register_option', 'register_simp_attr', 'simproc', 'dsimproc', 'simproc_decl',
  'dsimproc_decl', 'register_label_attr', 'add_aesop_rules', 'mk_iff_of_inductive_prop', 'module', 'unif_hint',
  'declare_syntax_cat', 'recall', 'insert_to_additive_translation', 'register_builtin_option', 'whatsnew',
  'count_heartbeats', 'grind_pattern', 'declare_config_elab', 'register_hint', 'lemma', 'binder_predicate',
  'open_locale', 'scoped', 'local', 'deprecate', 'to_additive_ignore_args', 'gen_injective_theorems', 'library_note2',
]);

const PREFIXABLE = new Set(['open', 'set_option', 'variable', 'include', 'omit', 'attribute', 'unseal', 'seal']);
const HEADER_STOP = new Set(['where', 'extends', 'deriving', 'with', 'termination_by', 'decreasing_by']);
const MAX_WARNINGS = 50;

interface Frame {
  kind: 'root' | 'ns' | 'sec' | 'mutual';
  name: string;
  opens: string[];
  vars: Binder[];
  includes: string[];
}

interface Prefix {
  opens: string[];
  vars: Binder[];
  includes: string[];
}

type Scope = ExtractedDecl['scope'];

/** A text piece: a token range (optionally with the name token replaced) or literal text. */
type Piece = { a: number; b: number; nameIdx?: number; text?: undefined } | { text: string };

interface Proto {
  name: string;
  /** Short name as written (for the statement's name token). */
  short: string;
  kind: DeclKind;
  args: Binder[];
  goal: Piece;
  stmt: Piece[];
  doc?: string;
  attrs?: string[];
  refs: string[];
  origin?: string;
  ra: number;
  rb: number;
}

interface Header {
  nameIdx: number;
  args: Binder[];
  parents: Array<[number, number]>;
  goalA: number;
  goalB: number;
  term: number;
}

class Extractor {
  readonly decls: ExtractedDecl[] = [];
  readonly warnings: string[] = [];
  private readonly frames: Frame[] = [{ kind: 'root', name: '', opens: [], vars: [], includes: [] }];
  private pending: Prefix | null = null;
  private readonly scopes = new Map<string, Scope>();
  private warnCount = 0;

  constructor(
    private readonly toks: Tok[],
    private readonly lineStarts: number[],
    private readonly file: string,
    private readonly module: string,
  ) {}

  warn(msg: string, tok?: Tok): void {
    this.warnCount++;
    if (this.warnCount <= MAX_WARNINGS) this.warnings.push(tok ? `${this.file}:${tok.line + 1}: ${msg}` : `${this.file}: ${msg}`);
  }

  finish(): void {
    if (this.warnCount > MAX_WARNINGS) this.warnings.push(`${this.file}: ${this.warnCount - MAX_WARNINGS} more warnings`);
    // scopes still open at the end of the file are closed implicitly (legal Lean)
  }

  // ---------------------------------------------------------------- commands

  run(): void {
    const starts = this.commandStarts();
    for (let c = 0; c < starts.length; c++) {
      const s = starts[c];
      const e = c + 1 < starts.length ? starts[c + 1] : this.toks.length;
      try {
        this.command(s, e);
      } catch (err) {
        this.pending = null;
        this.warn(`internal error: ${err instanceof Error ? err.message : String(err)}`, this.toks[s]);
      }
    }
  }

  private isStart(i: number, inMutual: boolean): boolean {
    const t = this.toks[i];
    if (!t.nl) return false;
    switch (t.k) {
      case T.Doc:
      case T.Attr:
        return t.col === 0 || inMutual;
      case T.Op:
        return t.col === 0 && t.v.startsWith('#');
      case T.Id:
        if (ANY_COL.has(t.v)) return true;
        if (t.col === 0) {
          if (t.v === 'deriving') return this.toks[i + 1]?.v === 'instance';
          return COL0.has(t.v);
        }
        return inMutual && MODIFIERS.has(t.v);
      default:
        return false;
    }
  }

  /**
   * Where a command starting mid-line (`… := rfl @[simp] theorem b …`: several
   * declarations on one line, e.g. a generated file on a single line) begins: the
   * keyword at `i`, or the docstring, attributes and modifiers just before it; -1
   * when the keyword continues the command before it (`class inductive`,
   * `deriving instance`, `open X in def`, `attribute [local instance]`, quotations).
   */
  private midLineStart(i: number): number {
    const toks = this.toks;
    let j = i;
    while (j > 0) {
      const p = toks[j - 1];
      if (p.k === T.Doc || (p.k === T.Id && MODIFIERS.has(p.v))) j--;
      else if (p.k === T.Close) {
        let depth = 0;
        let k = j - 1;
        for (; k >= 0; k--) {
          if (toks[k].k === T.Close) depth++;
          else if (toks[k].k === T.Open || toks[k].k === T.Attr) depth--;
          if (depth === 0) break;
        }
        if (k < 0 || toks[k].k !== T.Attr) break;
        j = k;
      } else break;
    }
    if (j === 0 || toks[j].nl) return j;
    // after an antiquotation (`$mods:declModifiers theorem …` in a syntax quotation)
    for (let k = Math.max(0, j - 4); k < j; k++) if (toks[k].k === T.Op && toks[k].v.startsWith('$')) return -1;
    const p = toks[j - 1];
    const endsTerm = p.k === T.Num || p.k === T.Str || p.k === T.Char || p.k === T.Close || p.k === T.Proj || (p.k === T.Id && !CONTINUES.has(p.v));
    return endsTerm ? j : -1;
  }

  /** Token indices where commands start; modifiers/attributes stay with their declaration. */
  private commandStarts(): number[] {
    const toks = this.toks;
    const starts: number[] = [];
    let modsOnly = false;
    let attrDepth = 0;
    let inMutual = false;
    let depth = 0; // brackets open since the last command start (syntax quotations `(…) hold commands)
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i];
      let start = this.isStart(i, inMutual) && !modsOnly ? i : -1;
      if (start < 0 && !t.nl && t.k === T.Id && MID_LINE.has(t.v) && !modsOnly && depth === 0) {
        const j = this.midLineStart(i);
        if (j > (starts[starts.length - 1] ?? -1)) start = j;
      }
      if (start >= 0) {
        starts.push(start);
        modsOnly = true;
        attrDepth = 0;
        depth = 0;
        for (let k = start; k < i; k++) depth += toks[k].k === T.Open || toks[k].k === T.Attr ? 1 : toks[k].k === T.Close ? -1 : 0;
        if (t.k === T.Id && t.v === 'mutual') inMutual = true;
        else if (t.k === T.Id && t.v === 'end') inMutual = false;
      }
      if (t.k === T.Open || t.k === T.Attr) depth++;
      else if (t.k === T.Close && depth > 0) depth--;
      if (attrDepth > 0) {
        if (t.k === T.Open || t.k === T.Attr) attrDepth++;
        else if (t.k === T.Close) attrDepth--;
      } else if (t.k === T.Attr) attrDepth = 1;
      else if (t.k !== T.Doc && !(t.k === T.Id && MODIFIERS.has(t.v))) modsOnly = false;
    }
    return starts;
  }

  private command(s: number, e: number): void {
    const toks = this.toks;
    const pending = this.pending;
    this.pending = null;
    let j = s;
    while (j < e) {
      const t = toks[j];
      if (t.k === T.Doc || (t.k === T.Id && MODIFIERS.has(t.v))) j++;
      else if (t.k === T.Attr) j = matchClose(toks, j, e) + 1;
      else break;
    }
    if (j >= e || toks[j].k !== T.Id) return;
    const head = toks[j];
    const v = head.v;
    if (v === 'namespace') {
      const n = toks[j + 1];
      if (j + 1 < e && n.k === T.Id) this.frames.push({ kind: 'ns', name: n.v, opens: [], vars: [], includes: [] });
      else this.warn('namespace without a name', head);
    } else if (v === 'section') {
      const n = toks[j + 1];
      const name = j + 1 < e && n.k === T.Id && !n.nl ? n.v : '';
      this.frames.push({ kind: 'sec', name, opens: [], vars: [], includes: [] });
    } else if (v === 'mutual') {
      this.frames.push({ kind: 'mutual', name: '', opens: [], vars: [], includes: [] });
    } else if (v === 'end') {
      const n = toks[j + 1];
      this.end(j + 1 < e && n.k === T.Id && !n.nl ? n.v : '', head);
    } else if (PREFIXABLE.has(v)) {
      this.prefixable(j, e, pending);
    } else if (v === 'export') {
      this.exportCommand(s, j, e, pending);
    } else if (v === 'alias') {
      this.alias(s, j, e, pending);
    } else if (DECL_KW[v] !== undefined) {
      this.decl(s, j, e, pending);
    }
  }

  private end(name: string, tok: Tok): void {
    const frames = this.frames;
    if (frames.length <= 1) {
      this.warn(`stray end${name ? ' ' + name : ''}`, tok);
      return;
    }
    const top = frames[frames.length - 1];
    if (!name) {
      if (top.name && top.kind !== 'mutual') this.warn(`end without name closes ${top.name}`, tok);
      frames.pop();
      return;
    }
    if (top.name === name) {
      frames.pop();
      return;
    }
    if (top.kind !== 'mutual' && top.name.endsWith('.' + name)) {
      top.name = top.name.slice(0, top.name.length - name.length - 1);
      return;
    }
    // `end A.B` closing `namespace A` + `namespace B`
    let acc = '';
    for (let k = frames.length - 1; k >= 1; k--) {
      acc = acc ? `${frames[k].name}.${acc}` : frames[k].name;
      if (acc === name) {
        frames.length = k;
        return;
      }
      if (!name.endsWith(acc)) break;
    }
    this.warn(`end ${name} does not match ${top.name || 'anonymous section'}`, tok);
    frames.pop();
  }

  private findIn(a: number, e: number): number {
    let depth = 0;
    for (let m = a; m < e; m++) {
      const t = this.toks[m];
      if (t.k === T.Open || t.k === T.Attr) depth++;
      else if (t.k === T.Close) depth = Math.max(0, depth - 1);
      else if (depth === 0 && t.k === T.Id && t.v === 'in') return m;
    }
    return -1;
  }

  private allVars(pending: Prefix | null): Binder[] {
    const out: Binder[] = [];
    for (const f of this.frames) out.push(...f.vars);
    if (pending) out.push(...pending.vars);
    return out;
  }

  /** `open`, `variable`, `set_option`, … possibly with `in`. */
  private prefixable(j: number, e: number, pending: Prefix | null): void {
    const toks = this.toks;
    const kw = toks[j].v;
    const inIdx = this.findIn(j + 1, e);
    const argEnd = inIdx < 0 ? e : inIdx;
    const target: Prefix =
      inIdx < 0
        ? this.frames[this.frames.length - 1]
        : { opens: [...(pending?.opens ?? [])], vars: [...(pending?.vars ?? [])], includes: [...(pending?.includes ?? [])] };
    if (kw === 'open') target.opens.push(...this.parseOpens(j + 1, argEnd));
    else if (kw === 'variable') addVariables(target.vars, parseBinders(toks, j + 1, argEnd), this.allVars(inIdx < 0 ? null : target));
    else if (kw === 'include') {
      for (let m = j + 1; m < argEnd; m++) if (toks[m].k === T.Id) target.includes.push(toks[m].v);
    } else if (kw === 'omit') {
      const omitted = new Set<string>();
      for (let m = j + 1; m < argEnd; m++) if (toks[m].k === T.Id) omitted.add(toks[m].v);
      for (const f of inIdx < 0 ? this.frames : [target]) f.includes = f.includes.filter((n) => !omitted.has(n));
    } else if (kw === 'attribute') this.attributeCommand(j + 1, argEnd);
    if (inIdx >= 0) {
      this.pending = target;
      if (inIdx + 1 < e) this.command(inIdx + 1, e);
    }
  }

  private parseOpens(a: number, b: number): string[] {
    const toks = this.toks;
    const out: string[] = [];
    if (toks[a]?.v === 'scoped') return out;
    for (let m = a; m < b; m++) {
      const t = toks[m];
      if (t.k === T.Open) m = matchClose(toks, m, b);
      else if (t.k === T.Id) {
        if (t.v === 'hiding' || t.v === 'renaming') break;
        out.push(t.v);
      }
    }
    return out;
  }

  /** `attribute [to_additive] foo`: additive twins of declarations of this file. */
  private attributeCommand(a: number, b: number): void {
    const toks = this.toks;
    if (toks[a]?.k !== T.Open || toks[a].v !== '[') return;
    const close = matchClose(toks, a, b);
    const ta = parseAttrList(toks, a + 1, close).find((x) => isToAdditive(x.name));
    if (!ta) return;
    const info = parseToAdditive(toks, ta);
    if (info.existing) return;
    const ns = this.currentNs();
    for (let m = close + 1; m < b; m++) {
      const t = toks[m];
      if (t.k !== T.Id) continue;
      const cands = [t.v, ns ? `${ns}.${t.v}` : t.v];
      const src = this.decls.find((d) => cands.includes(d.name) && d.origin === undefined);
      if (!src) continue;
      const name = info.name !== undefined && b - close === 2 ? this.qualifyLike(src.name, info.name) : translateName(src.name);
      if (name === src.name || this.decls.some((d) => d.name === name)) continue;
      this.decls.push({
        ...src,
        name,
        args: src.args.map((x) => translateWords(x)),
        goal: translateWords(src.goal),
        statement: translateWords(src.statement),
        doc: info.doc,
        attrs: info.attrs.length ? info.attrs : undefined,
        refs: src.refs.map(translateName),
        origin: src.name,
      });
    }
  }

  private qualifyLike(src: string, name: string): string {
    if (name.startsWith('_root_.')) return name.slice(7);
    const dot = src.lastIndexOf('.');
    return dot < 0 ? name : `${translateNamespace(src.slice(0, dot))}.${name}`;
  }

  // ------------------------------------------------------------ declarations

  private currentNs(): string {
    let ns = '';
    for (const f of this.frames) if (f.kind === 'ns') ns = ns ? `${ns}.${f.name}` : f.name;
    return ns;
  }

  private qualify(raw: string): string {
    if (raw.startsWith('_root_.')) return raw.slice(7);
    const ns = this.currentNs();
    return ns ? `${ns}.${raw}` : raw;
  }

  private scope(full: string, pending: Prefix | null): Scope {
    const nss: string[] = [];
    const addPrefixes = (n: string): void => {
      let p = n;
      while (p) {
        if (!nss.includes(p)) nss.push(p);
        const d = p.lastIndexOf('.');
        p = d < 0 ? '' : p.slice(0, d);
      }
    };
    const dot = full.lastIndexOf('.');
    if (dot > 0) addPrefixes(full.slice(0, dot));
    addPrefixes(this.currentNs());
    const opens: string[] = [];
    for (const f of this.frames) for (const o of f.opens) if (!opens.includes(o)) opens.push(o);
    if (pending) for (const o of pending.opens) if (!opens.includes(o)) opens.push(o);
    const key = `${nss.join(',')}|${opens.join(',')}`;
    let sc = this.scopes.get(key);
    if (!sc) {
      sc = { namespaces: nss, opens };
      this.scopes.set(key, sc);
    }
    return sc;
  }

  private header(i: number, e: number, kind: DeclKind, inductiveLike: boolean, structLike: boolean): Header {
    const toks = this.toks;
    if (kind === 'instance' && toks[i]?.k === T.Open && toks[i].v === '(' && toks[i + 1]?.v === 'priority') {
      i = matchClose(toks, i, e) + 1;
    }
    let nameIdx = -1;
    if (i < e && toks[i].k === T.Id && !HEADER_STOP.has(toks[i].v)) {
      nameIdx = i++;
      if (i + 1 < e && toks[i].k === T.Op && toks[i].v === '.' && toks[i + 1].k === T.Open && toks[i + 1].v === '{') {
        i = matchClose(toks, i + 1, e) + 1;
      }
    }
    const run = readBinders(toks, i, e, {
      stop: (name) => HEADER_STOP.has(name),
      onUnbalanced: (t) => this.warn('unbalanced brackets in binder', t),
    });
    const args = run.binders;
    i = run.next;
    const parents: Array<[number, number]> = [];
    if (structLike && i < e && toks[i].k === T.Id && toks[i].v === 'extends') {
      let pa = i + 1;
      let depth = 0;
      let m = pa;
      for (; m < e; m++) {
        const t = toks[m];
        if (t.k === T.Open || t.k === T.Attr) depth++;
        else if (t.k === T.Close) depth = Math.max(0, depth - 1);
        else if (depth === 0) {
          if (t.k === T.Comma) {
            if (m > pa) parents.push([pa, m]);
            pa = m + 1;
          } else if (t.k === T.Colon && !(m === pa + 1 && toks[pa].k === T.Id)) break;
          else if (t.k === T.Assign || (t.k === T.Id && (t.v === 'where' || t.v === 'deriving'))) break;
        }
      }
      if (m > pa) parents.push([pa, m]);
      i = m;
    }
    let hasType = false;
    if (i < e && toks[i].k === T.Colon) {
      hasType = true;
      i++;
    }
    const term = this.terminator(i, e, inductiveLike);
    return { nameIdx, args, parents, goalA: i, goalB: hasType ? term : i, term };
  }

  /** End of the signature: depth-0 `:=`, `where`, match-arm `|`, `deriving`, … */
  private terminator(i: number, e: number, inductiveLike: boolean): number {
    const toks = this.toks;
    let depth = 0;
    for (let m = i; m < e; m++) {
      const t = toks[m];
      if (t.k === T.Open || t.k === T.Attr) depth++;
      else if (t.k === T.Close) depth = Math.max(0, depth - 1);
      else if (depth > 0) continue;
      else if (t.k === T.Assign) return m;
      else if (t.k === T.Id) {
        if (t.v === 'where') return m;
        if (t.nl && (t.v === 'deriving' || t.v === 'termination_by' || t.v === 'decreasing_by')) return m;
      } else if (t.k === T.Bar && (inductiveLike || (t.nl && this.arrowAhead(m + 1, e)))) return m;
    }
    return e;
  }

  private arrowAhead(a: number, e: number): boolean {
    let depth = 0;
    const limit = Math.min(e, a + 2000);
    for (let m = a; m < limit; m++) {
      const t = this.toks[m];
      if (t.k === T.Open || t.k === T.Attr) depth++;
      else if (t.k === T.Close) depth = Math.max(0, depth - 1);
      else if (depth === 0) {
        if (t.k === T.Op && (t.v === '=>' || t.v === '↦')) return true;
        if (t.k === T.Assign) return false;
      }
    }
    return false;
  }

  /** The docstring and attributes written before a declaration's keyword, in [s, kwIdx). */
  private modifiers(s: number, kwIdx: number): { doc?: string; attrs: AttrEntry[] } {
    const toks = this.toks;
    let doc: string | undefined;
    const attrs: AttrEntry[] = [];
    for (let m = s; m < kwIdx; m++) {
      const t = toks[m];
      if (t.k === T.Doc) doc = t.v.trim();
      else if (t.k === T.Attr) {
        const close = matchClose(toks, m, kwIdx);
        attrs.push(...parseAttrList(toks, m + 1, close));
        m = close;
      }
    }
    return { doc, attrs };
  }

  private decl(s: number, kwIdx: number, e: number, pending: Prefix | null): void {
    const toks = this.toks;
    const { doc, attrs } = this.modifiers(s, kwIdx);
    const kw = toks[kwIdx].v;
    let kind = DECL_KW[kw];
    let inductiveLike = kind === 'inductive';
    let structLike = kind === 'structure' || kind === 'class';
    let hdr = kwIdx + 1;
    if (kw === 'class' && toks[hdr]?.k === T.Id && (toks[hdr].v === 'inductive' || toks[hdr].v === 'abbrev')) {
      inductiveLike = toks[hdr].v === 'inductive';
      structLike = false;
      hdr++;
    }
    const h = this.header(hdr, e, kind, inductiveLike, structLike);
    const own = new Set<string>();
    for (const b of h.args) for (const n of b.names) own.add(n);
    // section variables used by the statement
    const mentionedList: string[] = [];
    for (const b of h.args) idsIn(toks, b.ra, b.rb, mentionedList);
    idsIn(toks, h.goalA, h.goalB, mentionedList);
    for (const [pa, pb] of h.parents) idsIn(toks, pa, pb, mentionedList);
    const mentioned = new Set(mentionedList.filter((n) => !own.has(n)));
    const vars = effectiveVars(this.allVars(pending));
    const includes: string[] = [];
    for (const f of this.frames) includes.push(...f.includes);
    if (pending) includes.push(...pending.includes);
    const args = [...selectVariables(vars, mentioned, includes), ...h.args];
    const bound = new Set(own);
    for (const v of vars) for (const n of v.names) bound.add(n);

    let short: string;
    if (h.nameIdx >= 0) short = toks[h.nameIdx].v;
    else if (kind === 'instance') short = instanceName(toks, h.goalA, h.goalB, bound);
    else {
      if (kw !== 'instance') this.warn(`${kw} without a name`, toks[kwIdx]);
      return;
    }
    const full = this.qualify(short);
    const scope = this.scope(full, pending);
    const body = h.term < e ? (toks[h.term].k === T.Bar ? h.term : h.term + 1) : e;
    let refs: string[] = [];
    if (!structLike && !inductiveLike) {
      boundInBody(toks, body, e, bound);
      refs = extractRefs(toks, body, e, bound, short);
    }
    const attrNames = attrs.map((a) => a.name);
    let stmtEnd = h.term;
    while (stmtEnd > kwIdx + 1 && toks[stmtEnd - 1].k === T.Doc) stmtEnd--;
    const goalEnd = Math.min(h.goalB, stmtEnd);
    const main: Proto = {
      name: full,
      short,
      kind,
      args,
      goal: { a: h.goalA, b: Math.max(h.goalA, goalEnd) },
      stmt: [{ a: kwIdx, b: stmtEnd, nameIdx: h.nameIdx }],
      doc,
      attrs: attrNames.length ? attrNames : undefined,
      refs,
      ra: s,
      rb: e,
    };
    const members: Proto[] = [];
    if (structLike) members.push(...this.structMembers(main, h, e));
    if (inductiveLike) members.push(...this.ctorMembers(main, h, e));
    const protos = [main, ...members, ...this.attrGenerated(main, attrs, structLike)];
    // @[to_additive]
    const ta = attrs.find((a) => isToAdditive(a.name));
    const out: ExtractedDecl[] = protos.map((p) => this.record(p, scope, false));
    if (ta) {
      const info = parseToAdditive(toks, ta);
      if (!info.existing) {
        const mainName = info.name !== undefined ? this.qualifyLike(full, info.name) : translateName(full);
        if (mainName !== full) {
          for (const p of [main, ...members]) {
            const isMain = p === main;
            const name = isMain ? mainName : `${mainName}.${translateComponent(p.name.slice(full.length + 1))}`;
            const twin: Proto = {
              ...p,
              name,
              short: isMain ? (info.name ?? translateName(short)) : p.short,
              doc: isMain ? info.doc : p.doc,
              attrs: isMain ? (info.attrs.length ? info.attrs : undefined) : p.attrs,
              refs: p.refs.map(translateName),
              origin: isMain ? full : p.origin !== undefined ? mainName : undefined,
            };
            out.push(this.record(twin, scope, true));
          }
        }
      }
    }
    this.decls.push(...out);
  }

  private selfBinder(main: Proto, inst: boolean): Binder {
    const params: string[] = [];
    for (const b of main.args) if (!b.inst) params.push(...b.names);
    const ty = [main.short, ...params].join(' ');
    return syntheticBinder(inst ? `[self : ${ty}]` : `(self : ${ty})`, ['self'], inst);
  }

  private structMembers(main: Proto, h: Header, e: number): Proto[] {
    const toks = this.toks;
    const out: Proto[] = [];
    const self = this.selfBinder(main, main.kind === 'class');
    const withSelf = [...main.args, self];
    for (const [pa, pb] of h.parents) {
      let name: string;
      let ga = pa;
      if (toks[pa].k === T.Id && toks[pa + 1]?.k === T.Colon && pa + 1 < pb) {
        name = toks[pa].v;
        ga = pa + 2;
      } else {
        const head = toks[pa].k === T.Id ? toks[pa].v : '';
        if (!head) continue;
        name = 'to' + head.slice(head.lastIndexOf('.') + 1);
      }
      out.push({
        name: `${main.name}.${name}`,
        short: name,
        kind: 'field',
        args: withSelf,
        goal: { a: ga, b: pb },
        stmt: [{ text: name }, { text: ':' }, { a: ga, b: pb }],
        refs: [],
        origin: main.name,
        ra: pa,
        rb: pb,
      });
    }
    let fields: Member[] = [];
    let ctorName: string | undefined;
    let ctorDoc: string | undefined;
    const termTok = toks[h.term];
    if (h.term < e && (termTok.k === T.Assign || (termTok.k === T.Id && termTok.v === 'where'))) {
      const fp = parseFields(toks, h.term + 1, untilDeriving(toks, h.term + 1, e));
      fields = fp.fields;
      ctorName = fp.ctorName;
      ctorDoc = fp.ctorDoc;
    }
    for (const f of fields) {
      out.push({
        name: `${main.name}.${f.name}`,
        short: f.name,
        kind: 'field',
        args: [...withSelf, ...f.binders],
        goal: { a: f.typeA, b: f.typeB },
        stmt: [{ text: f.name }, ...f.binders.map((b) => ({ text: renderBinder(b) })), { text: ':' }, { a: f.typeA, b: f.typeB }],
        doc: f.doc,
        refs: [],
        origin: main.name,
        ra: f.a,
        rb: f.b,
      });
    }
    const ctor = ctorName ?? 'mk';
    const fieldBinders: Binder[] = fields.map((f) => ({
      open: '(',
      close: ')',
      names: [f.name],
      ra: f.typeA - 1,
      rb: f.typeB,
      toks,
      inst: false,
      typeIds: [],
      untyped: false,
    }));
    const params: string[] = [];
    for (const b of main.args) if (!b.inst) params.push(...b.names);
    const goal = [main.short, ...params].join(' ');
    out.push({
      name: `${main.name}.${ctor}`,
      short: ctor,
      kind: 'constructor',
      args: [...main.args, ...fieldBinders],
      goal: { text: goal },
      stmt: [{ text: `${ctor} ::` }],
      doc: ctorDoc,
      refs: [],
      origin: main.name,
      ra: main.ra,
      rb: main.rb,
    });
    return out;
  }

  private ctorMembers(main: Proto, h: Header, e: number): Proto[] {
    const toks = this.toks;
    const params: string[] = [];
    for (const b of main.args) if (!b.inst) params.push(...b.names);
    const defGoal = [main.short, ...params].join(' ');
    return parseCtors(toks, h.term, untilDeriving(toks, h.term, e)).map((c) => ({
      name: `${main.name}.${c.name}`,
      short: c.name,
      kind: 'constructor' as const,
      args: [...main.args, ...c.binders],
      goal: c.typeB > c.typeA ? { a: c.typeA, b: c.typeB } : { text: defGoal },
      stmt: [{ a: c.nameIdx, b: c.typeB }],
      doc: c.doc,
      refs: [],
      origin: main.name,
      ra: c.a,
      rb: c.b,
    }));
  }

  /** `@[simps]`, `@[reassoc]`, `@[ext]` lemmas. */
  private attrGenerated(main: Proto, attrs: AttrEntry[], structLike: boolean): Proto[] {
    const out: Proto[] = [];
    const gen = (suffix: string, refs: string[]): void => {
      const name = main.name + suffix;
      const short = main.short + suffix;
      out.push({
        name,
        short,
        kind: 'theorem',
        args: main.args,
        goal: { text: '' },
        stmt: [{ text: `theorem ${short}` }],
        refs,
        origin: main.name,
        ra: main.ra,
        rb: main.rb,
      });
    };
    for (const a of attrs) {
      if (isSimps(a.name)) {
        let projs = parseSimps(this.toks, a);
        if (projs.length === 0) {
          const goal = main.goal.text ?? joinMapped(this.toks, main.goal.a, main.goal.b, plainTok);
          if (goal.includes('≃')) projs = ['apply', 'symm_apply'];
          else if (goal.includes('⥤')) projs = ['obj', 'map'];
          else if (goal.includes('≅')) projs = ['hom', 'inv'];
          else if (/→|↪/.test(goal)) projs = ['apply'];
        }
        for (const p of projs) gen(`_${p}`, []);
      } else if (a.name === 'reassoc') gen('_assoc', [main.name]);
      else if (a.name === 'ext') {
        if (structLike) {
          gen('.ext', []);
          gen('.ext_iff', []);
        } else if (main.kind === 'theorem' || main.kind === 'lemma') gen('_iff', [main.name]);
      }
    }
    return out;
  }

  /**
   * `export NS (a b)`: records named `a`, `b` whose statement starts with `export`
   * and whose origin is `NS.a`; the resolver redirects references through them and
   * drops them from its output.
   */
  private exportCommand(s: number, j: number, e: number, pending: Prefix | null): void {
    const toks = this.toks;
    let ns = '';
    for (let m = j + 1; m < e; m++) {
      const t = toks[m];
      if (t.k === T.Id) ns = t.v;
      else if (t.k === T.Open && t.v === '(' && ns) {
        const close = matchClose(toks, m, e);
        for (let x = m + 1; x < close; x++) {
          if (toks[x].k !== T.Id) continue;
          const short = toks[x].v;
          this.pushAlias(short, `export ${ns} (${short})`, { refs: [], origin: `${ns}.${short}` }, s, e, pending);
        }
        m = close;
        ns = '';
      }
    }
  }

  private alias(s: number, j: number, e: number, pending: Prefix | null): void {
    const toks = this.toks;
    const { doc, attrs: entries } = this.modifiers(s, j);
    const attrs = entries.map((x) => x.name);
    const names: number[] = [];
    let i = j + 1;
    if (toks[i]?.k === T.Open && i < e) {
      const close = matchClose(toks, i, e);
      for (let m = i + 1; m < close; m++) if (toks[m].k === T.Id && toks[m].v !== '_') names.push(m);
      i = close + 1;
    } else if (toks[i]?.k === T.Id && i < e) names.push(i++);
    if (toks[i]?.k !== T.Assign || toks[i + 1]?.k !== T.Id || i + 1 >= e) {
      this.warn('unparsed alias', toks[j]);
      return;
    }
    const target = toks[i + 1].v;
    for (const m of names) {
      const short = toks[m].v;
      this.pushAlias(short, `alias ${short} := ${target}`, { doc, attrs: attrs.length ? attrs : undefined, refs: [target], origin: target }, s, e, pending);
    }
  }

  /** A record that only names another declaration (`export`, `alias`): no binders, no goal; the resolver follows `origin`. */
  private pushAlias(short: string, stmt: string, extra: Pick<Proto, 'doc' | 'attrs' | 'refs' | 'origin'>, s: number, e: number, pending: Prefix | null): void {
    const full = this.qualify(short);
    const p: Proto = { name: full, short, kind: 'theorem', args: [], goal: { text: '' }, stmt: [{ text: stmt }], ...extra, ra: s, rb: e };
    this.decls.push(this.record(p, this.scope(full, pending), false));
  }

  // ----------------------------------------------------------------- output

  private piece(p: Piece, additive: boolean, short: string): string {
    if (p.text !== undefined) return additive ? translateWords(p.text) : p.text;
    if (p.b <= p.a) return '';
    const nameIdx = p.nameIdx ?? -1;
    return joinMapped(this.toks, p.a, p.b, (toks, i) =>
      i === nameIdx ? short : additive ? translateTok(toks, i) : plainTok(toks, i),
    );
  }

  private range(a: number, b: number): Range {
    const toks = this.toks;
    const first = toks[Math.min(a, toks.length - 1)];
    const last = toks[Math.max(Math.min(b, toks.length) - 1, 0)];
    return {
      start: offsetToPos(this.lineStarts, first ? first.s : 0),
      end: offsetToPos(this.lineStarts, last ? last.e : 0),
    };
  }

  private record(p: Proto, scope: Scope, additive: boolean): ExtractedDecl {
    const d: ExtractedDecl = {
      name: p.name,
      kind: p.kind,
      lang: 'lean',
      module: this.module,
      file: this.file,
      range: this.range(p.ra, p.rb),
      args: p.args.map((b) => renderBinder(b, additive)),
      goal: this.piece(p.goal, additive, p.short),
      statement: p.stmt.map((x) => this.piece(x, additive, p.short)).join(' '),
      refs: p.refs,
      scope,
    };
    if (p.doc) d.doc = p.doc;
    if (p.attrs) d.attrs = p.attrs;
    if (p.origin !== undefined) d.origin = p.origin;
    return d;
  }
}

/** Translate identifier-like words and symbols of plain text for an additive twin. */
function translateWords(text: string): string {
  const res = lex(text);
  return joinMapped(res.toks, 0, res.toks.length, translateTok);
}

export function extractLean(text: string, file: string, module: string): FileExtraction {
  let ex: Extractor | undefined;
  try {
    if (typeof text !== 'string') return { decls: [], warnings: [`${file}: input is not text`] };
    const { toks, lineStarts, warnings } = lex(text, file);
    ex = new Extractor(toks, lineStarts, file, module);
    ex.warnings.push(...warnings);
    ex.run();
    ex.finish();
    return { decls: ex.decls, warnings: ex.warnings };
  } catch (err) {
    const msg = `${file}: extraction failed: ${err instanceof Error ? err.message : String(err)}`;
    return { decls: ex?.decls ?? [], warnings: [...(ex?.warnings ?? []), msg] };
  }
}
