/**
 * Retrieval metrics over gold groups: Recall@k (fraction of groups hit in the top
 * k; 16 and 32 as LeanHammer's selector reports), nDCG@10 with binary relevance, MRR (first hit within the ranking).
 */
export const METRIC_NAMES = ['R@1', 'R@5', 'R@10', 'R@16', 'R@32', 'R@100', 'nDCG@10', 'MRR'] as const;
export type Metrics = Record<(typeof METRIC_NAMES)[number], number>;

/** 1-based rank at which each gold group is first satisfied (Infinity if never). */
export function groupRanks(ranked: string[], gold: string[][]): number[] {
  const pos = new Map<string, number>();
  ranked.forEach((n, i) => {
    if (!pos.has(n)) pos.set(n, i + 1);
  });
  return gold.map((g) => Math.min(...g.map((n) => pos.get(n) ?? Infinity)));
}

export function queryMetrics(ranks: number[]): Metrics {
  const n = ranks.length;
  const recall = (k: number) => ranks.filter((r) => r <= k).length / n;
  const dcg = ranks.filter((r) => r <= 10).reduce((s, r) => s + 1 / Math.log2(r + 1), 0);
  let idcg = 0;
  for (let i = 1; i <= Math.min(n, 10); i++) idcg += 1 / Math.log2(i + 1);
  const first = Math.min(...ranks);
  return {
    'R@1': recall(1),
    'R@5': recall(5),
    'R@10': recall(10),
    'R@16': recall(16),
    'R@32': recall(32),
    'R@100': recall(100),
    'nDCG@10': idcg ? dcg / idcg : 0,
    MRR: Number.isFinite(first) ? 1 / first : 0,
  };
}

export function meanMetrics(all: Metrics[]): Metrics {
  const out = Object.fromEntries(METRIC_NAMES.map((m) => [m, 0])) as Metrics;
  if (!all.length) return out;
  for (const m of METRIC_NAMES) out[m] = all.reduce((s, x) => s + x[m], 0) / all.length;
  return out;
}
