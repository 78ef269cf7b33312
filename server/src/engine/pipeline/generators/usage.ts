/**
 * Hybrid, `FusionWeights.usage` > 0: the usage model (usage-model.ts), every statement
 * that shares a formal term with the query votes for the premises its proof uses. Its
 * best `USAGE_CANDIDATES` join the pool, and every candidate it scored gets its score
 * as the `usage` part. Off (no cost) at weight 0.
 */
import { topKeys, usageScores, USAGE_CANDIDATES, type UsageSegment } from '../../usage-model.js';
import { orderOf } from '../candidate.js';
import type { Generator } from '../stages.js';

const SEG_SPAN = 2 ** 32;

export const usage: Generator = {
  name: 'usage',
  start(s) {
    const terms = s.sparseTerms;
    if (s.mode !== 'hybrid' || !terms || !(s.w.usage > 0)) return undefined;
    return (pool) => {
      const segs: UsageSegment[] = s.segs.map((seg, segIndex) => ({
        field: seg.sparse,
        mayVote: (doc) => s.usable(seg, segIndex, doc),
        // ids in the segment as they are (a replaced premise's vote is lost: the pool skips it); names located
        uses(doc) {
          const out: number[] = [];
          for (const r of Array.from<number | string>(seg.table.refs(doc))) {
            if (typeof r === 'number') out.push(orderOf(segIndex, r));
            else {
              const loc = s.locate(r);
              if (loc) out.push(orderOf(s.segs.indexOf(loc.seg), loc.id));
            }
          }
          return out;
        },
      }));
      const scores = usageScores(terms, segs);
      for (const key of topKeys(scores, USAGE_CANDIDATES)) {
        const segIndex = Math.floor(key / SEG_SPAN);
        pool.add(s.segs[segIndex]!, segIndex, key - segIndex * SEG_SPAN);
      }
      for (const c of pool.list()) {
        const v = scores.get(c.order);
        if (v !== undefined) c.parts.usage = v;
      }
    };
  },
};
