/**
 * The premise slot as a ranking signal: inside `rw [` only equations and iffs
 * can rewrite, and only one whose left side occurs in the goal; `exact` wants a
 * conclusion that is the goal; `apply` (Isabelle `rule`) one that is the goal once
 * its hypotheses are set aside. A light source-level matcher decides: the
 * premise's variables (binder names, single letters) match one token or one
 * bracketed group of the goal, the same variable the same text each time.
 */
import type { PremiseInfo } from '../../../indexes/src/store/premises.js';
import { binderToHyp } from '../../../indexes/src/extract/lean/signature.js';
import { splitIsabelleProp } from './query.js';

/** What a slot asks of a premise. */
export type SlotKind = 'rw' | 'simp' | 'exact' | 'apply' | 'rule' | 'using';
export const SLOT_KINDS: readonly SlotKind[] = ['rw', 'simp', 'exact', 'apply', 'rule', 'using'];

/** The tactics and methods (Lean and Isabelle) that name each slot kind: what `slotOf` accepts. */
export const SLOT_TACTICS: Readonly<Record<SlotKind, readonly string[]>> = {
  rw: ['rw', 'rwa', 'rewrite', 'erw', 'nth_rw', 'nth_rewrite', 'rw_mod_cast', 'simp_rw'],
  simp: ['simp', 'simpa', 'simp_all', 'dsimp', 'field_simp', 'norm_num', 'simp_arith', 'clarsimp', 'auto', 'force', 'fastforce', 'fastsimp', 'bestsimp', 'add'],
  exact: ['exact', 'exacts', 'exact_mod_cast', 'convert', 'fact'],
  apply: ['apply', 'refine', "refine'", 'apply_mod_cast', 'specialize'],
  rule: ['rule', 'erule', 'drule', 'frule', 'intro', 'elim', 'rule_tac', 'iprover', 'rules'],
  using: ['using', 'from', 'with', 'metis', 'meson', 'smt', 'blast'],
};
const KIND_OF = new Map<string, SlotKind>(SLOT_KINDS.flatMap((k) => SLOT_TACTICS[k].map((t) => [t, k] as const)));

/** A tactic or method as written (`nth_rw 2`, `simp only`, `simp add:`, `exact?`, `erule`…) → its slot kind. */
export function slotOf(tactic: string | undefined): SlotKind | undefined {
  const t = (tactic ?? '').trim().split(/[\s?!]/)[0]!.replace(/:$/, '');
  return KIND_OF.get(t);
}

/** What `slotOf` accepts, for error messages: each kind with its tactics. */
export function slotChoices(): string {
  return SLOT_KINDS.map((k) => `${k} (${SLOT_TACTICS[k].join(', ')})`).join('; ');
}

/** Kinds that rewrite by unfolding at best: demoted in `rw`/`simp` slots. */
const DEFINITIONS = new Set(['def', 'abbrev', 'structure', 'class', 'inductive', 'instance', 'definition', 'fun', 'primrec', 'datatype', 'record', 'type_synonym', 'opaque']);

type Tok = string;
const TOKEN = /[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)*|[0-9]+|:=|=>|->|<->|\S/gu;
const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}', '⟨': '⟩', '⦃': '⦄' };
const CLOSE = new Set(Object.values(OPEN));
/** A single letter with subscripts or primes: `x`, `x₁`, `α`, `f'` (π is a constant). */
const VAR = "[A-Za-zα-ορ-ωϕ][₀-₉ₐ-ₜᵢ-ᵪ'!?]*";
const SINGLE_VAR = new RegExp(`^${VAR}$`, 'u');

function tokens(s: string): Tok[] {
  return normalize(s.replace(/✝\d*/g, '').match(TOKEN) ?? []);
}

/** Binary operators Lean writes infix: precedence, and which operand may be at the same precedence unparenthesised. */
const INFIX = new Map<Tok, { prec: number; assoc: 'left' | 'right' | 'none' }>([
  ...(['=', '≠', '≤', '<', '≥', '>', '∈', '∉', '⊆', '⊂', '∣', '≍'] as const).map((t) => [t, { prec: 50, assoc: 'none' as const }] as const),
  ['≡', { prec: 50, assoc: 'none' }],
  ['↔', { prec: 20, assoc: 'none' }],
  ['→', { prec: 25, assoc: 'right' }],
  ['::', { prec: 67, assoc: 'right' }],
  ['∧', { prec: 35, assoc: 'right' }],
  ['∨', { prec: 30, assoc: 'right' }],
  ['+', { prec: 65, assoc: 'left' }],
  ['-', { prec: 65, assoc: 'left' }],
  ['++', { prec: 65, assoc: 'left' }],
  ['∪', { prec: 65, assoc: 'left' }],
  ['*', { prec: 70, assoc: 'left' }],
  ['/', { prec: 70, assoc: 'left' }],
  ['%', { prec: 70, assoc: 'left' }],
  ['∩', { prec: 70, assoc: 'left' }],
  ['\\', { prec: 70, assoc: 'left' }],
  ['•', { prec: 73, assoc: 'right' }],
  ['^', { prec: 75, assoc: 'right' }],
  ['∘', { prec: 90, assoc: 'right' }],
]);
/** An application's precedence; an atom's is higher still. */
const APP = 1023;
const ATOM = 1024;
/** Deeper nesting is left as written (each level is a stack frame). */
const INFIX_MAX_DEPTH = 256;

