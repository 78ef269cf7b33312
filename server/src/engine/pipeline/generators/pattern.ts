/**
 * A pattern search (pattern.ts): every premise that matches the pattern joins with
 * `pattern` 1, scored like the others. A generator's step may be async: a matcher that
 * returns a promise (a budget per query) is awaited here, segment by segment.
 */
import { matchSegment } from '../../pattern.js';
import type { Generator } from '../stages.js';

export const pattern: Generator = {
  name: 'pattern',
  start(s) {
    const p = s.pattern;
    if (!p) return undefined;
    return (pool) =>
      s.segs.forEach((seg, segIndex) => {
        for (const id of matchSegment(p, seg, (i) => s.usable(seg, segIndex, i) && !s.filtered(seg, i))) {
          const c = pool.add(seg, segIndex, id);
          if (c) c.parts.pattern = 1;
        }
      });
  },
};
