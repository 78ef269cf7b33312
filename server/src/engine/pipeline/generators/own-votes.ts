/**
 * A Lake project's automatic index (hybrid, `FusionWeights.own`): the project's own
 * nearest proofs vote apart from the library's, weighted against the nearest of them.
 */
import { OWN_NEIGHBOURS } from '../../graph-votes.js';
import type { Generator } from '../stages.js';
import { vote, voters } from './graph-votes.js';

export const ownVotes: Generator = {
  name: 'own votes',
  start(s) {
    if (s.mode !== 'hybrid' || !s.project || !(s.w.own > 0)) return undefined;
    return (pool) =>
      vote(
        s,
        pool,
        voters(s, pool).filter((n) => n.segIndex >= s.firstOwn),
        OWN_NEIGHBOURS,
        'own',
      );
  },
};
