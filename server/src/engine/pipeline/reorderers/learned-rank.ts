/**
 * The learned ranker (tree-ranker.ts, `--ranker DIR`): the head of the hand-set
 * fusion's list (its `top`, RANK_TOP when only recording) scored anew by the trees
 * over the pipeline's feature vector (rank-features.ts), before every other reorderer
 * (kind, lift, slot fit and goal match still move its order). Its scores are lifted
 * above the rest of the list's, which keeps the fused order. A search that asks for
 * its rows (`SearchOptions.onRank`: the ranker's training data) gets them whether or
 * not a ranker is loaded. Hybrid Lean states and statements only.
 */
import { resortHead } from '../candidate.js';
import { rankInputs, RANK_TOP } from '../rank-features.js';
import { queryLang } from '../search.js';
import type { Reorderer } from '../stages.js';

export const learnedRank: Reorderer = {
  name: 'learned rank',
  applies: (s) => s.mode === 'hybrid' && queryLang(s.q.style) === 'lean' && (!!s.ranker || !!s.opts.onRank),
  apply(s, list) {
    const n = Math.min(list.length, s.ranker?.top ?? RANK_TOP);
    if (!n) return;
    const { rows } = rankInputs(s, list, n);
    s.opts.onRank?.(
      list.slice(0, n).map((c) => c.seg.table.name(c.id)),
      rows,
    );
    if (!s.ranker) return;
    const scores = s.ranker.score(rows);
    // the head stays above the tail, whose fused scores are on another scale
    const floor = n < list.length ? list[n]!.score : 0;
    const lift = floor - Math.min(...scores) + 1e-6;
    list.slice(0, n).forEach((c, i) => {
      c.parts.learned = scores[i]!;
      c.score = scores[i]! + lift;
    });
    resortHead(list, n);
  },
};
