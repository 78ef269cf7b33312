/**
 * The three kinds of stage of a search (run.ts): generators propose candidates with
 * their features, a ranker fuses the features into one score, reorderers move the
 * fused list's head by what a score cannot say.
 */
import type { Scored } from '../fusion.js';
import type { Candidate } from './candidate.js';
import type { Pool } from './pool.js';
import type { Search } from './search.js';

export interface Generator {
  readonly name: string;
  /**
   * Undefined when it takes no part in this search. Otherwise it does at once what must
   * precede every candidate (scoring a BM25 field, whose accumulator every candidate's
   * features read) and returns what adds its candidates to the pool, setting its own
   * parts; those run after every generator has started, in the list's order, and may be
   * async (the pattern matcher).
   */
  start(s: Search): ((pool: Pool) => void | Promise<void>) | undefined;
}

export interface Ranker {
  readonly name: string;
  /** One score per candidate's features, same order, higher is better. */
  score(s: Search, features: readonly Scored[]): number[];
}

export interface Reorderer {
  readonly name: string;
  applies(s: Search): boolean;
  /** Reorders `list` (sorted best first) in place; it may add candidates from the pool. */
  apply(s: Search, list: Candidate[], pool: Pool): void | Promise<void>;
}
