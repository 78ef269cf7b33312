/** A declaration asked for by its name (`Nat.succ_le_iff`): it joins with an informal score above every other candidate's. */
import type { Generator } from '../stages.js';

export const name: Generator = {
  name: 'name',
  start(s) {
    if (s.tq?.style !== 'name') return undefined;
    return (pool) => {
      const c = pool.at(s.locate(s.q.text.trim().replace(/^@/, '')));
      if (c) c.parts.informal = Math.max(1, ...pool.list().map((x) => x.parts.informal ?? 0)) * 2;
    };
  },
};
