/** A bring-your-own cross-encoder (Hugging Face ONNX directory) as the reranking stage. */
import type { CrossEncoder } from '../../../models/src/cross-encoder.js';
import { denseQueryText } from './query.js';
import type { Reranker, RerankInput } from './rerank.js';
import type { ParsedQuery } from './types.js';

export class CrossEncoderReranker implements Reranker {
  constructor(private readonly model: CrossEncoder) {}

  score(query: ParsedQuery, candidates: readonly RerankInput[]): Promise<Float32Array> {
    const docs = candidates.map((c) => `${c.info.name} : ${c.info.statement}${c.info.doc ? `\n${c.info.doc}` : ''}`);
    return this.model.score(denseQueryText(query), docs);
  }
}
