/**
 * The candidate pool of one search: each premise once, by its order, with the
 * features every candidate has (features.ts) read when it joins; and the theorems the
 * retrievers found nearest, which the graph votes read.
 */
import type { Neighbour } from '../graph-votes.js';
import type { Loc } from '../graph-votes.js';
import type { Segment } from '../segment.js';
import type { ScoreParts } from '../types.js';
import { Candidate, orderOf } from './candidate.js';
import { CANDIDATE_FEATURES, type CandidateFeature } from './features.js';
import type { Search } from './search.js';

/** A theorem a retriever found, with its similarity to the query. */
export interface Found extends Neighbour {
  segIndex: number;
}

export class Pool {
  private readonly byOrder = new Map<number, Candidate>();
  /** What the retrievers found, segment by segment (BM25 hits without a query vector, dense hits with one). */
  readonly found: Found[] = [];
  private readonly features: readonly CandidateFeature[];
  /** The stage adding candidates now (run.ts sets it): each candidate it proposes records it in `via`. */
  stage = '';

  constructor(private readonly s: Search) {
    this.features = CANDIDATE_FEATURES.filter((f) => f.on(s));
  }

  /** The candidate for a premise, made on first call; undefined when the search may not return it. */
  add(seg: Segment, segIndex: number, id: number): Candidate | undefined {
    const order = orderOf(segIndex, id);
    let c = this.byOrder.get(order);
    if (c) {
      if (this.stage && !c.via.includes(this.stage)) c.via.push(this.stage);
      return c;
    }
    if (!this.s.usable(seg, segIndex, id) || this.s.filtered(seg, id)) return undefined;
    const parts: ScoreParts = {};
    for (const f of this.features) {
      const v = f.read(this.s, seg, id);
      if (v !== undefined) parts[f.part] = v;
    }
    this.byOrder.set(order, (c = new Candidate(seg, id, order, parts, this.s.taken.get(order))));
    parts.prior = Math.log1p(c.uses);
    if (this.stage) c.via.push(this.stage);
    return c;
  }

  /** `add` for a premise found by name. */
  at(loc: Loc | undefined): Candidate | undefined {
    return loc && this.add(loc.seg, this.s.segs.indexOf(loc.seg), loc.id);
  }

  list(): Candidate[] {
    return [...this.byOrder.values()];
  }
}
