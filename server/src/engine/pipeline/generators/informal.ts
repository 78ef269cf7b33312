/** Text in hybrid mode: BM25 over the premises' informal (English) field, each segment's best. */
import type { Generator } from '../stages.js';

export const informal: Generator = {
  name: 'informal',
  start(s) {
    const terms = s.informalTerms;
    if (!terms) return undefined;
    const hits = s.segs.map((seg, i) => seg.scoreInformal(terms, s.poolSize, s.blocked?.[i]));
    return (pool) => s.segs.forEach((seg, segIndex) => hits[segIndex]!.forEach((id) => pool.add(seg, segIndex, id)));
  },
};
