/**
 * The optional second stage: reorders the top candidates using state–premise
 * interaction. Implementations live beside the model they run.
 */
import type { ParsedQuery, PremiseInfo, ScoreParts } from './types.js';

/** What a reranker may read of a first-stage candidate (the engine's `Candidate` is one). */
export interface RerankInput {
  readonly info: PremiseInfo;
  readonly parts: ScoreParts;
  readonly score: number;
}

export interface Reranker {
  /** One score per candidate, higher is better. */
  score(query: ParsedQuery, candidates: readonly RerankInput[]): Promise<Float32Array>;
}
