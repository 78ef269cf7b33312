/** Runs an evaluation set against an engine; gold names the index cannot resolve are reported and not scored. */
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
  const batch = 16;
  for (let i = 0; i < scored.length; i += batch) {
    const chunk = scored.slice(i, i + batch);
    const results = await engine.searchBatch(chunk.map((c) => c.q.text), { k: 100, ...search, rerank });
    chunk.forEach((c, j) => {
      per.push({ style: c.q.style, m: queryMetrics(groupRanks(results[j]!.map((h) => h.name), c.gold)) });
    });
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
