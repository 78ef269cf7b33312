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

/** A variable's field (`l.dedup`, `F.map`): the receiver is a single letter. */
const RECEIVER = new RegExp(`^(${VAR})\\.([\\p{L}_][^.]*)$`, 'u');

/**
 * Reads a pretty-printed proof state and a source statement alike: coercion arrows
 * go (`⇑f x`, `↑n`), a constant is read by its last name part (`OuterMeasure.ofFunction`
 * as the source inside its namespace writes `ofFunction`), a variable's field as an
 * application (`l.dedup` → `dedup l`), and a parenthesised application in function
 * position loses its parentheses (the printer's `(comap f) m s` is `comap f m s`).
 */
function normalize(ts: Tok[]): Tok[] {
  const out: Tok[] = [];
  let parens = false;
  for (const t of ts) {
    if (t === '⇑' || t === '↑') continue;
    if (t === '(') parens = true;
    // only a name has a dot (a lone `.` is its own token)
    if (t.length < 2 || !t.includes('.')) {
      out.push(t);
      continue;
    }
    const field = RECEIVER.exec(t);
    if (field) out.push(field[2]!, field[1]!);
    else out.push(t.slice(t.lastIndexOf('.') + 1));
  }
  return parens && out.length <= UNWRAP_MAX_TOKENS ? unwrapHeads(out) : out;
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
const MATCH_BUDGET = 20_000;

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

/** `pat` (variables in `vars`) matches `goal` from `at`, pattern position `p`; returns the end, or -1. */
function matchAt(pat: Tok[], goal: Tok[], at: number, vars: Set<string>, p = 0, bind = new Map<string, string>()): number {
  if (--budget < 0) return -1;
  let g = at;
  for (; p < pat.length; p++) {
    const t = pat[p]!;
    if (g >= goal.length) return -1;
    if (vars.has(t)) {
      const prev = bind.get(t);
      for (const end of applicationEnds(goal, g)) {
        if ((budget -= end - g) < 0) return -1;
        const text = goal.slice(g, end).join(' ');
        if (prev !== undefined && prev !== text) continue;
        const next = new Map(bind).set(t, text);
        const r = matchAt(pat, goal, end, vars, p + 1, next);
        if (r >= 0) return r;
      }
      return -1;
    } else if (t === goal[g]) g++;
    else return -1;
  }
  return g;
}

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

/** What the matcher reads of a premise. */
type FitPremise = Pick<PremiseInfo, 'kind' | 'args' | 'goal' | 'statement'>;

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
interface Goal {
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
  const { concl: written, bound, hyps } = conclusion(tokens(p.goal || p.statement));
  const concl = infixRelation(written);
  for (const b of bound) vars.add(b);
  for (const t of concl) if (SINGLE_VAR.test(t)) vars.add(t);
  const eq = topLevel(concl, (t) => t === '=' || t === '↔' || t === '<->', 0, 1)[0];
  const sides = eq === undefined ? undefined : { lhs: strip(concl.slice(0, eq)), rhs: strip(concl.slice(eq + 1)) };
  r = { kind: p.kind, concl: strip(concl), sides, hyps, vars };
  if (Object.isFrozen(p)) readings.set(p, r);
  return r;
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
