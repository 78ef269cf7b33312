/**
 * The learned ranker's feature vector (docs/ranking.md, "Learned ranker"), one
 * definition: the `learned rank` reorderer computes it at search time for the head of
 * the hand-set fusion's list, and `premise-lsp fusion-data --ranker` (the ranker's
 * training data) receives the very same rows from that stage (`SearchOptions.onRank`),
 * so training and serving cannot drift apart (test/unit/learned-rank.test.ts, and
 * test/unit/learned-fusion.test.ts for what `fusion-data --ranker` writes). Missing values are NaN (xgboost's
 * missing); every generator's score comes with its rank among the candidates that
 * have it (1 best), pool-wide, and its share of the pool's best.
 * A new feature: one entry in `RANK_FEATURES` or `RANK_QUERY_FEATURES` (tree-ranker.ts,
 * the model's columns) and its value below; trained models name their features, and a model whose list differs is refused.
 */
import { RANK_FEATURES, RANK_QUERY_FEATURES, RANK_TOP } from '../tree-ranker.js';
import { PremiseTable } from '../../../../indexes/src/store/premises.js';
import type { Segment } from '../segment.js';
import type { Candidate } from './candidate.js';
import type { Search } from './search.js';

/** The kinds as numbers (a tree splits them; other kinds, `constructor` among them, are 5). A Map: a plain object would answer `constructor` from its prototype. */
const KINDS = new Map<string, number>([
  ['theorem', 0],
  ['lemma', 0],
  ['def', 1],
  ['abbrev', 1],
  ['instance', 2],
  ['structure', 3],
  ['class', 3],
  ['inductive', 4],
]);

/** Parts that have a rank and a pool-relative scale. */
const RANKED = ['dense', 'sparse', 'graph', 'own', 'usage'] as const;

export { RANK_FEATURES, RANK_QUERY_FEATURES, RANK_TOP };

/**
 * What the ranker reads of a premise's record (kind, binders, statement length), kept per
 * index segment once read, packed in one number (0: not read yet): reading 300 records
 * from disk was most of the ranker's cost, and a session's searches meet the same premises
 * again. Only an index file's table (immutable) is kept; the overlay's and a search's own
 * premises are read each time. Binders are capped at 255 and lengths at 65,535 characters.
 */
const shapes = new WeakMap<Segment, Uint32Array>();

function shapeOf(c: Candidate): { kind: number; args: number; len: number } {
  const cache = c.seg.table instanceof PremiseTable ? (shapes.get(c.seg) ?? setShapes(c.seg)) : undefined;
  let packed = cache?.[c.id] ?? 0;
  if (!packed) {
    const info = c.info;
    packed = 1 + ((KINDS.get(info.kind) ?? 5) << 1) + (Math.min(info.args.length, 255) << 4) + Math.min(info.statement.length, 65535) * 4096;
    if (cache && c.id < cache.length) cache[c.id] = packed;
  }
  return { kind: (packed >>> 1) & 7, args: (packed >>> 4) & 255, len: Math.floor(packed / 4096) };
}

function setShapes(seg: Segment): Uint32Array {
  const a = new Uint32Array(seg.table.size);
  shapes.set(seg, a);
  return a;
}

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
    const shape = shapeOf(c);
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
      shape.kind,
      Math.log1p(shape.len),
      shape.args,
      c.seg.table.refs(c.id).length,
      ...query,
    );
  });
  return { rows };
}
