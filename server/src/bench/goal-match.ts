/**
 * The goal-match signal measured (issue 26): on the LeanDojo steps whose tactic is
 * `exact`/`apply` with a named premise (`exact foo x`, `apply bar`), the rank of
 * that premise with the signal off and on, each step searched as eval searches it
 * (at its theorem's place in its file).
 */
import type { PremiseSearch, SearchOptions } from '../engine/types.js';
import type { EvalQuery } from '../eval/datasets.js';
import { fileDeclarations, provingIn } from '../eval/run.js';

/** How deep a premise is looked for; deeper counts as not found. */
export const GOAL_MATCH_DEPTH = 100;

export interface GoalMatchStep {
  id: string;
  tactic: string;
  premise: string;
  /** 1-based rank with the signal off and on; null: not in the top GOAL_MATCH_DEPTH. */
  off: number | null;
  on: number | null;
}

export interface GoalMatchSummary {
  mode: string;
  steps: number;
  off: RankSummary;
  on: RankSummary;
  /** Steps whose premise rose, fell, stayed. */
  better: number;
  worse: number;
  same: number;
  detail: GoalMatchStep[];
}

interface RankSummary {
  'R@1': number;
  'R@10': number;
  MRR: number;
  /** Median rank, misses counted as deeper than GOAL_MATCH_DEPTH. */
  median: number | null;
}

/**
 * The premise a step's `exact`/`apply` names, as the step's gold names it (the tactic
 * may write it short, `exact le_refl _`, or with `@`); undefined for other steps.
 */
export function namedPremise(q: Pick<EvalQuery, 'tactic' | 'gold'>): string | undefined {
  const m = /^(?:exact|apply)\s+@?([^\s()⟨⟩[\],;]+)/u.exec(q.tactic?.trim() ?? '');
  if (!m) return undefined;
  const written = m[1]!;
  for (const group of q.gold) for (const name of group) if (name === written || name.endsWith(`.${written}`)) return name;
  return undefined;
}

function summary(ranks: (number | null)[]): RankSummary {
  const n = ranks.length || 1;
  const sorted = ranks.map((r) => r ?? Infinity).sort((a, b) => a - b);
  const mid = sorted[Math.floor((sorted.length - 1) / 2)];
  return {
    'R@1': ranks.filter((r) => r === 1).length / n,
    'R@10': ranks.filter((r) => r !== null && r <= 10).length / n,
    MRR: ranks.reduce<number>((s, r) => s + (r ? 1 / r : 0), 0) / n,
    median: mid === undefined || !Number.isFinite(mid) ? null : mid,
  };
}

export async function goalMatchSteps(engine: PremiseSearch, queries: EvalQuery[], opts: Pick<SearchOptions, 'mode' | 'rerank'> = {}): Promise<GoalMatchSummary> {
  const steps = queries.flatMap((q) => {
    const premise = namedPremise(q);
    return premise && engine.lookup(premise) ? [{ q, premise }] : [];
  });
  const files = steps.some((s) => s.q.theorem) ? fileDeclarations(engine) : undefined;
  const detail: GoalMatchStep[] = [];
  for (const { q, premise } of steps) {
    const where = q.theorem ? provingIn(engine, files!, q.theorem) : {};
    const rank = async (goalMatch: boolean) => {
      const hits = await engine.search(q.text, { k: GOAL_MATCH_DEPTH, ...opts, ...where, goalMatch });
      const i = hits.findIndex((h) => h.name === premise);
      return i < 0 ? null : i + 1;
    };
    detail.push({ id: q.id, tactic: q.tactic!, premise, off: await rank(false), on: await rank(true) });
  }
  const depth = (r: number | null) => r ?? GOAL_MATCH_DEPTH + 1;
  return {
    mode: `${opts.mode ?? 'default'}${opts.rerank ? '+rerank' : ''}`,
    steps: detail.length,
    off: summary(detail.map((d) => d.off)),
    on: summary(detail.map((d) => d.on)),
    better: detail.filter((d) => depth(d.on) < depth(d.off)).length,
    worse: detail.filter((d) => depth(d.on) > depth(d.off)).length,
    same: detail.filter((d) => depth(d.on) === depth(d.off)).length,
    detail,
  };
}

export function renderGoalMatch(s: GoalMatchSummary): string[] {
  const f = (x: number) => x.toFixed(3);
  const row = (label: string, r: RankSummary) => `| ${label} | ${f(r['R@1'])} | ${f(r['R@10'])} | ${f(r.MRR)} | ${r.median ?? `>${GOAL_MATCH_DEPTH}`} |`;
  return [
    `### Goal match: LeanDojo \`exact\`/\`apply\` steps (${s.steps}, ${s.mode})`,
    '',
    'The rank of the premise the step names, with the goal-match signal off and on.',
    '',
    '| goal match | R@1 | R@10 | MRR | median rank |',
    '|---|---|---|---|---|',
    row('off', s.off),
    row('on', s.on),
    '',
    `Rose on ${s.better} steps, fell on ${s.worse}, stayed on ${s.same}.`,
    '',
    '| step | tactic | premise | off | on |',
    '|---|---|---|---|---|',
    ...s.detail.map((d) => `| ${d.id} | \`${d.tactic.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 60)}\` | ${d.premise} | ${d.off ?? '–'} | ${d.on ?? '–'} |`),
  ];
}
