/**
 * The options `query` and `eval` share for opening an index, and what they mean:
 * `--index DIR`, or `--project DIR`, the automatic index of a Lake project or an
 * Isabelle workspace, with exactly the entries the language server uses for it
 * (indexing/project-engine.ts: reused from the cache, or built there first).
 */
import { openEngine, type OpenOptions } from '../engine/open.js';
import type { OpenedEngine } from '../engine/types.js';
import { projectOptions } from '../indexing/cache-state.js';
import { openProject, type OpenedProject } from '../indexing/project-engine.js';
import { Logger } from '../lsp/log.js';
import { indexDirOption, UsageError, weightsOption } from './args.js';
import { titledProgress } from './progress.js';

export const ENGINE_FLAGS = {
  index: { type: 'string', short: 'i' },
  project: { type: 'string' },
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
  ranker: { type: 'string' },
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
  ranker?: string;
  'no-goal-match'?: boolean;
}

/** The engine options the flags give (`sparseOnly`: the mode needs no encoder); a usage error for bad weights before any index is read. */
function openOptions(values: EngineFlagValues, sparseOnly: boolean): OpenOptions {
  return {
    encoderDir: values.encoder,
    rerankerDir: values.reranker,
    weights: weightsOption(values.weights),
    textTowerDir: values['text-tower'],
    noTextTower: values['no-text-tower'],
    fusionDir: values.fusion,
    rankerDir: values.ranker,
    // the order without the goal-match signal (for before/after comparisons)
    ...(values['no-goal-match'] ? { goalMatch: false } : {}),
    sparseOnly: sparseOnly && !values.rerank,
  };
}

const rerankOf = (values: EngineFlagValues, engine: OpenedEngine) => (values['no-rerank'] ? false : (values.rerank ?? engine.rerankByDefault));

/** Opens the index; `sparseOnly` skips the encoder when the mode needs none; `project`: the command also takes `--project` (said when the index is a project). */
export async function openFromFlags(index: string, values: EngineFlagValues, sparseOnly: boolean, project = false): Promise<{ engine: OpenedEngine; rerank: boolean }> {
  const opts = openOptions(values, sparseOnly);
  const engine = await openEngine(indexDirOption(index, { project }), opts);
  return { engine, rerank: rerankOf(values, engine) };
}

/** What `--index` or `--project` opened: the engine, and for a project its automatic index (directories, entry kinds, the workspace entry). */
export interface OpenedTarget {
  engine: OpenedEngine;
  rerank: boolean;
  project?: OpenedProject;
}

/**
 * Opens `--index DIR` or `--project DIR` (exactly one). A project's automatic
 * index is the server's (the same entries and cache, `$PREMISE_LSP_CACHE`):
 * cached entries are reused, missing ones built first (progress on stderr).
 */
export async function openTarget(command: string, values: EngineFlagValues & { index?: string; project?: string }, sparseOnly: boolean): Promise<OpenedTarget> {
  if (!values.index === !values.project) throw new UsageError(`${command} needs --index <index-dir> or --project <dir> (one of them)`);
  if (values.index) return openFromFlags(values.index, values, sparseOnly, true);
  const where = projectOptions(values.project!);
  if (typeof where === 'string') throw new UsageError(where);
  const opts = openOptions(values, sparseOnly);
  const project = await openProject(values.project!, new Logger(process.stderr, 'warn'), { encoderDir: values.encoder, open: opts, progress: titledProgress() });
  return { engine: project.engine, rerank: rerankOf(values, project.engine), project };
}
