/**
 * Hybrid, `FusionWeights.mash` > 0: the usage model fitted at index time (MaSh's naive
 * Bayes, indexes/src/mash.ts, stored in each index's mash.bin). Per segment that has
 * one, only the query's formal terms' postings are read; the best `MASH_CANDIDATES`
 * usable premises join the pool, and every candidate it scored gets its score as the
 * `mash` part. Off (no cost) at weight 0; an index without mash.bin proposes nothing.
 * The theorem being proved (`exclude`) is no evidence: its proof is taken out of the
 * counts (test/unit/mash-file.test.ts).
 */
import { MASH_SIGMA, mashScores, type MashExcluded } from '../../../../../indexes/src/mash.js';
import type { Bm25Index } from '../../../../../indexes/src/sparse/bm25.js';
import { orderOf } from '../candidate.js';
import type { Generator } from '../stages.js';

/** Candidates the MaSh generator proposes. */
export const MASH_CANDIDATES = 200;

export const mash: Generator = {
  name: 'mash',
  start(s) {
    const terms = s.sparseTerms;
    if (s.mode !== 'hybrid' || !terms || !((s.w.mash ?? 0) > 0)) return undefined;
    return (pool) => {
      const all: { segIndex: number; id: number; score: number }[] = [];
      const byOrder = new Map<number, number>();
      s.segs.forEach((seg, segIndex) => {
        const model = seg.mash;
        if (!model) return;
        const vocab = seg.sparse.arrays.vocab;
        const features = new Map<number, number>();
        for (const [term, w] of terms) {
          const f = vocab.find(term);
          if (f !== undefined) features.set(f, w);
        }
        // the theorem being proved: its proof is no evidence (its own uses and features taken out of the counts)
        const excluded: MashExcluded[] = [];
        for (const name of s.opts.exclude ?? []) {
          const d = seg.table.id(name);
          if (d !== undefined) excluded.push(excludedStatement(seg.sparse, d, seg.table.refs(d)));
        }
        for (const [id, score] of mashScores(model, features, MASH_SIGMA, excluded)) {
          all.push({ segIndex, id, score });
          byOrder.set(orderOf(segIndex, id), score);
        }
      });
      all.sort((a, b) => b.score - a.score || a.segIndex - b.segIndex || a.id - b.id);
      let added = 0;
      for (const x of all) {
        if (added >= MASH_CANDIDATES) break;
        if (pool.add(s.segs[x.segIndex]!, x.segIndex, x.id)) added++;
      }
      for (const c of pool.list()) {
        const v = byOrder.get(c.order);
        if (v !== undefined) c.parts.mash = v;
      }
    };
  },
};

/** Statement `d` of a segment as MaSh counted it: itself and the premises of its proof in the segment; its features, its formal field's terms. */
function excludedStatement(field: Bm25Index, d: number, refs: ArrayLike<number | string>): MashExcluded {
  const premises = new Set<number>([d]);
  for (const r of Array.from(refs)) if (typeof r === 'number') premises.add(r);
  const { offsets, docs } = field.arrays;
  return {
    premises,
    has(f) {
      // a term's postings are in document order
      let lo = offsets[f]!;
      let hi = offsets[f + 1]!;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (docs[mid]! < d) lo = mid + 1;
        else hi = mid;
      }
      return lo < offsets[f + 1]! && docs[lo] === d;
    },
  };
}
