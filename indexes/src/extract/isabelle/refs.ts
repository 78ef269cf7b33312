/**
 * Fact references in Isabelle proofs: names after `using`/`from`/`with`/`unfolding`/
 * `note`, fact arguments of proof methods (`rule`, `metis`, `simp add:` …) and fact
 * arguments of attributes (`[OF a]`, `[THEN b]`). Local names (`have h:`, `case`,
 * `assumes h:`, …) are collected separately so callers can drop them.
 */
import { matchGroup } from '../brackets.js';
import type { Token } from './lexer.js';
import { DIAGNOSTIC_COMMANDS, PROOF_KEYWORDS, THEORY_COMMANDS } from './keywords.js';

const MAX_GROUP = 5000;
const MAX_DEPTH = 20;

/** Names that always denote local facts. */
const ALWAYS_LOCAL = new Set([
  'assms', 'this', 'that', 'calculation', 'IH', 'prems', 'hyps', 'thesis', 'local', 'premises',
  'asm', 'case', 'goal',
]);

/** Methods whose positional arguments are facts. */
const FACT_METHODS = new Set([
  'rule', 'erule', 'drule', 'frule', 'intro', 'elim', 'metis', 'meson', 'smt', 'fact', 'insert',
  'subst', 'unfold', 'fold', 'rules', 'iprover', 'OF', 'cut_rl', 'hypsubst_thin', 'simp_only',
  'rule\'', 'erule\'', 'drule\'', 'frule\'',
]);
/** `*_tac` methods: facts after `in`, or positional when there is no instantiation. */
const TAC_FACT_METHODS = new Set([
  'rule_tac', 'erule_tac', 'drule_tac', 'frule_tac', 'cut_tac', 'subst_tac', 'insert_tac',
]);
/** Method modifiers whose arguments are not facts. */
const NONFACT_MODIFIERS = new Set(['arbitrary', 'taking', 'del', 'set', 'type', 'pred', 'facts']);
/** Modifier prefixes that take a second word: `simp add:`, `intro del:` … */
const TWO_WORD_MODIFIERS = new Set(['simp', 'split', 'cong', 'intro', 'elim', 'dest', 'iff', 'rule']);
/** Attributes whose arguments are facts. */
const FACT_ATTRIBUTES = new Set(['OF', 'THEN', 'simplified', 'unfolded', 'folded', 'COMP', 'MRS', 'FIRST']);

/** Precede `name:` where name becomes a local fact. */
const LOCAL_PRECEDERS = new Set([
  'have', 'show', 'hence', 'thus', 'assume', 'presume', 'and', 'where', 'obtain', 'consider',
  'assumes', 'shows', 'obtains', 'defines', 'if', 'note', 'interpret', 'guess',
]);

const isSym = (t: Token | undefined, s: string): boolean => t !== undefined && t.kind === 'sym' && t.text === s;

function isKeyword(w: string): boolean {
  return PROOF_KEYWORDS.has(w) || THEORY_COMMANDS.has(w) || DIAGNOSTIC_COMMANDS.has(w);
}

/** Index of the bracket closing toks[i] (same bracket type), bounded by `to`; `to - 1` if unmatched. */
export function matchClose(toks: Token[], i: number, to: number): number {
  const open = toks[i]!.text;
  const close = open === '(' ? ')' : open === '[' ? ']' : '}';
  // groups in real theories are short; the cap keeps malformed input linear-ish
  return matchGroup(toks, i, Math.min(to, i + MAX_GROUP), (t) => isSym(t, open), (t) => isSym(t, close));
}

export interface LocalNames {
  /** Exact local fact names. */
  names: Set<string>;
  /** Case / interpretation names: `X` and `X.*` are local. */
  prefixes: Set<string>;
}

export function newLocals(): LocalNames {
  return { names: new Set(), prefixes: new Set() };
}

