/**
 * The usage model, the naive-Bayes side of MaSh (Kühlwein et al. 2013) keyed on
 * symbolic features: for a premise p and the query's formal terms f (the terms the
 * formal BM25 field indexes, indexes/src/sparse/terms.ts: constants split into
 * parts, symbols), c(f, p) counts the library statements that contain f and whose
 * proofs use p, and
 *
 *   score(q, p) = Σ_{f ∈ q} w(f) · ln(1 + c(f, p))
 *
 * with w(f) the query term's IDF weight. The use prior is the fusion's own
 * (`FusionWeights.prior`). Graph votes (graph-votes.ts) let the few statements
 * nearest the query vote; this model lets every statement that shares a term vote,
 * term by term, so it reaches premises that no near statement's proof names.
 *
 * The counts are read at query time from what every index already holds: the
 * formal field's postings (term → statements) and the proof graph (statement →
 * premises). Nothing is stored or fitted at build time, so an index of any age
 * has the model, and a Lake project's own proofs (its workspace entry, a segment)
 * count as soon as they are indexed. Terms are read rarest first, within a budget
 * of postings, and terms in more than `MAX_DF_SHARE` of a segment's statements
 * are skipped (they say little and cost most).
 * The live-indexed declarations (the overlay of edited files) vote like any segment's.
 */
import type { Bm25Index } from '../../../indexes/src/sparse/bm25.js';

/** Candidates the usage generator proposes. */
export const USAGE_CANDIDATES = 200;
/** Statements read per search, over all terms and segments. */
export const POSTINGS_BUDGET = 40_000;
/** Terms in more than this share of a segment's statements, and in more than `MIN_DF_CAP` of them, are not read. */
export const MAX_DF_SHARE = 0.05;
export const MIN_DF_CAP = 1_000;

/** One segment as the model reads it. */
export interface UsageSegment {
  readonly field: Bm25Index;
  /** Whether statement `doc`'s proof may vote (live, not excluded). */
  mayVote(doc: number): boolean;
  /** The premises statement `doc`'s proof uses, each as a numeric key (the caller's candidate order). */
  uses(doc: number): Iterable<number>;
}

/** Scores by premise key; premises no statement sharing a query term uses are absent. */
export function usageScores(terms: ReadonlyMap<string, number>, segs: readonly UsageSegment[], budget = POSTINGS_BUDGET): Map<number, number> {
  // every (segment, term) the query has, rarest first
  const reads: { seg: UsageSegment; from: number; to: number; w: number }[] = [];
  for (const seg of segs) {
    const { vocab, offsets } = seg.field.arrays;
    const maxDf = Math.max(MIN_DF_CAP, Math.floor(MAX_DF_SHARE * seg.field.docCount));
    for (const [term, w] of terms) {
      const t = vocab.find(term);
      if (t === undefined || !(w > 0)) continue;
      const from = offsets[t]!;
      const to = offsets[t + 1]!;
      if (to > from && to - from <= maxDf) reads.push({ seg, from, to, w });
    }
  }
  reads.sort((a, b) => a.to - a.from - (b.to - b.from) || b.w - a.w);
  const scores = new Map<number, number>();
  const counts = new Map<number, number>();
  let left = budget;
  for (const r of reads) {
    if (r.to - r.from > left) continue;
    left -= r.to - r.from;
    counts.clear();
    const docs = r.seg.field.arrays.docs;
    for (let p = r.from; p < r.to; p++) {
      const d = docs[p]!;
      if (!r.seg.mayVote(d)) continue;
      for (const key of r.seg.uses(d)) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [key, c] of counts) scores.set(key, (scores.get(key) ?? 0) + r.w * Math.log1p(c));
  }
  return scores;
}

/** The `n` best keys of `scores` (ties: smaller key first). */
export function topKeys(scores: ReadonlyMap<number, number>, n: number): number[] {
  let entries = [...scores];
  if (entries.length > 4 * n) {
    // cut at the n-th best score (a sort of plain numbers) before sorting the entries
    const values = Float64Array.from(entries, (e) => e[1]).sort().reverse();
    const floor = values[n - 1]!;
    entries = entries.filter((e) => e[1] >= floor);
  }
  return entries.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, n).map(([k]) => k);
}
