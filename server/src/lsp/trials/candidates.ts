/**
 * Candidate steps for a trial: the top premises written as the tactic steps that
 * could use them at the cursor. Inside a known slot the step follows it (`rw [p]`
 * and `rw [← p]`, `simp [p]`, `grind [p]`, `exact p`, `apply p`); `exact` is also
 * tried with the premise's explicit arguments, bound from the goal when its
 * conclusion matches (`exact add_comm a b`) and as holes (`exact p _ _`). With no
 * slot every form is tried, and the premises are also batched into one
 * `simp [p₁, …, p₈]` and one `grind [p₁, …, p₈]`. Pure: no I/O.
 */
import { instantiateArgs, isEquational, mainConclusion, slotOf } from '../../engine/open.js';
import type { PremiseInfo } from '../../engine/types.js';

export interface Candidate {
  /** The step as the user would write it (no time budget around it). */
  step: string;
  /** The premises it uses (one, or the batch). */
  premises: string[];
  /** `exact`, `apply`, `rw`, `simp`, `grind`. */
  tactic: string;
}

export const TACTICS = ['exact', 'apply', 'rw', 'simp', 'grind'] as const;
export type TrialTactic = (typeof TACTICS)[number];

export interface CandidateOptions {
  /** The tactic of the slot at the cursor (`rw`, `exact`…), when there is one. */
  slotTactic?: string;
  /** Only these tactics (default: as the slot says, or all). */
  tactics?: readonly string[];
  /** How many premises go into one batched `simp`/`grind` (0: no batch). */
  batch?: number;
  /** At most this many candidates in all. */
  max?: number;
}

/** A name Lean reads as written (no `«»` quoting needed). */
const PLAIN_NAME = /^[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜ]*(\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜ]*)*$/u;

/** The explicit binders of a Lean premise, in order: `(a b : α)` gives a, b; `{}`, `[]`, `⦃⦄` are skipped. */
export function explicitBinders(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of args) {
    const a = raw.trim();
    if (!a.startsWith('(') || !a.endsWith(')')) continue;
    const inner = a.slice(1, -1);
    const colon = inner.indexOf(':');
    const names = (colon < 0 ? inner : inner.slice(0, colon)).trim().split(/\s+/).filter(Boolean);
    out.push(...names);
  }
  return out;
}

/** A bound argument as an argument: parenthesized unless it is one token or already a group. */
function asArg(text: string): string {
  const t = text.replace(/\(\s+/g, '(').replace(/\s+\)/g, ')').trim();
  if (!/\s/.test(t)) return t;
  return t.startsWith('(') && t.endsWith(')') ? t : `(${t})`;
}

/** The goal's main conclusion (after the first goal's `⊢`), or undefined. */
function mainGoal(goalText: string | undefined): string | undefined {
  return mainConclusion(goalText);
}

function exactForms(p: PremiseInfo, goal: string | undefined): string[] {
  const forms = [`exact ${p.name}`];
  const explicit = explicitBinders(p.args ?? []);
  if (explicit.length === 0) return forms;
  const bound = goal !== undefined ? instantiateArgs(p.goal, explicit, goal) : undefined;
  if (bound && bound.size > 0) forms.unshift(`exact ${p.name} ${explicit.map((v) => (bound.has(v) ? asArg(bound.get(v)!) : '_')).join(' ')}`);
  forms.push(`exact ${p.name} ${explicit.map(() => '_').join(' ')}`);
  return forms;
}

/** The tactics a slot asks for (undefined: no slot, or one premise-lsp does not try). */
function slotTactics(slotTactic: string | undefined): TrialTactic[] | undefined {
  if (!slotTactic) return undefined;
  if (/^grind\b/.test(slotTactic)) return ['grind'];
  switch (slotOf(slotTactic)) {
    case 'rw':
      return ['rw'];
    case 'simp':
      return ['simp'];
    case 'exact':
      return ['exact'];
    case 'apply':
      return ['apply'];
    default:
      return undefined;
  }
}

/** The candidate steps for `hits` (best first) at a place whose goal is `goalText`. */
export function buildCandidates(hits: readonly PremiseInfo[], goalText: string | undefined, opts: CandidateOptions = {}): Candidate[] {
  const fromSlot = slotTactics(opts.slotTactic);
  const wanted = new Set<string>(opts.tactics?.length ? opts.tactics.filter((t) => (TACTICS as readonly string[]).includes(t)) : (fromSlot ?? TACTICS));
  const goal = mainGoal(goalText);
  const premises = hits.filter((h) => h.lang !== 'isabelle' && PLAIN_NAME.test(h.name));
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (tactic: string, step: string, names: string[]) => {
    if (seen.has(step)) return;
    seen.add(step);
    out.push({ step, premises: names, tactic });
  };
  for (const p of premises) {
    const eq = isEquational(p.goal);
    if (wanted.has('exact')) for (const s of exactForms(p, goal)) add('exact', s, [p.name]);
    if (wanted.has('apply')) add('apply', `apply ${p.name}`, [p.name]);
    if (wanted.has('rw') && (eq || fromSlot)) {
      add('rw', `rw [${p.name}]`, [p.name]);
      add('rw', `rw [← ${p.name}]`, [p.name]);
    }
    if (wanted.has('simp') && (fromSlot || eq || opts.tactics?.includes('simp'))) add('simp', `simp [${p.name}]`, [p.name]);
    if (wanted.has('grind') && fromSlot?.includes('grind')) add('grind', `grind [${p.name}]`, [p.name]);
  }
  // no slot known: the premises together, as one simp and one grind call (kept within `max`)
  const batches: Candidate[] = [];
  const batch = Math.min(opts.batch ?? 8, premises.length);
  if (!fromSlot && batch >= 2) {
    const names = premises.slice(0, batch).map((p) => p.name);
    for (const t of ['simp', 'grind'] as const) {
      const step = `${t} [${names.join(', ')}]`;
      if (wanted.has(t) && !seen.has(step)) batches.push({ step, premises: names, tactic: t });
    }
  }
  const room = opts.max !== undefined ? Math.max(0, opts.max - batches.length) : out.length;
  return [...out.slice(0, room), ...batches].slice(0, opts.max ?? Infinity);
}
