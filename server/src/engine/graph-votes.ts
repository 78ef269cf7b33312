/**
 * Graph votes, the k-nearest-neighbour premise selection of MaSh (Kühlwein et
 * al. 2013) over the library's proof graph: the theorems nearest the query vote
 * for the premises their proofs use, each vote weighted by the neighbour's
 * similarity relative to the nearest neighbour's, sharpened. A premise that
 * shares no symbol with the goal can win this way: proofs of goals like
 * `(x + y) * (x + y) = x * x + y * y` use `pow_two`.
 */
import type { Segment } from './segment.js';

/** Neighbours that vote. */
export const NEIGHBOURS = 64;
/** A Lake project's own nearest proofs that vote apart from the library's (`FusionWeights.own`). */
export const OWN_NEIGHBOURS = 32;
/**
 * Exponent on sim/sim_max: the vote of a neighbour whose similarity is 95% of
 * the nearest one's weighs 0.95^12 ≈ 0.54 with dense similarities. BM25 scores
 * spread wider, so they take a smaller exponent.
 */
export const SHARPNESS = { dense: 12, sparse: 4 } as const;

/** A premise in one segment. */
export interface Loc {
  seg: Segment;
  id: number;
}

export interface Neighbour extends Loc {
  sim: number;
}

/** Votes per segment and premise id. */
export type Votes = Map<Segment, Map<number, number>>;

export function graphVotes(neighbours: Neighbour[], sharpness: number, refsOf: (n: Loc) => Iterable<Loc>): Votes {
  const votes: Votes = new Map();
  const top = Math.max(0, ...neighbours.map((n) => n.sim));
  if (!(top > 0)) return votes;
  for (const n of neighbours) {
    if (!(n.sim > 0)) continue;
    const w = (n.sim / top) ** sharpness;
    for (const t of refsOf(n)) {
      let m = votes.get(t.seg);
      if (!m) votes.set(t.seg, (m = new Map()));
      m.set(t.id, (m.get(t.id) ?? 0) + w);
    }
  }
  return votes;
}

/** The `n` most similar of `items` (stable for ties). */
export function nearest(items: Neighbour[], n: number): Neighbour[] {
  return items
    .map((x, i) => [x, i] as const)
    .sort((a, b) => b[0].sim - a[0].sim || a[1] - b[1])
    .slice(0, n)
    .map(([x]) => x);
}
