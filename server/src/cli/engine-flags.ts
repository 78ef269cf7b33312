/** The options `query` and `eval` share for opening an index, and what they mean. */
import { openEngine } from '../engine/open.js';
import type { OpenedEngine } from '../engine/types.js';
import { weightsOption } from './args.js';

export const ENGINE_FLAGS = {
  index: { type: 'string', short: 'i' },
  mode: { type: 'string' },
  rerank: { type: 'boolean' },
  'no-rerank': { type: 'boolean' },
  json: { type: 'boolean' },
  encoder: { type: 'string' },
  reranker: { type: 'string' },
  weights: { type: 'string' },
  'text-tower': { type: 'string' },
  'no-text-tower': { type: 'boolean' },
  fusion: { type: 'string' },
  'no-goal-match': { type: 'boolean' },
} as const;

interface EngineFlagValues {
  rerank?: boolean;
  'no-rerank'?: boolean;
  encoder?: string;
  reranker?: string;
  weights?: string;
  'text-tower'?: string;
  'no-text-tower'?: boolean;
  fusion?: string;
  'no-goal-match'?: boolean;
}

/** Opens the index; `sparseOnly` skips the encoder when the mode needs none. */
export async function openFromFlags(
  index: string,
  values: EngineFlagValues,
  sparseOnly: boolean,
): Promise<{ engine: OpenedEngine; rerank: boolean }> {
  const engine = await openEngine(index, {
    encoderDir: values.encoder,
    rerankerDir: values.reranker,
    weights: weightsOption(values.weights),
    textTowerDir: values['text-tower'],
    noTextTower: values['no-text-tower'],
    fusionDir: values.fusion,
    // the order without the goal-match signal (for before/after comparisons)
    ...(values['no-goal-match'] ? { goalMatch: false } : {}),
    sparseOnly: sparseOnly && !values.rerank,
  });
  const rerank = values['no-rerank'] ? false : (values.rerank ?? engine.rerankByDefault);
  return { engine, rerank };
}
