/** Text: a constructor, field or unfolding lemma in the head of the list lifts its structure or definition (structure-lift.ts). */
import { liftParents } from '../../structure-lift.js';
import { byScore } from '../candidate.js';
import type { Reorderer } from '../stages.js';

/** Fused candidates whose constructor, field or unfolding lemma lifts its parent. */
const LIFT_TOP = 20;

export const lift: Reorderer = {
  name: 'lift',
  applies: (s) => !!s.tq,
  apply(s, list, pool) {
    const inList = new Set(list);
    const lifted = liftParents(list, LIFT_TOP, (name) => {
      const p = pool.at(s.locate(name));
      if (p && !inList.has(p)) (inList.add(p), list.push(p));
      return p;
    });
    if (lifted) list.sort(byScore);
  },
};
