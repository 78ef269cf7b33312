/**
 * The learned ranker's feature vector (docs/ranking.md, "Learned ranker"), one
 * definition: the `learned rank` reorderer computes it at search time for the head of
 * the hand-set fusion's list, and `premise-lsp fusion-data --ranker` (the ranker's
 * training data) receives the very same rows from that stage (`SearchOptions.onRank`),
 * so training and serving cannot drift apart. Missing values are NaN (xgboost's
 * missing); every generator's score comes with its rank among the candidates that
 * have it (1 best), pool-wide, and its share of the pool's best.
 * A new feature: one entry in `RANK_FEATURES` or `RANK_QUERY_FEATURES` (tree-ranker.ts,
 * the model's columns) and its value below; trained models name their features, and a model whose list differs is refused.
 */
import { RANK_FEATURES, RANK_QUERY_FEATURES, RANK_TOP } from '../tree-ranker.js';
import type { Candidate } from './candidate.js';
import type { Search } from './search.js';

/** The kinds as numbers (a tree splits them; other kinds are 5). */
const KINDS: Record<string, number> = { theorem: 0, lemma: 0, def: 1, abbrev: 1, instance: 2, structure: 3, class: 3, inductive: 4 };

/** Parts that have a rank and a pool-relative scale. */
const RANKED = ['dense', 'sparse', 'graph', 'own', 'usage'] as const;

export { RANK_FEATURES, RANK_QUERY_FEATURES, RANK_TOP };

export interface RankInputs {
  /** Per candidate of the head, RANK_FEATURES then RANK_QUERY_FEATURES. */
  rows: Float64Array[];
}

/**
 * The ranker's rows for the first `n` of `list` (the pool sorted by the hand-set
 * fusion, whose score each candidate still holds); ranks and scales are over the
 * whole pool.
 */
export function rankInputs(s: Search, list: readonly Candidate[], n: number): RankInputs {
  const head = list.slice(0, n);
  const rankOf = new Map<string, Map<Candidate, number>>();
  const best = new Map<string, number>();
  for (const part of RANKED) {
    const has = list.filter((c) => c.parts[part] !== undefined);
    has.sort((a, b) => b.parts[part]! - a.parts[part]! || a.order - b.order);
    rankOf.set(part, new Map(has.map((c, i) => [c, i + 1])));
    best.set(part, has.length ? has[0]!.parts[part]! : NaN);
  }
  const denseMin = Math.min(...list.map((c) => c.parts.dense ?? Infinity));
  const denseMax = best.get('dense')!;
  const sparseMax = best.get('sparse')!;
  const fusedMax = list.length ? list[0]!.score : 0;
  const fusedMin = list.length ? list[list.length - 1]!.score : 0;
  const query = [
    Math.log1p(s.q.goal.length),
    s.q.hyps.length,
    s.q.style === 'lean-statement' ? 1 : 0,
    s.opts.nearby !== undefined ? 1 : 0,
    s.opts.slot ? 1 : 0,
    s.project ? 1 : 0,
    Math.log1p(list.length),
    Number.isNaN(sparseMax) ? 0 : Math.log1p(sparseMax),
    Number.isNaN(denseMax) ? 0 : denseMax,
  ];
  const v = (x: number | undefined) => (x === undefined ? NaN : x);
  const share = (x: number | undefined, max: number) => (x === undefined || !(max > 0) ? NaN : x / max);
  const rows = head.map((c, i) => {
    const p = c.parts;
    const info = c.info;
    const r = (part: (typeof RANKED)[number]) => v(rankOf.get(part)!.get(c));
    return Float64Array.of(
      c.score,
      i + 1,
      fusedMax > fusedMin ? (c.score - fusedMin) / (fusedMax - fusedMin) : 1,
      v(p.dense),
      r('dense'),
      p.dense === undefined || !(denseMax > denseMin) ? NaN : (p.dense - denseMin) / (denseMax - denseMin),
      v(p.sparse),
      r('sparse'),
      share(p.sparse, sparseMax),
      v(p.graph),
      r('graph'),
      share(p.graph, best.get('graph')!),
      v(p.own),
      r('own'),
      v(p.usage),
      r('usage'),
      p.local ?? 0,
      Math.log1p(c.uses),
      s.project && s.segs.indexOf(c.seg) >= s.firstOwn ? 1 : 0,
      c.via.length,
      KINDS[info.kind] ?? 5,
      Math.log1p(info.statement.length),
      info.args.length,
      c.seg.table.refs(c.id).length,
      ...query,
    );
  });
  return { rows };
}
