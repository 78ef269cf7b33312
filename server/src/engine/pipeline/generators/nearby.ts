/** Hybrid: the premises the caller names as nearby (declared above the cursor) join with `local` 1. */
import type { Generator } from '../stages.js';

export const nearby: Generator = {
  name: 'nearby',
  start(s) {
    if (s.mode !== 'hybrid') return undefined;
    return (pool) => {
      for (const name of s.opts.nearby ?? []) {
        const c = pool.at(s.locate(name));
        if (c) c.parts.local = 1;
      }
    };
  },
};
