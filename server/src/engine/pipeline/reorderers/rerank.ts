/** The reranker (rerank.ts), when the search asks for it: it scores the head of the list anew. */
import { resortHead } from '../candidate.js';
import type { Reorderer } from '../stages.js';

/** Candidates handed to the reranker. */
const RERANK_TOP = 50;

export const rerank: Reorderer = {
  name: 'rerank',
  applies: (s) => !!s.reranker,
  async apply(s, list) {
    const top = list.slice(0, RERANK_TOP);
    const scores = await s.reranker!.score(s.q, top);
    top.forEach((c, i) => {
      c.parts.rerank = scores[i]!;
      c.score = scores[i]!;
    });
    resortHead(list, top.length);
  },
};
