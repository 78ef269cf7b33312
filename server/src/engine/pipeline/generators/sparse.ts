/** BM25 over the formal field (identifier parts, symbols): each segment's best; without a query vector, its hits are the nearest theorems that vote. */
import type { Generator } from '../stages.js';

export const sparse: Generator = {
  name: 'sparse',
  start(s) {
    const terms = s.sparseTerms;
    if (!terms) return undefined;
    // every segment scored before any candidate is made: candidates read the accumulators
    const hits = s.segs.map((seg, i) => seg.scoreSparse(terms, s.poolSize, s.blocked?.[i]));
    return (pool) =>
      s.segs.forEach((seg, segIndex) => {
        for (const id of hits[segIndex]!) {
          pool.add(seg, segIndex, id);
          if (!s.vec) pool.found.push({ seg, segIndex, id, sim: seg.acc[id]! });
        }
      });
  },
};