/** Collect names a proof (or statement header) binds locally. */
export function collectLocals(toks: Token[], from: number, to: number, into: LocalNames): void {
  for (let i = from; i < to; i++) {
    const t = toks[i]!;
    if (t.kind !== 'ident') continue;
    const w = t.text;
    if (w === 'case') {
      let j = i + 1;
      if (isSym(toks[j], '[')) j = matchClose(toks, j, to) + 1; // `case [simp]: True`
      if (isSym(toks[j], ':')) j++;
      const a = toks[j];
      if (a && (a.kind === 'ident' || a.kind === 'num') && isSym(toks[j + 1], ':')) {
        into.names.add(a.text);
        into.prefixes.add(a.text);
        j += 2;
      }
      const b = toks[j];
      if (isSym(b, '(')) {
        const c = toks[j + 1];
        if (c && (c.kind === 'ident' || c.kind === 'num')) into.prefixes.add(c.text);
      } else if (b && (b.kind === 'ident' || b.kind === 'num') && !isKeyword(b.text)) into.prefixes.add(b.text);
      continue;
    }
    if (w === 'define' || w === 'def') {
      for (let j = i + 1; j < to && j < i + 40; j++) {
        const u = toks[j]!;
        if (u.kind === 'ident') {
          if (isKeyword(u.text)) break;
          into.names.add(`${u.text}_def`);
          if (w === 'def') break;
        } else if (isSym(u, '::')) j++;
        else if (!(u.kind === 'sym' && u.text === ',')) break;
      }
      continue;
    }
    if (w === 'premises') {
      const a = toks[i + 1];
      if (a && a.kind === 'ident' && !isKeyword(a.text)) into.names.add(a.text);
      continue;
    }
    if (!LOCAL_PRECEDERS.has(w)) continue;
    const a = toks[i + 1];
    if (!a || a.kind !== 'ident' || isKeyword(a.text)) continue;
    let k = i + 2;
    if (isSym(toks[k], '[')) k = matchClose(toks, k, to) + 1;
    if (isSym(toks[k], ':')) {
      into.names.add(a.text);
      if (w === 'interpret') into.prefixes.add(a.text);
    } else if (w === 'note' && isSym(toks[k], '=')) into.names.add(a.text);
  }
}

/** Accumulates references in first-seen order, without duplicates. */
export class RefSink {
  readonly refs: string[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly locals: LocalNames) {}

  add(raw: string): void {
    let name = raw;
    if (name.startsWith('local.')) name = name.slice(6);
    if (!name || this.seen.has(name)) return;
    const c = name.charCodeAt(0);
    if (c === 95 /* _ */ || (c >= 48 && c <= 57)) return;
    if (ALWAYS_LOCAL.has(name) || this.locals.names.has(name)) return;
    const dot = name.indexOf('.');
    const head = dot < 0 ? name : name.slice(0, dot);
    if (this.locals.prefixes.has(head) || (dot >= 0 && ALWAYS_LOCAL.has(head))) return;
    if (isKeyword(name)) return;
    this.seen.add(name);
    this.refs.push(name);
  }
}

/** `foo(2)`, `foo(1-3)`, `foo(2,4)` selector contents between i and j (the parens). */
function isSelector(toks: Token[], i: number, j: number): boolean {
  if (j <= i + 1) return false;
  for (let k = i + 1; k < j; k++) {
    const t = toks[k]!;
    if (t.kind === 'num') continue;
    if (t.kind === 'sym' && (t.text === '-' || t.text === ',')) continue;
    return false;
  }
  return true;
}

/** After a fact name: skip selectors, read attribute groups. Returns the next index. */
function factSuffix(toks: Token[], i: number, to: number, sink: RefSink, depth = 0): number {
  for (;;) {
    const t = toks[i];
    if (i >= to || !t) return i;
    if (isSym(t, '(')) {
      const j = matchClose(toks, i, to);
      if (!isSelector(toks, i, j)) return i;
      i = j + 1;
    } else if (isSym(t, '[')) {
      const j = matchClose(toks, i, to);
      if (depth < MAX_DEPTH) attributeRefs(toks, i + 1, j, sink, depth + 1);
      i = j + 1;
    } else return i;
  }
}

