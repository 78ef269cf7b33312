/**
 * Hybrid, `FusionWeights.mash` > 0: the usage model fitted at index time (MaSh's naive
 * Bayes, indexes/src/mash.ts, stored in each index's mash.bin). Per segment that has
 * one, only the query's formal terms' postings are read; the best `MASH_CANDIDATES`
 * usable premises join the pool, and every candidate it scored gets its score as the
 * `mash` part. Off (no cost) at weight 0; an index without mash.bin proposes nothing.
 */
import { mashScores } from '../../../../../indexes/src/mash.js';
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
        for (const [id, score] of mashScores(model, features)) {
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
