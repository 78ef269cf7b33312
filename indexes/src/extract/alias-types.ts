/**
 * `alias a := b` names a declaration without restating it (Mathlib's `mul_add`
 * is `alias mul_add := left_distrib`, `sq` of `pow_two`): the extractor gives it
 * no binders and no conclusion, so nothing but its name could be searched or
 * matched. Once every name is resolved, an alias takes its target's kind,
 * binders and conclusion, and `alias ⟨mp, mpr⟩ := h` the two directions of h's
 * `↔` (`A → B`, `B → A`). Its statement stays as written. A target in an index
 * the build resolves against (Lean core's `congrArg` for Mathlib's `congr_arg`,
 * built as an entry of its own) is read from there; one found nowhere leaves the
 * alias as it is.
 */
import { ownTermRun } from './formal-terms.js';
import type { ExtractedDecl, PremiseRecord } from './record.js';

/** Longest chain of aliases followed (`a := b`, `b := c`…). */
const MAX_HOPS = 8;
const OPEN = new Set(['(', '[', '{', '⟨', '⦃']);
const CLOSE = new Set([')', ']', '}', '⟩', '⦄']);

/** What an alias takes from its target: found by full name in the indexes a build resolves against. */
export type AliasTargets = (name: string) => Pick<PremiseRecord, 'kind' | 'args' | 'goal'> | undefined;

/** Whether a record is an `alias` (completed or not): its statement is the alias command as written. */
export const isAliasRecord = (r: Pick<PremiseRecord, 'statement'>) => r.statement.startsWith('alias ');

/** An alias still without its target's statement. */
const isAlias = (r: PremiseRecord) => r.origin !== undefined && !r.goal && isAliasRecord(r);

/** Completes the alias records of `records` in place (and their formal terms, when the build made them). */
export function inheritAliasTypes(records: PremiseRecord[], external?: AliasTargets): void {
  const byName = new Map<string, PremiseRecord>();
  for (const r of records) byName.set(r.name, r);
  for (const r of records) {
    if (!isAlias(r)) continue;
    const target = follow(r, byName, external);
    if (!target) continue;
    const goal = aliasGoal(r, target.goal);
    if (goal === undefined) continue;
    r.kind = target.kind;
    r.args = [...target.args];
    r.goal = goal;
    const x = r as ExtractedDecl;
    if (x.formalTerms) x.formalTerms = ownTermRun(r);
  }
}

/** The first declaration with a conclusion along the alias chain (simple aliases only in between), here or in `external`. */
function follow(r: PremiseRecord, byName: Map<string, PremiseRecord>, external?: AliasTargets): Pick<PremiseRecord, 'kind' | 'args' | 'goal'> | undefined {
  let name = r.origin!;
  let t = byName.get(name);
  for (let hops = 0; t && isAlias(t) && hops < MAX_HOPS; hops++) {
    if (directionOf(t) !== undefined) return undefined;
    name = t.origin!;
    t = byName.get(name);
  }
  if (t) return t !== r && t.goal ? t : undefined;
  // an external index's aliases were completed when it was built
  const x = external?.(name);
  return x?.goal ? x : undefined;
}

/** 0 for `mp`, 1 for `mpr` in `alias ⟨mp, mpr⟩ := h`; undefined for a plain alias. */
function directionOf(r: PremiseRecord): number | undefined {
  const m = /^alias ⟨([^⟩]*)⟩ :=/.exec(r.statement);
  if (!m) return undefined;
  const written = m[1]!.split(',').map((w) => w.trim().replace(/^_root_\./, ''));
  const k = written.findIndex((w) => w !== '_' && (r.name === w || r.name.endsWith('.' + w)));
  return k < 0 ? -1 : k;
}

/** The alias's conclusion: the target's, or one direction of its `↔` (undefined when that cannot be read). */
function aliasGoal(r: PremiseRecord, goal: string): string | undefined {
  const dir = directionOf(r);
  if (dir === undefined) return goal;
  if (dir !== 0 && dir !== 1) return undefined;
  const sides = iffSides(goal);
  if (!sides) return undefined;
  const [a, b] = dir === 0 ? sides : [sides[1], sides[0]];
  return `${hypothesis(a)} → ${b}`;
}

/** `A ↔ B` split at its one top-level `↔`; undefined under a binder (`∀ x, p x ↔ q x`) or with none. */
function iffSides(goal: string): [string, string] | undefined {
  const g = goal.trim();
  if (/^(∀|∃|∃!|fun\b|λ|Π|⋀)/u.test(g)) return undefined;
  let depth = 0;
  let at = -1;
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) depth--;
    else if (c === '↔' && depth === 0) {
      if (at >= 0) return undefined;
      at = i;
    }
  }
  if (at < 0) return undefined;
  const a = g.slice(0, at).trim();
  const b = g.slice(at + 1).trim();
  return a && b ? [a, b] : undefined;
}

/** A side used as a hypothesis, in parentheses when an arrow, binder or comma in it would otherwise capture the rest. */
const hypothesis = (s: string) => (/[→∀∃λ,]|\bfun\b/u.test(s) ? `(${s})` : s);
