/** A pattern search: exact matches first, each side in the order the usual signals gave. */
import type { Reorderer } from '../stages.js';

export const patternTiers: Reorderer = {
  name: 'pattern tiers',
  applies: (s) => !!s.pattern,
  apply(_, list) {
    for (const c of list) c.parts.pattern ??= 0;
    const tiers = [...list.filter((c) => c.parts.pattern), ...list.filter((c) => !c.parts.pattern)];
    tiers.forEach((c, i) => (list[i] = c));
  },
};
