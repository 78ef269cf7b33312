/** Hybrid: the proofs of the theorems the retrievers found nearest vote for the premises they use (graph-votes.ts). */
import { graphVotes, nearest, NEIGHBOURS, SHARPNESS, type Neighbour } from '../../graph-votes.js';
import type { Found, Pool } from '../pool.js';
import type { Search } from '../search.js';
import type { Generator } from '../stages.js';

/** The theorems found that may vote: usable, with a proof that references something. */
export function voters(s: Search, pool: Pool): Found[] {
  return pool.found.filter((n) => s.usable(n.seg, n.segIndex, n.id) && n.seg.table.refs(n.id).length);
}

/** The `n` nearest of `from` vote; each premise voted for joins with its votes as `part`. */
export function vote(s: Search, pool: Pool, from: Neighbour[], n: number, part: 'graph' | 'own'): void {
  for (const [seg, byId] of graphVotes(nearest(from, n), s.vec ? SHARPNESS.dense : SHARPNESS.sparse, (x) => s.refTargets(x))) {
    const segIndex = s.segs.indexOf(seg);
    for (const [id, v] of byId) {
      const c = pool.add(seg, segIndex, id);
      if (c) c.parts[part] = v;
    }
  }
}

export const graphVotesGenerator: Generator = {
  name: 'graph votes',
  start(s) {
    if (s.mode !== 'hybrid') return undefined;
    return (pool) => vote(s, pool, voters(s, pool), NEIGHBOURS, 'graph');
  },
};
