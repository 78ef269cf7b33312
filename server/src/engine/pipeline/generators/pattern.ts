/**
 * A pattern search (pattern.ts): every premise that matches the pattern joins with
 * `pattern` 1, scored like the others. The matches are found before the pipeline runs
 * (engine.ts `matchPattern`, async, within a budget per query), so no generator awaits
 * while the segments' accumulators hold this search's scores.
 */
import type { Generator } from '../stages.js';

export const pattern: Generator = {
  name: 'pattern',
  start(s) {
    const matched = s.matched;
    if (!matched) return undefined;
    return (pool) =>
      s.segs.forEach((seg, segIndex) => {
        for (const id of matched.ids[segIndex] ?? []) {
          const c = pool.add(seg, segIndex, id);
          if (c) c.parts.pattern = 1;
        }
      });
  },
};
