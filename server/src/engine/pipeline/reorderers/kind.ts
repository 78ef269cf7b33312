/** Text asking for a kind ("the definition of…", a sentence that asserts): the head of the list gets ±w_k by the declaration's kind. */
import { kindFits } from '../../text-query.js';
import { resortHead } from '../candidate.js';
import type { Reorderer } from '../stages.js';

/** Fused candidates whose kind is checked (it is in the metadata read from disk). */
const KIND_TOP = 100;

export const kind: Reorderer = {
  name: 'kind',
  applies: (s) => !!s.tq && s.tq.intent !== 'any' && !!s.w.kind,
  apply(s, list) {
    for (const c of list.slice(0, KIND_TOP)) {
      const fits = kindFits(s.tq!.intent, c.info.kind);
      if (fits !== undefined) c.score += fits ? s.w.kind : -s.w.kind;
    }
    resortHead(list, KIND_TOP);
  },
};
