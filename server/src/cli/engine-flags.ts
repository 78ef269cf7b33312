/** The options `query` and `eval` share for opening an index, and what they mean. */
import { openEngine } from '../engine/open.js';
import type { OpenedEngine } from '../engine/types.js';
import { indexDirOption, weightsOption } from './args.js';

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
}

/** A project's automatic index, as `autoIndexDirs` gives it: several directories, some perhaps without vectors. */
export interface IndexDirs {
  dirs: string[];
  roots: Record<string, string[]>;
  hybrid: boolean;
}

/** Opens the index (or a project's automatic index); `sparseOnly` skips the encoder when the mode needs none. */
export async function openFromFlags(
  index: string | IndexDirs,
  values: EngineFlagValues,
  sparseOnly: boolean,
): Promise<{ engine: OpenedEngine; rerank: boolean }> {
  const weights = weightsOption(values.weights); // a usage error before a missing index
  const auto = typeof index === 'string' ? undefined : index;
  if (auto && !auto.hybrid) sparseOnly = true;
  const engine = await openEngine(auto ? auto.dirs : indexDirOption(index as string), {
    ...(auto ? { sourceRoots: auto.roots } : {}),
    encoderDir: values.encoder,
    rerankerDir: values.reranker,
    weights,
    textTowerDir: values['text-tower'],
    noTextTower: values['no-text-tower'],
    fusionDir: values.fusion,
    sparseOnly: sparseOnly && !values.rerank,
  });
  const rerank = values['no-rerank'] ? false : (values.rerank ?? engine.rerankByDefault);
  return { engine, rerank };
}