/**
 * A goal printed with `pp.notation false`, as `withNotation` writes it
 * (`= (* a b) (* b a)`; LeanHammer sends goals so), read as the printer writes it
 * with notation (`a * b = b * a`): parentheses only where precedence needs them.
 */
function infixed(ts: Tok[]): Tok[] {
  if (ts.length > UNWRAP_MAX_TOKENS || !ts.some((t, i) => INFIX.has(t) && (i === 0 || ts[i - 1] === '('))) return ts;
  return printed(ts, 0, ts.length, 0).toks;
}

interface Printed {
  toks: Tok[];
  prec: number;
}

/** Tokens [from, to) with every prefix operator application in them written infix. */
function printed(ts: Tok[], from: number, to: number, depth: number): Printed {
  const op = INFIX.get(ts[from]!);
  if (op && depth < INFIX_MAX_DEPTH) {
    const mid = groupEnd(ts, from + 1);
    if (from + 1 < to && mid < to && groupEnd(ts, mid) === to) {
      const need = (side: 'left' | 'right') => (op.assoc === side ? op.prec : op.prec + 1);
      const l = operand(ts, from + 1, mid, depth + 1);
      const r = operand(ts, mid, to, depth + 1);
      return { toks: [...parenthesised(l, need('left')), ts[from]!, ...parenthesised(r, need('right'))], prec: op.prec };
    }
  }
  const out: Tok[] = [];
  for (let i = from; i < to; ) {
    const end = Math.min(groupEnd(ts, i), to);
    const close = OPEN[ts[i]!];
    if (close && end - i >= 2 && ts[end - 1] === close && depth < INFIX_MAX_DEPTH) out.push(ts[i]!, ...printed(ts, i + 1, end - 1, depth + 1).toks, close);
    else out.push(...ts.slice(i, end));
    i = end;
  }
  return { toks: out, prec: to - from === 1 ? ATOM : APP };
}

/** An operand: a parenthesised group loses its parentheses (put back where precedence needs them), unless it binds (`fun`, `∀`…). */
function operand(ts: Tok[], from: number, to: number, depth: number): Printed {
  if (to - from > 2 && ts[from] === '(' && ts[to - 1] === ')' && !BINDERS.has(ts[from + 1]!)) return printed(ts, from + 1, to - 1, depth);
  return { toks: printed(ts, from, to, depth).toks, prec: ATOM };
}
const BINDERS = new Set(['fun', 'λ', '∀', '∃', '∃!', '∑', '∏', '⋃', '⋂', '⨆', '⨅', 'if', 'match', 'let', 'have', 'show']);

const parenthesised = (p: Printed, need: number): Tok[] => (p.prec >= need ? p.toks : ['(', ...p.toks, ')']);

/** Number types as Lean's notation writes them and as their names (`Nat` is `ℕ`). */
const NOTATION = new Map<string, Tok>([
  ['Nat', 'ℕ'],
  ['Int', 'ℤ'],
  ['Rat', 'ℚ'],
  ['Real', 'ℝ'],
  ['Complex', 'ℂ'],
  ['=>', '↦'],
]);

