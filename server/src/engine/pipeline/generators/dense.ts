/** The dense retriever: each segment's nearest premises by the query vector; its hits are the nearest theorems that vote. */
import type { Generator } from '../stages.js';

export const dense: Generator = {
  name: 'dense',
  start(s) {
    const vec = s.vec;
    if (!vec) return undefined;
    return (pool) =>
      s.segs.forEach((seg, segIndex) => {
        if (!seg.dense) return;
        for (const h of seg.denseTop(vec, s.poolSize, s.blocked?.[segIndex])) {
          pool.add(seg, segIndex, h.id);
          pool.found.push({ seg, segIndex, id: h.id, sim: h.score });
        }
      });
  },
};
