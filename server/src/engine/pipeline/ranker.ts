/**
 * The rankers: the hand-set fusion (fusion.ts) or the learned one (learned-fusion.ts),
 * over the same feature vectors (features.ts, `fusionFeatures`).
 */
import { fuse } from '../fusion.js';
import type { LearnedFusion } from '../learned-fusion.js';
import { queryLang, type Search } from './search.js';
import type { Ranker } from './stages.js';

export const handSetFusion: Ranker = {
  name: 'hand-set fusion',
  // a Lake project's Lean queries: dense and sparse scaled within each entry
  score: (s, features) => fuse([...features], s.mode, s.maxUses, s.w, s.project && queryLang(s.q.style) === 'lean'),
};

export function learnedFusion(fusion: LearnedFusion): Ranker {
  return {
    name: 'learned fusion',
    score: (s, features) => fusion.score(features, { context: s.opts.nearby !== undefined, goalChars: s.q.goal.length, hyps: s.q.hyps.length }, s.maxUses),
  };
}

/** Lean states and statements in hybrid mode take the learned fusion when one is loaded, unless weights were set by hand or the index is a project's. */
export function rankerFor(s: Search): Ranker {
  const learned = s.mode === 'hybrid' && !s.handWeights && !s.project && queryLang(s.q.style) === 'lean' ? s.fusion : undefined;
  return learned ? learnedFusion(learned) : handSetFusion;
}