/** Facts inside `[OF a b, THEN c, simplified d]` (between the brackets). */
export function attributeRefs(toks: Token[], from: number, to: number, sink: RefSink, depth = 0): void {
  let i = from;
  while (i < to) {
    const t = toks[i]!;
    if (t.kind === 'ident' && FACT_ATTRIBUTES.has(t.text)) {
      i++;
      while (i < to && !isSym(toks[i], ',')) {
        const u = toks[i]!;
        if (u.kind === 'ident') {
          sink.add(u.text);
          i = factSuffix(toks, i + 1, to, sink, depth);
        } else if (isSym(u, '(') || isSym(u, '[')) i = matchClose(toks, i, to) + 1;
        else i++;
      }
    } else {
      // skip this attribute up to the next top-level comma
      while (i < to && !isSym(toks[i], ',')) {
        if (isSym(toks[i], '(') || isSym(toks[i], '[')) i = matchClose(toks, i, to) + 1;
        else i++;
      }
    }
    i++; // the comma
  }
}

/** A fact list (`using a b(2) c[OF d] and ‹P›`); returns the index after it. */
export function factListRefs(toks: Token[], from: number, to: number, sink: RefSink): number {
  let i = from;
  while (i < to) {
    const t = toks[i]!;
    if (t.kind === 'ident') {
      if (isKeyword(t.text)) {
        if (t.text === 'and') {
          i++;
          continue;
        }
        return i;
      }
      sink.add(t.text);
      i = factSuffix(toks, i + 1, to, sink);
    } else if (t.kind === 'cart' || t.kind === 'alt') {
      i = factSuffix(toks, i + 1, to, sink);
    } else if (isSym(t, '[')) {
      // declaration attributes `note [[…]]`
      i = matchClose(toks, i, to) + 1;
    } else return i;
  }
  return i;
}

/** `ident:` / `ident!:` / `simp add:` modifier at i → [name, index after]. */
function modifierAt(toks: Token[], i: number): [string, number] | undefined {
  const a = toks[i]!;
  const b = toks[i + 1];
  if (isSym(b, ':')) return [a.text, i + 2];
  if (b && b.kind === 'sym' && (b.text === '!' || b.text === '?') && isSym(toks[i + 2], ':')) return [a.text, i + 3];
  if (
    TWO_WORD_MODIFIERS.has(a.text) &&
    b &&
    b.kind === 'ident' &&
    (b.text === 'add' || b.text === 'del' || b.text === 'only') &&
    isSym(toks[i + 2], ':')
  ) {
    return [b.text === 'del' ? 'del' : a.text, i + 3];
  }
  return undefined;
}

/** Arguments of method `m` starting at i; returns the index of the separator or `to`. */
function methodArgs(m: string, toks: Token[], from: number, to: number, sink: RefSink): number {
  let mode: 'fact' | 'tac' | 'none' = FACT_METHODS.has(m) ? 'fact' : TAC_FACT_METHODS.has(m) ? 'tac' : 'none';
  let pending: string[] = [];
  let afterFact = false;
  let i = from;
  while (i < to) {
    const t = toks[i]!;
    if (t.kind === 'sym') {
      if (t.text === ',' || t.text === ';' || t.text === '|') break;
      if (t.text === '(') {
        const j = matchClose(toks, i, to);
        i = j + 1; // selectors after facts and option groups like (no_types) alike
        continue;
      }
      if (t.text === '[') {
        const j = matchClose(toks, i, to);
        if (afterFact) attributeRefs(toks, i + 1, j, sink);
        i = j + 1;
        continue;
      }
      afterFact = false;
      i++;
      continue;
    }
    if (t.kind === 'ident') {
      const mod = modifierAt(toks, i);
      if (mod) {
        mode = NONFACT_MODIFIERS.has(mod[0]) ? 'none' : 'fact';
        pending = [];
        afterFact = false;
        i = mod[1];
        continue;
      }
      if (mode === 'tac' && t.text === 'in') {
        mode = 'fact';
        pending = [];
        afterFact = false;
        i++;
        continue;
      }
      if (mode === 'fact') {
        sink.add(t.text);
        afterFact = true;
      } else if (mode === 'tac') {
        if (!isSym(toks[i + 1], '=') && !isKeyword(t.text)) pending.push(t.text);
        afterFact = false;
      } else afterFact = false;
      i++;
      continue;
    }
    afterFact = t.kind === 'cart' || t.kind === 'alt' ? mode === 'fact' : false;
    i++;
  }
  if (mode === 'tac') for (const p of pending) sink.add(p);
  return i;
}

