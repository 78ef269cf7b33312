/**
 * One feature vector per candidate, one definition:
 * - `CANDIDATE_FEATURES`: what the retrievers score of any candidate, whoever proposed
 *   it, read when it joins the pool (its BM25 scores, the name match, its cosine), in
 *   this order (the order of a hit's `parts`); the generators add their own (votes,
 *   locality, pattern) and the pool adds the prior.
 * - `fusionFeatures`: the vector the rankers read (fusion.ts, learned-fusion.ts), from a
 *   candidate's parts at search time and from a hit's parts in `premise-lsp
 *   fusion-data`, the learned fusion's training data, so that the two cannot drift apart.
 * A new feature: one entry here (and a field in `ScoreParts`).
 */
import type { Scored } from '../fusion.js';
import type { Segment } from '../segment.js';
import { nameMatch } from '../text-query.js';
import type { ScoreParts } from '../types.js';
import type { Search } from './search.js';

export interface CandidateFeature {
  readonly part: keyof ScoreParts;
  /** Whether this search reads it. */
  on(s: Search): boolean;
  /** Its value for a premise (undefined: none, the part stays absent). */
  read(s: Search, seg: Segment, id: number): number | undefined;
}

export const CANDIDATE_FEATURES: readonly CandidateFeature[] = [
  // the BM25 fields' accumulators, filled by the sparse and informal generators before any candidate is made
  { part: 'sparse', on: (s) => !!s.sparseTerms, read: (_, seg, id) => seg.acc[id]! },
  { part: 'informal', on: (s) => !!s.informalTerms, read: (_, seg, id) => seg.informalAcc[id]! },
  { part: 'name', on: (s) => s.readNames, read: (s, seg, id) => nameMatch(s.tq!, seg.nameStems(id)) },
  { part: 'dense', on: (s) => !!s.vec, read: (s, seg, id) => seg.dense?.score(s.vec!, id) },
];

/** The rankers' inputs for a candidate (or a hit): its parts, its uses and (a Lake project) its entry, 1 the project's own. */
export function fusionFeatures(parts: ScoreParts, uses: number, entry = 0): Scored {
  return {
    dense: parts.dense,
    sparse: parts.sparse,
    informal: parts.informal,
    name: parts.name,
    graph: parts.graph,
    own: parts.own,
    usage: parts.usage,
    mash: parts.mash,
    local: parts.local,
    uses,
    entry,
  };
}
