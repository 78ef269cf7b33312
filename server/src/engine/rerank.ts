/**
 * The optional second stage: reorders the top candidates using state–premise
 * interaction. Implementations live beside the model they run.
 */
import type { Candidate } from './engine.js';

/** What a reranker may read of a first-stage candidate. */
export type RerankInput = Pick<Candidate, 'info' | 'parts' | 'score'>;
import type { ParsedQuery } from './types.js';

export interface Reranker {
  /** One score per candidate, higher is better. */
  score(query: ParsedQuery, candidates: readonly RerankInput[]): Promise<Float32Array>;
}
