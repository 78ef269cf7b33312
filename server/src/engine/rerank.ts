/**
 * The optional second stage: reorders the top candidates using state–premise
 * interaction. Implementations live beside the model they run.
 */
import type { Candidate } from './engine.js';
import type { ParsedQuery } from './types.js';

export interface Reranker {
  /** One score per candidate, higher is better. */
  score(query: ParsedQuery, candidates: Candidate[]): Promise<Float32Array>;
}