/** An Isabelle type annotation `(x::nat)`, `(xs :: 'a list)`: the variable alone. */
const ISA_ANNOTATION = /\(\s*([\p{L}_][\p{L}\p{N}_']*)\s*::[^()]*\)/gu;

/** A variable's field (`l.dedup`, `F.map`): the receiver is a single letter. */
const RECEIVER = new RegExp(`^(${VAR})\\.([\\p{L}_][^.]*)$`, 'u');

/**
 * Reads a pretty-printed proof state and a source statement alike: coercion arrows
 * go (`⇑f x`, `↑n`), a constant is read by its last name part (`OuterMeasure.ofFunction`
 * as the source inside its namespace writes `ofFunction`), a variable's field as an
 * application (`l.dedup` → `dedup l`), number types by their notation (`Nat` → `ℕ`),
 * prefix operators (`withNotation`'s `= (* a b) c`) written infix, and a parenthesised
 * application in function position loses its parentheses (the printer's `(comap f) m s` is `comap f m s`).
 */
function normalize(ts: Tok[]): Tok[] {
  const out: Tok[] = [];
  let parens = false;
  for (const t of ts) {
    if (t === '⇑' || t === '↑') continue;
    if (t === '(') parens = true;
    const named = NOTATION.get(t);
    if (named) {
      out.push(named);
      continue;
    }
    // only a name has a dot (a lone `.` is its own token)
    if (t.length < 2 || !t.includes('.')) {
      out.push(t);
      continue;
    }
    const field = RECEIVER.exec(t);
    if (field) out.push(field[2]!, field[1]!);
    else out.push(t.slice(t.lastIndexOf('.') + 1));
  }
  // prefix operators written infix first: `≤ (f (+ x 1)) 2` is not `(f …) 2` applied
  return parens && out.length <= UNWRAP_MAX_TOKENS ? unwrapHeads(infixed(out)) : infixed(out);
}

/**
 * Unwrapping is quadratic in the worst case; longer texts (Mathlib's longest
 * statements have a few hundred tokens, a hostile goal may have 10^5) keep their parentheses.
 */
const UNWRAP_MAX_TOKENS = 4096;

/** `( f a ) b` → `f a b`: parentheses around an application followed by an argument. */
function unwrapHeads(ts: Tok[]): Tok[] {
  // right to left: inner groups first, so `((f a) b) c` unwraps whole
  for (let i = ts.length - 1; i >= 0; i--) {
    if (ts[i] !== '(' || !/^[\p{L}_]/u.test(ts[i + 1] ?? '')) continue;
    const end = groupEnd(ts, i);
    if (!isAtom(ts[end])) continue;
    let plain = true;
    for (let j = i + 1; j < end - 1 && plain; j = groupEnd(ts, j)) plain = isAtom(ts[j]);
    if (plain) ts = [...ts.slice(0, i), ...ts.slice(i + 1, end - 1), ...ts.slice(end)];
  }
  return ts;
}

/** End (exclusive) of the bracketed group opening at i, or i + 1 for a single token. */
function groupEnd(ts: Tok[], i: number): number {
  const close = OPEN[ts[i]!];
  if (!close) return i + 1;
  let depth = 0;
  for (let j = i; j < ts.length; j++) {
    if (ts[j] === ts[i]) depth++;
    else if (ts[j] === close && --depth === 0) return j + 1;
  }
  return ts.length;
}

/** Top-level (depth 0) positions of a token, scanning from `from`; the scan stops once `most` are found. */
function topLevel(ts: Tok[], want: (t: Tok) => boolean, from = 0, most = Infinity): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = from; i < ts.length && out.length < most; i++) {
    const t = ts[i]!;
    if (OPEN[t]) depth++;
    else if (CLOSE.has(t)) depth--;
    else if (depth === 0 && want(t)) out.push(i);
  }
  return out;
}

/**
 * Drops leading `∀ x y, ` binders and hypotheses `A → …`: the conclusion's tokens.
 * Linear in the statement: each binder group is scanned once, to its comma.
 */
function conclusion(ts: Tok[]): { concl: Tok[]; bound: string[]; hyps: number } {
  const bound: string[] = [];
  let hyps = 0;
  let at = 0;
  for (;;) {
    if (ts[at] === '∀' || ts[at] === '⋀') {
      const comma = topLevel(ts, (t) => t === ',' || t === '.', at, 1)[0];
      if (comma === undefined) break;
      for (let i = at + 1; i < comma; i++) if (/^[\p{L}_]/u.test(ts[i]!)) bound.push(ts[i]!);
      at = comma + 1;
      continue;
    }
    const arrows = topLevel(ts, (t) => t === '→' || t === '⟹' || t === '->', at);
    if (!arrows.length) break;
    hyps += arrows.length;
    at = arrows[arrows.length - 1]! + 1;
  }
  return { concl: at ? ts.slice(at) : ts, bound, hyps };
}

/**
 * Work left for the current premise, in match steps and goal tokens scanned or
 * copied: however long or unbalanced the goal, one premise never costs more than
 * this (a hostile 50,000-character goal once took 1.4 s a search).
 */
let budget = 0;
export const MATCH_BUDGET = 20_000;

const isAtom = (t: Tok | undefined) => t !== undefined && (/^[\p{L}_0-9]/u.test(t) || !!OPEN[t]);

/** Ends of the applications `f a (b c)` starting at g, longest first (a variable stands for one). */
function applicationEnds(goal: Tok[], g: number): number[] {
  const ends: number[] = [];
  for (let e = g; isAtom(goal[e]) && budget > 0; ) {
    const end = groupEnd(goal, e);
    budget -= end - e;
    ends.push((e = end));
  }
  return ends.reverse();
}

/**
 * Pattern search only (`patternMatches`): a hole beside an infix operator of the
 * pattern also takes a run of tokens whose top-level operators bind tighter than
 * it (`_ ≤ _` matches `|a + b| ≤ |a| + |b|`); elsewhere it takes an application.
 */
let looseHoles = false;

/** Ends of the runs a hole at pattern position p may take from g, longest first. */
function holeEnds(goal: Tok[], g: number, pat: Tok[], p: number): number[] {
  const beside = [INFIX.get(pat[p - 1] ?? '')?.prec, INFIX.get(pat[p + 1] ?? '')?.prec].filter((x): x is number => x !== undefined);
  if (!beside.length) return applicationEnds(goal, g);
  const limit = Math.max(...beside);
  const ends: number[] = [];
  for (let e = g; e < goal.length && budget > 0; ) {
    const t = goal[e]!;
    if (CLOSE.has(t) || t === ',' || t === END) break;
    const op = INFIX.get(t)?.prec;
    if (op !== undefined && (op <= limit || e === g)) break;
    const end = groupEnd(goal, e);
    budget -= end - e;
    e = end;
    if (op === undefined) ends.push(e);
  }
  return ends.reverse();
}

/** `pat` (variables in `vars`) matches `goal` from `at`, pattern position `p`; returns the end, or -1. */
function matchAt(
  pat: Tok[],
  goal: Tok[],
  at: number,
  vars: Set<string>,
  p = 0,
  bind = new Map<string, string>(),
  accept?: (bind: ReadonlyMap<string, string>) => boolean,
): number {
  if (--budget < 0) return -1;
  let g = at;
  for (; p < pat.length; p++) {
    const t = pat[p]!;
    if (g >= goal.length) return -1;
    if (vars.has(t)) {
      const prev = bind.get(t);
      for (const end of looseHoles ? holeEnds(goal, g, pat, p) : applicationEnds(goal, g)) {
        // the tokens taken, and the bindings copied below: a pattern of many holes pays for its bindings
        if ((budget -= end - g + bind.size) < 0) return -1;
        const text = goal.slice(g, end).join(' ');
        if (prev !== undefined && prev !== text) continue;
        const next = new Map(bind).set(t, text);
        const r = matchAt(pat, goal, end, vars, p + 1, next, accept);
        if (r >= 0) return r;
      }
      return -1;
    } else if (t === goal[g]) g++;
    else return -1;
  }
  // a complete match the caller refuses (goalMatcher: not a renaming) sends the search back to the next binding
  if (accept && !accept(bind)) return -1;
  lastBind = bind;
  return g;
}

/** The variables' texts of the last match that succeeded (`matchAt` ends there only on success). */
let lastBind: Map<string, string> | undefined;

/** Whether `pat` matches a contiguous subterm of the goal (or, `whole`, all of it). */
function matches(pat: Tok[], { toks: goal, ended }: Goal, vars: Set<string>, whole = false): boolean {
  if (!pat.length) return false;
  if (whole) return matchAt([...pat, END], ended, 0, vars) === ended.length;
  // a bare variable matches anything: no evidence
  if (pat.every((t) => vars.has(t) || OPEN[t] || CLOSE.has(t))) return false;
  // a constant first token can only match where the goal has it
  const first = vars.has(pat[0]!) ? undefined : pat[0];
  for (let i = 0; i < goal.length && budget > 0; i++) if ((first === undefined || goal[i] === first) && matchAt(pat, goal, i, vars) >= 0) return true;
  return false;
}

/** Share of the pattern's constants that occur in the goal. */
function overlap(pat: Tok[], goal: Goal, vars: Set<string>): number {
  const consts = new Set(pat.filter((t) => !vars.has(t) && !OPEN[t] && !CLOSE.has(t) && t !== ','));
  if (!consts.size) return 0;
  let n = 0;
  for (const c of consts) if (goal.set.has(c)) n++;
  return n / consts.size;
}

/**
 * Without the parentheses around the whole side, however deeply nested, in one
 * pass (peeling a layer at a time was quadratic: `((((x))))` of 10^5 characters).
 * A layer goes when its `(` closes at the side's last token or never closes.
 */
function strip(ts: Tok[]): Tok[] {
  if (ts[0] !== '(') return ts;
  const close = new Int32Array(ts.length).fill(-1);
  const open: number[] = [];
  for (let k = 0; k < ts.length; k++) {
    if (ts[k] === '(') open.push(k);
    else if (ts[k] === ')' && open.length) close[open.pop()!] = k;
  }
  let i = 0;
  let j = ts.length;
  while (j - i > 2 && ts[i] === '(' && (close[i] === -1 || close[i]! >= j - 1)) {
    i++;
    j--;
  }
  return i ? ts.slice(i, j) : ts;
}

/**
 * When the tactic is not known (a proof state with no slot at the cursor, a
 * benchmark step), the premise wanted most often acts on the goal as it stands:
 * it rewrites a subterm of it, or it is the goal once its hypotheses are set
 * aside. Its fit is the better of those two readings.
 */
export const UNKNOWN_SLOT: readonly SlotKind[] = ['rw', 'apply'];

/** What the matcher reads of a premise (`lang`: Isabelle facts are read with their type annotations and `xs`-style variables). */
type FitPremise = Pick<PremiseInfo, 'kind' | 'args' | 'goal' | 'statement'> & Partial<Pick<PremiseInfo, 'lang'>>;

/**
 * How well a premise fits the slot, in [-1, 1]: 1 for a structural fit (a rewrite
 * whose left side occurs in the goal; a conclusion that is the goal), partial
 * credit for the right shape with shared constants, −0.5 for definitions in
 * rewriting slots, 0 when nothing is known. Several slots (`UNKNOWN_SLOT`): the
 * best fit of any, the premise read once.
 */
export function slotFit(slots: SlotKind | readonly SlotKind[], goalText: string, p: FitPremise): number {
  return slotFitter(slots, goalText)(p);
}

/** `slotFit` for one goal and many premises: the goal is read once (a search fits up to 50 premises to it). */
export function slotFitter(slots: SlotKind | readonly SlotKind[], goalText: string): (p: FitPremise) => number {
  const toks = strip(tokens(goalText));
  const goal: Goal = { toks, ended: [...toks, END], set: new Set(toks) };
  const kinds = typeof slots === 'string' ? [slots] : slots;
  return (p) => fitPremise(kinds, goal, p);
}

/** The goal as every premise is matched against it: its tokens, the same with an end marker, their set. */
export interface Goal {
  toks: Tok[];
  ended: Tok[];
  set: Set<Tok>;
}
const END = '⊣';

/**
 * What the matcher reads of a premise, whatever the goal: its conclusion's tokens
 * without outer parentheses, the two sides of its top-level `=`/`↔` (when it has
 * one), how many hypotheses, its variables.
 */
interface Reading {
  kind: string;
  concl: Tok[];
  sides?: { lhs: Tok[]; rhs: Tok[] };
  hyps: number;
  vars: Set<string>;
  /** Whether a binder is a hypothesis (`(h : a ≤ b)`, an Isabelle `assumes`), not a variable or an instance. */
  hypArgs: boolean;
  /** Whether the conclusion has SPECIFIC_CONSTANTS constants beyond relations and connectives (`a * c ≤ b * d`, not `a = b` or `IsCompact s`). */
  specific: boolean;
  /** How many (`constants`). */
  constants: number;
  /** An Isabelle fact with assumptions: them, `;`-separated, then `⟹` and the conclusion. */
  statement?: Tok[];
}

/** Readings of the records the premise table keeps (the same object while kept; see PremiseTable.get). */
const readings = new WeakMap<FitPremise, Reading>();

function readPremise(p: FitPremise): Reading {
  let r = readings.get(p);
  if (r) return r;
  const vars = new Set<string>();
  for (const a of p.args) {
    const h = binderToHyp(a);
    const m = /^([^:]*?)\s:\s/.exec(h);
    if (m) for (const n of m[1]!.split(/\s+/)) if (n) vars.add(n);
  }
  const isabelle = p.lang === 'isabelle';
  const text = p.goal || p.statement;
  const { concl: written, bound, hyps } = conclusion(tokens(isabelle ? text.replace(ISA_ANNOTATION, '$1') : text));
  const concl = infixRelation(written);
  for (const b of bound) vars.add(b);
  for (const t of concl) if (SINGLE_VAR.test(t) || (isabelle && ISA_VAR.test(t))) vars.add(t);
  const eq = topLevel(concl, (t) => t === '=' || t === '↔' || t === '<->', 0, 1)[0];
  const sides = eq === undefined ? undefined : { lhs: strip(concl.slice(0, eq)), rhs: strip(concl.slice(eq + 1)) };
  const hypArgs = p.args.some((a) => isHypothesis(a, isabelle));
  const nConstants = constants(concl, vars);
  let statement: Tok[] | undefined;
  if (isabelle && (hyps || hypArgs)) {
    // assumptions in order (`assumes`, then `⟦…⟧ ⟹`), then the conclusion
    const prop = splitIsabelleProp(text.replace(ISA_ANNOTATION, '$1'));
    const assumptions = [...p.args.filter((a) => isHypothesis(a, true)).map((a) => a.replace(ISA_ANNOTATION, '$1')), ...prop.hyps];
    statement = tokens(`${assumptions.join(' ; ')} ⟹ ${prop.goal}`);
    for (const t of statement) if (SINGLE_VAR.test(t) || ISA_VAR.test(t)) vars.add(t);
  }
  r = { kind: p.kind, concl: strip(concl), sides, hyps, vars, hypArgs, specific: nConstants >= SPECIFIC_CONSTANTS, constants: nConstants, statement };
  if (Object.isFrozen(p)) readings.set(p, r);
  return r;
}

/** An Isabelle fact's free variables beyond single letters: `xs`, `ys`, `x1`, `As`. */
const ISA_VAR = /^[A-Za-z](?:s|[0-9]+)?'*$/;

/**
 * Constants (occurrences) a conclusion needs for the goal match: with fewer (`a = b`,
 * `IsCompact s`, `0 < a`, `FG S`, a namespace read away) it fits every goal of its
 * shape or head, which says little about this one. On the Mathlib premise-retrieval
 * statements, one constant lifted ten `IsCompact _` lemmas above the gold premises.
 */
const SPECIFIC_CONSTANTS = 2;
/**
 * Share of the goal's constants an `apply` fit's conclusion must have itself: its
 * variables may stand for little of the goal (`div_pos`'s `0 < a / b` for `0 < 1 / gcd`
 * moved the gold `one_div_pos` from first to fourth on a LeanDojo step).
 */
const APPLY_COVERAGE = 0.75;
/** A single letter (`𝕜`, `ι`, `F`; not `ℕ`, `ℝ`…) is a variable the section declared, not a constant saying what the goal is. */
const LETTER = /^(?![ℕℤℚℝℂ])\p{L}[₀-₉ₐ-ₜᵢ-ᵪ']*$/u;

/** The constants of a conclusion that say what it is about: not variables, relations, single letters or type ascriptions (`(s : Set α)`). */
function constants(concl: Tok[], vars: Set<string>): number {
  let n = 0;
  // per open group: whether its `:` has been passed (a type follows)
  const typed: boolean[] = [];
  for (const t of concl) {
    if (OPEN[t]) typed.push(false);
    else if (CLOSE.has(t)) typed.pop();
    else if (t === ':' && typed.length) typed[typed.length - 1] = true;
    else if (!typed.includes(true) && !vars.has(t) && !LOGICAL.has(t) && !LETTER.test(t)) n++;
  }
  return n;
}

/** Relations, connectives and quantifiers: a conclusion made of these and variables alone (`a = b`) fits any goal of its shape. */
const LOGICAL = new Set(['=', '≠', '<', '≤', '>', '≥', '↔', '<->', '∣', '∈', '∉', '⊆', '⊂', '∧', '∨', '¬', '→', '->', '⟹', '∀', '∃', '≍', ',', '.', ':', 'True', 'False']);

/**
 * A binder that is a hypothesis: an Isabelle assumption (not `x :: τ`), a Lean
 * binder (not an instance `[…]`) named like one (`h`, `hx`, `h₁`) or whose type
 * states a relation (`(n_pos : 0 < n)`).
 */
function isHypothesis(binder: string, isabelle: boolean): boolean {
  if (isabelle) return !/^\s*[\p{L}_][\p{L}\p{N}_']*\s*::/u.test(binder);
  if (binder.trim().startsWith('[')) return false;
  const m = /^([^:]*?)\s:\s([^]*)$/.exec(binderToHyp(binder));
  if (!m) return false;
  if (m[1]!.split(/\s+/).some((n) => /^[hH](?:[^a-z]|$|[a-z]{1,3}[^a-z]*$)/u.test(n))) return true;
  return tokens(m[2]!).some((t) => LOGICAL.has(t) && t !== '→' && t !== '->' && t !== ',' && t !== ':' && t !== '.');
}

/** How a premise's conclusion meets the goal as it stands (`goalMatcher`). */
export const GOAL_EXACT = 2;
export const GOAL_APPLY = 1;

/** A binding of pattern variables that only renames: each to one token of the goal, no two to the same. */
function isRenaming(bind: ReadonlyMap<string, string>): boolean {
  const seen = new Set<string>();
  for (const text of bind.values()) {
    if (text.includes(' ') || seen.has(text)) return false;
    seen.add(text);
  }
  return true;
}

/**
 * The goal a premise is matched against: without its leading `∀ x,` binders (a
 * premise states them as its own binders), and for an Isabelle goal without its
 * `⋀x.` binders and `⟦A; B⟧ ⟹` assumptions.
 */
function goalConclusion(ts: Tok[]): Tok[] {
  if (ts[0] === '⋀' || ts.includes('⟹')) return conclusion(ts).concl;
  let at = 0;
  while (ts[at] === '∀') {
    const comma = topLevel(ts, (t) => t === ',', at, 1)[0];
    if (comma === undefined) break;
    at = comma + 1;
  }
  return at ? ts.slice(at) : ts;
}

/**
 * The goal-match signal, for one goal and many premises: GOAL_EXACT for a premise
 * whose conclusion is the goal up to renaming its own binders (each to one token
 * of the goal, no two to the same), with no hypotheses (`exact my_lemma x y`
 * closes it); GOAL_APPLY for one whose conclusion matches the goal with its
 * binders as pattern variables once its hypotheses are set aside (`apply`), when
 * its constants are APPLY_COVERAGE of the goal's; 0 otherwise, for definitions, and
 * for conclusions with fewer than SPECIFIC_CONSTANTS constants beyond relations
 * (`le_antisymm`'s `a = b` fits every equation). An Isabelle fact with assumptions
 * is GOAL_EXACT when its assumptions and conclusion match the goal's (`goalHyps`),
 * else 0: Isabelle takes no `apply` fit. Read as the slot matcher reads
 * (`ℕ` = `Nat`, coercion arrows dropped, constants by their last name part).
 */
export function goalMatcher(goalText: string, goalHyps: readonly string[] = [], locals: Iterable<string> = []): (p: FitPremise) => number {
  const toks = strip(goalConclusion(tokens(goalText)));
  const goal: Goal = { toks, ended: [...toks, END], set: new Set(toks) };
  // the state's own variables (`ad bd : α`) are not constants of the goal
  const goalConstants = constants(toks, new Set(locals));
  // an Isabelle goal's assumptions and conclusion, as a fact with assumptions is matched against them
  const assumed = goalHyps.length ? [...tokens(goalHyps.join(' ; ')), '⟹', ...toks, END] : undefined;
  return (p) => {
    if (!toks.length || DEFINITIONS.has(p.kind)) return 0;
    budget = MATCH_BUDGET;
    const r = readPremise(p);
    if (!r.concl.length) return 0;
    if (!r.specific) return 0;
    const renaming = matchAt([...r.concl, END], goal.ended, 0, r.vars, 0, new Map(), isRenaming) === goal.ended.length;
    if (renaming && !r.hyps && !r.hypArgs) return GOAL_EXACT;
    if (p.lang === 'isabelle') {
      // `⟦A; B⟧ ⟹ C` states the goal `⟦A'; B'⟧ ⟹ C'` when all of it matches, renamed
      return r.statement && assumed && matchAt([...r.statement, END], assumed, 0, r.vars, 0, new Map(), isRenaming) === assumed.length ? GOAL_EXACT : 0;
    }
    if (r.constants < APPLY_COVERAGE * goalConstants) return 0;
    if (renaming) return GOAL_APPLY;
    // the same budget: one premise costs one whatever the goal
    return matches(r.concl, goal, r.vars, true) ? GOAL_APPLY : 0;
  };
}

/**
 * A premise's conclusion up to renaming its variables (`a * b = b * a` and
 * `x * y = y * x` alike), with how many hypotheses it has: the goal match lifts one
 * premise per key (twins in sibling theories state the same fact).
 */
export function conclusionKey(p: FitPremise): string {
  const r = readPremise(p);
  const names = new Map<string, string>();
  const canon = r.concl.map((t) => (r.vars.has(t) ? (names.get(t) ?? (names.set(t, `#${names.size}`), `#${names.size - 1}`)) : t));
  return `${r.hyps || r.hypArgs ? 'h' : ''}:${canon.join(' ')}`;
}

function fitPremise(kinds: readonly SlotKind[], goal: Goal, p: FitPremise): number {
  budget = MATCH_BUDGET;
  if (!goal.toks.length) return kinds.some((k) => isRewriting(k)) && DEFINITIONS.has(p.kind) ? -0.5 : 0;
  const premise = readPremise(p);
  return kinds.length ? Math.max(...kinds.map((k) => fitOne(k, goal, premise))) : 0;
}

/**
 * A relation applied as a function, as Lean core's Prelude writes it (`Eq (f a₁) (f a₂)`,
 * `@Eq α a b`, `Iff a b`), → the infix the printer shows (`f a₁ = f a₂`); other conclusions unchanged.
 */
function infixRelation(ts: Tok[]): Tok[] {
  const explicit = ts[0] === '@';
  const head = ts[explicit ? 1 : 0];
  if (head !== 'Eq' && head !== 'Iff') return ts;
  let at = explicit ? 2 : 1;
  if (explicit && head === 'Eq') at = groupEnd(ts, at); // the type argument
  const mid = groupEnd(ts, at);
  if (at >= ts.length || mid >= ts.length || groupEnd(ts, mid) !== ts.length) return ts;
  return [...ts.slice(at, mid), head === 'Eq' ? '=' : '↔', ...ts.slice(mid)];
}

const isRewriting = (slot: SlotKind) => slot === 'rw' || slot === 'simp';

function fitOne(slot: SlotKind, goal: Goal, p: Reading): number {
  const { concl, sides, hyps, vars } = p;
  if (isRewriting(slot)) {
    if (DEFINITIONS.has(p.kind)) return -0.5;
    if (!sides) {
      // simp also uses `p` as `p = True`
      return slot === 'simp' && matches(concl, goal, vars) ? 0.5 : 0;
    }
    const { lhs, rhs } = sides;
    if (matches(lhs, goal, vars)) return 1;
    if (matches(rhs, goal, vars)) return slot === 'rw' ? 0.6 : 0.3;
    return 0.4 * Math.max(overlap(lhs, goal, vars), 0.5 * overlap(rhs, goal, vars));
  }
  if (matches(concl, goal, vars, true)) return slot === 'exact' && hyps > 0 ? 0.8 : 1;
  if (slot === 'using') return 0.3 * overlap(concl, goal, vars);
  return 0.4 * overlap(concl, goal, vars);
}

/**
 * Pattern search (pattern.ts) uses this matcher the other way round: the query is
 * the pattern (its holes `_` and `?a` are the variables) and a premise's statement
 * the text searched. A hole matches one token, one bracketed group or an
 * application, a repeated `?a` the same text each time; notation and coercions as
 * written (with the few prefix notations of `PATTERN_NOTATION` read as their function).
 */
export interface TermPattern {
  toks: Tok[];
  vars: Set<string>;
}

/** Prefix notations read as the function they stand for, in patterns and in the texts they are matched against. */
const PATTERN_NOTATION: Readonly<Record<string, string>> = { '√': 'sqrt', "∑'": 'tsum', "∏'": 'tprod' };
const HOLE = /(?<![\p{L}\p{N}_'.?])_(?![\p{L}\p{N}_'])/gu;
const NAMED_HOLE = /\?([\p{L}_][\p{L}\p{N}_']*)/gu;
/** Variables of a read pattern: identifiers no statement writes. */
const HOLE_MARK = 'ᵖ';

/** A term as the pattern matcher reads it: tokens, `->` as `→`, the notations above as their functions. */
export function patternTokens(text: string): Tok[] {
  const ts = tokens(text.replace(/∑'/g, ' tsum ').replace(/∏'/g, ' tprod ').replace(/√/g, ' sqrt '));
  for (let i = 0; i < ts.length; i++) {
    if (ts[i] === '->') ts[i] = '→';
    else if (ts[i] === '<->') ts[i] = '↔';
    else ts[i] = PATTERN_NOTATION[ts[i]!] ?? ts[i]!;
  }
  return ts.length <= UNWRAP_MAX_TOKENS ? dropRedundantParens(binderNotation(ts)) : ts;
}

/** The big operators whose binder notation (`∑' x, f x`) is read as the function applied to its body (`tsum (f x)`), and their precedence. */
const BIG_OPERATORS: Readonly<Record<string, number>> = { tsum: 67, tprod: 67 };

/** `tsum x , body` → `tsum ( body )`, the body running to the first top-level operator looser than the notation. */
function binderNotation(ts: Tok[]): Tok[] {
  for (let i = ts.length - 2; i >= 0; i--) {
    const prec = BIG_OPERATORS[ts[i]!];
    if (prec === undefined) continue;
    // the binders: names and bracketed groups up to a top-level comma
    let comma = -1;
    for (let j = i + 1; j < ts.length && j < i + 40; j = groupEnd(ts, j)) {
      if (ts[j] === ',') {
        comma = j;
        break;
      }
      if (!isAtom(ts[j]) && ts[j] !== ':') break;
    }
    if (comma <= i + 1) continue;
    let end = comma + 1;
    while (end < ts.length) {
      const t = ts[end]!;
      const op = INFIX.get(t)?.prec;
      if (CLOSE.has(t) || t === ',' || (op !== undefined && op < prec && end > comma + 1)) break;
      end = groupEnd(ts, end);
    }
    ts = [...ts.slice(0, i + 1), '(', ...ts.slice(comma + 1, end), ')', ...ts.slice(end)];
  }
  return ts;
}


/**
 * Parentheses the precedences make redundant go (`a * (b ^ n)` reads as `a * b ^ n`),
 * in patterns and statements alike, so a pattern matches however the source
 * bracketed: a group goes when its loosest top-level operator binds tighter than
 * the operators on either side of it (an application beside it keeps it).
 */
function dropRedundantParens(ts: Tok[]): Tok[] {
  for (let i = ts.length - 1; i >= 0; i--) {
    if (ts[i] !== '(') continue;
    const end = groupEnd(ts, i);
    if (ts[end - 1] !== ')') continue;
    let inner = Infinity;
    let depth = 0;
    for (let j = i + 1; j < end - 1; j++) {
      const t = ts[j]!;
      if (OPEN[t]) depth++;
      else if (CLOSE.has(t)) depth--;
      else if (depth === 0) {
        const p = INFIX.get(t)?.prec;
        if (p !== undefined) inner = Math.min(inner, p);
        else if (!isAtom(t)) inner = -1;
      }
    }
    if (inner === Infinity || inner < 0) continue;
    const before = ts[i - 1];
    const after = ts[end];
    // an opening bracket or the text's start before it, a closing one or the end after it: nothing binds
    const b = before === undefined || OPEN[before] || before === ',' ? -1 : INFIX.get(before)?.prec;
    const a = after === undefined || CLOSE.has(after) || after === ',' ? -1 : INFIX.get(after)?.prec;
    if (b === undefined || a === undefined || b >= inner || a >= inner) continue;
    ts = [...ts.slice(0, i), ...ts.slice(i + 1, end - 1), ...ts.slice(end)];
  }
  return ts;
}

/** Holes read so far: each `_` of any pattern is its own variable, never another pattern's. */
let holes = 0;

/** A pattern's text → its tokens and variables: each `_` a fresh one, `?a` the same one wherever it occurs. */
export function readTermPattern(text: string): TermPattern {
  const marked = text.replace(NAMED_HOLE, (_m, v: string) => `${HOLE_MARK}${v}`).replace(HOLE, () => `${HOLE_MARK}_${++holes}`);
  const toks = strip(patternTokens(marked));
  return { toks, vars: new Set(toks.filter((t) => t.startsWith(HOLE_MARK))) };
}

/** A text read once for matching many patterns against it. */
export function patternTarget(text: string): Goal {
  const toks = strip(patternTokens(text));
  return { toks, ended: [...toks, END], set: new Set(toks) };
}

/**
 * Whether the pattern matches a subterm of the text (`whole`: all of it); bounded
 * by `steps` of the matcher's work (default: one premise's budget; what is left
 * after it: `stepsLeft()`).
 */
export function patternMatches(pat: TermPattern, target: Goal, whole = false, steps = MATCH_BUDGET): boolean {
  budget = steps;
  if (!pat.toks.length) return false;
  if (whole && pat.toks.length === 1 && pat.vars.has(pat.toks[0]!)) return true;
  looseHoles = true;
  try {
    return matches(pat.toks, target, pat.vars, whole);
  } finally {
    looseHoles = false;
  }
}

/**
 * Whether the pattern matches all of the text with the variables already bound in
 * `bind` (a conclusion pattern's parts share their `?a`); the bindings after it, or undefined.
 */
export function patternBinds(pat: TermPattern, target: Goal, bind: ReadonlyMap<string, string>, steps = MATCH_BUDGET): Map<string, string> | undefined {
  budget = steps;
  if (!pat.toks.length) return undefined;
  if (pat.toks.length === 1 && pat.vars.has(pat.toks[0]!)) {
    const v = pat.toks[0]!;
    const text = target.toks.join(' ');
    const prev = bind.get(v);
    return prev === undefined || prev === text ? new Map(bind).set(v, text) : undefined;
  }
  looseHoles = true;
  lastBind = undefined;
  try {
    const end = matchAt([...pat.toks, END], target.ended, 0, pat.vars, 0, new Map(bind));
    return end === target.ended.length ? lastBind : undefined;
  } finally {
    looseHoles = false;
  }
}

/** The matcher's steps left after the last `patternMatches` or `patternBinds` (0 when it ran out). */
export const stepsLeft = (): number => Math.max(0, budget);

/** A statement's conclusion and hypotheses (leading `∀`s and `A →`s taken off), as tokens joined back into texts. */
export function splitConclusion(text: string): { concl: string; hyps: string[] } {
  const ts = patternTokens(text);
  const { concl } = conclusion(ts);
  const head = ts.slice(0, ts.length - concl.length);
  const hyps: string[] = [];
  let at = 0;
  for (const a of topLevel(head, (t) => t === '→' || t === '⟹', 0)) {
    const part = head.slice(at, a);
    // a leading `∀ x,` belongs to the binder, not to the hypothesis
    const comma = part[0] === '∀' ? topLevel(part, (t) => t === ',', 0, 1)[0] : undefined;
    hyps.push((comma === undefined ? part : part.slice(comma + 1)).join(' '));
    at = a + 1;
  }
  return { concl: concl.join(' '), hyps };
}

/** The top-level `→`-separated parts of a pattern (as written): hypotheses, then the conclusion (last). */
export function arrowParts(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (OPEN[c]) depth++;
    else if (CLOSE.has(c)) depth--;
    else if (depth === 0 && (c === '→' || (c === '-' && text[i + 1] === '>' && text[i - 1] !== '<'))) {
      out.push(text.slice(at, i).trim());
      at = c === '→' ? i + 1 : i + 2;
    }
  }
  out.push(text.slice(at).trim());
  return out;
}

/**
 * The arguments that make a premise's conclusion the goal: each of `vars` (the
 * premise's explicit binder names) bound to the goal's text it matches, or absent
 * when the conclusion leaves it open (a hypothesis); undefined when the conclusion
 * does not match the whole goal. Bounded by one matcher budget. Used to write
 * `exact add_comm a b` for `a + b = b + a` (lsp/trials/candidates.ts).
 */
export function instantiateArgs(conclusion: string, vars: readonly string[], goal: string): Map<string, string> | undefined {
  if (vars.length === 0) return undefined;
  const names = new Set(vars.filter((v) => /^[\p{L}_][\p{L}\p{N}_'!?]*$/u.test(v)));
  if (names.size === 0) return undefined;
  const marked = conclusion.replace(/[\p{L}_][\p{L}\p{N}_'!?.]*/gu, (w) => (names.has(w) ? `?${w}` : w));
  const bound = patternBinds(readTermPattern(marked), patternTarget(goal), new Map());
  if (!bound) return undefined;
  const out = new Map<string, string>();
  for (const v of names) {
    const text = bound.get(HOLE_MARK + v);
    if (text !== undefined) out.set(v, text);
  }
  return out;
}
