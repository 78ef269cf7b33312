/**
 * Runs an evaluation set against an engine; gold names the index cannot resolve
 * are reported and not scored. Every mode excludes the query's own theorem.
 */
import type { Mode, PremiseSearch } from '../engine/types.js';
import type { EvalQuery } from './datasets.js';
import { groupRanks, meanMetrics, queryMetrics, type Metrics } from './metrics.js';

/** The engine's modes, plus `bm25-plain`: BM25 over the whole state, the usual baseline. */
export type EvalMode = Mode | 'bm25-plain';

export interface EvalReport {
  dataset: string;
  mode: EvalMode;
  rerank: boolean;
  /** Gold premises (groups) in the dataset, and how many the index resolves. */
  total: number;
  resolved: number;
  queries: number;
  scoredQueries: number;
  metrics: Metrics;
  byStyle: Record<string, { queries: number; metrics: Metrics }>;
}

export async function runEval(
  engine: PremiseSearch,
  dataset: string,
  queries: EvalQuery[],
  mode: EvalMode,
  rerank = false,
): Promise<EvalReport> {
  const search = mode === 'bm25-plain' ? { mode: 'bm25' as const, plainBm25: true } : { mode };
  let total = 0;
  let resolved = 0;
  const scored: { q: EvalQuery; gold: string[][] }[] = [];
  for (const q of queries) {
    const gold = q.gold.map((g) => g.filter((n) => engine.lookup(n))).filter((g) => g.length);
    total += q.gold.length;
    resolved += gold.length;
    if (gold.length) scored.push({ q, gold });
  }
  const per: { style: string; m: Metrics }[] = [];
  for (const { q, gold } of scored) {
    // the theorem being proved is neither an answer nor evidence (its proof would give the gold away)
    const hits = await engine.search(q.text, { k: 100, ...search, rerank, exclude: q.theorem ? [q.theorem] : undefined });
    per.push({ style: q.style, m: queryMetrics(groupRanks(hits.map((h) => h.name), gold)) });
  }
  const byStyle: EvalReport['byStyle'] = {};
  for (const style of [...new Set(per.map((p) => p.style))].sort()) {
    const ms = per.filter((p) => p.style === style).map((p) => p.m);
    byStyle[style] = { queries: ms.length, metrics: meanMetrics(ms) };
  }
  return {
    dataset,
    mode,
    rerank,
    total,
    resolved,
    queries: queries.length,
    scoredQueries: scored.length,
    metrics: meanMetrics(per.map((p) => p.m)),
    byStyle,
  };
}

export function formatEval(r: EvalReport): string {
  const fmt = (m: Metrics) => Object.entries(m).map(([k, v]) => `${k} ${v.toFixed(3)}`).join('  ');
  const lines = [
    `${r.dataset} · ${r.mode}${r.rerank ? ' + rerank' : ''} · ${r.scoredQueries}/${r.queries} queries scored · gold resolved ${r.resolved}/${r.total}`,
    `  all            ${fmt(r.metrics)}`,
  ];
  for (const [s, v] of Object.entries(r.byStyle)) lines.push(`  ${s.padEnd(14)} ${fmt(v.metrics)}  (${v.queries})`);
  return lines.join('\n');
}