/** A method expression between from and to (inside its parentheses). */
export function methodRefs(toks: Token[], from: number, to: number, sink: RefSink, depth = 0): void {
  let i = from;
  while (i < to) {
    const t = toks[i]!;
    if (isSym(t, '(')) {
      const j = matchClose(toks, i, to);
      if (depth < MAX_DEPTH) methodRefs(toks, i + 1, j, sink, depth + 1);
      i = j + 1;
    } else if (isSym(t, '[')) {
      i = matchClose(toks, i, to) + 1;
    } else if (t.kind === 'ident') {
      i = methodArgs(t.text, toks, i + 1, to, sink);
      if (i < to) i++; // separator
    } else i++;
  }
}

/** Methods after `by`/`apply`/`proof`/`qed`; returns the index after them. */
function methodsAt(toks: Token[], from: number, to: number, max: number, sink: RefSink): number {
  let i = from;
  let count = 0;
  while (i < to && count < max) {
    const t = toks[i]!;
    if (isSym(t, '(')) {
      const j = matchClose(toks, i, to);
      methodRefs(toks, i + 1, j, sink);
      i = j + 1;
    } else if (t.kind === 'ident' && !isKeyword(t.text)) {
      i++;
    } else if (isSym(t, '-')) {
      i++;
    } else break;
    count++;
    // suffixes: + ? [n]
    while (i < to) {
      const u = toks[i]!;
      if (u.kind === 'sym' && (u.text === '+' || u.text === '?')) i++;
      else if (isSym(u, '[') && toks[i + 1]?.kind === 'num') i = matchClose(toks, i, to) + 1;
      else break;
    }
  }
  return i;
}

/** All references in a proof body (tokens from..to). */
export function proofRefs(toks: Token[], from: number, to: number, sink: RefSink): void {
  let i = from;
  while (i < to) {
    const t = toks[i]!;
    if (t.kind !== 'ident') {
      i++;
      continue;
    }
    switch (t.text) {
      case 'using':
      case 'unfolding':
      case 'from':
      case 'with':
      case 'supply':
        i = Math.max(i + 1, factListRefs(toks, i + 1, to, sink));
        break;
      case 'note': {
        let j = i + 1;
        const a = toks[j];
        if (a && a.kind === 'ident' && !isKeyword(a.text)) {
          let k = j + 1;
          if (isSym(toks[k], '[')) k = matchClose(toks, k, to) + 1;
          if (isSym(toks[k], '=')) j = k + 1;
        } else if (isSym(a, '[')) {
          const k = matchClose(toks, j, to) + 1;
          if (isSym(toks[k], '=')) j = k + 1;
        }
        i = Math.max(i + 1, factListRefs(toks, j, to, sink));
        break;
      }
      case 'by':
        i = Math.max(i + 1, methodsAt(toks, i + 1, to, 2, sink));
        break;
      case 'apply':
      case 'proof':
      case 'qed':
      case 'apply_end':
        i = Math.max(i + 1, methodsAt(toks, i + 1, to, 1, sink));
        break;
      default:
        i++;
    }
  }
}
