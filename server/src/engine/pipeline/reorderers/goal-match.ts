/**
 * The goal match (docs/ranking.md, "Goal match"): premises whose conclusion is the
 * goal come first, then those that are the goal once their hypotheses are set aside,
 * then the rest, each group in the order it had; scores are lifted so that they still
 * fall down the list. Read: the top GOAL_TOP candidates, and wherever they are in the
 * pool those held in memory (`Search.inMemory`: a caller's new premises, the edited
 * documents', the nearby ones), whose metadata costs no read from disk.
 */
import { conclusionKey, GOAL_APPLY, GOAL_EXACT, goalMatcher } from '../../slot.js';
import type { Candidate } from '../candidate.js';
import type { Search } from '../search.js';
import type { Reorderer } from '../stages.js';

/**
 * Candidates the goal match reads from the top of the fused list (a candidate's
 * metadata is read from disk when first asked for: reading the whole pool, up to a
 * thousand candidates with the graph votes, tripled a search's time; the top 100
 * added 28% to the hybrid's p95, the top 50, which the slot fit reads anyway, 2%).
 */
const GOAL_TOP = 50;
/** Least lead of a goal-match group over the best score below it, relative to that score. */
const GOAL_GAP = 1e-3;

const lastPart = (name: string) => name.slice(name.lastIndexOf('.') + 1);

function goalMatchOrder(s: Search, list: Candidate[]): void {
  if (!list.length) return;
  const q = s.q;
  // the theorem being proved, copied under its own name in another development (the AFP's
  // parallel theories: `Global_Invariants.foo` while proving `D_Global_Invariants.foo`), is not lifted
  const proving = new Set((s.opts.exclude ?? []).map(lastPart));
  const isabelle = q.style === 'isabelle-state';
  // a Lean state's hypotheses declare its variables: `x y : ℕ`
  const locals = isabelle ? [] : q.hyps.flatMap((h) => /^([^:]*?)\s:\s/.exec(h)?.[1]!.split(/\s+/).filter(Boolean) ?? []);
  const levelOf = goalMatcher(q.goal, isabelle ? q.hyps : [], locals);
  const level = new Map<Candidate, number>();
  // one premise per conclusion is lifted, the best placed: its twins stay where they are (sibling
  // theories' copies), except those the caller or the open files supply that state the goal exactly:
  // a new premise has no uses and no votes, yet it is what the caller wants next to its library twin
  const lifted = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    const inMemory = s.inMemory(c);
    if (i >= GOAL_TOP && !inMemory) continue;
    const l = levelOf(c.info);
    if (!l) continue;
    c.parts.goal = l;
    const key = conclusionKey(c.info);
    const twinOfLifted = lifted.has(key) && !(inMemory && l === GOAL_EXACT);
    if (!twinOfLifted && !proving.has(lastPart(c.info.name))) (lifted.add(key), level.set(c, l));
  }
  if (!level.size) return;
  const tiers = [GOAL_EXACT, GOAL_APPLY, 0].map((t) => list.filter((c) => (level.get(c) ?? 0) === t));
  // from the bottom up: each group whole just above the best score below it
  let below = -Infinity;
  for (let i = tiers.length - 1; i >= 0; i--) {
    const tier = tiers[i]!;
    if (!tier.length) continue;
    const low = Math.min(...tier.map((c) => c.score));
    if (Number.isFinite(below) && low <= below) {
      const shift = below - low + GOAL_GAP * Math.max(1, Math.abs(below));
      for (const c of tier) c.score += shift;
    }
    below = Math.max(below, ...tier.map((c) => c.score));
  }
  list.splice(0, list.length, ...tiers.flat());
}

export const goalMatch: Reorderer = {
  name: 'goal match',
  applies: (s) => s.goalMatch && s.q.style !== 'text',
  apply: goalMatchOrder,
};
