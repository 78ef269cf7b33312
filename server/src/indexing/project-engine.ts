/**
 * The entries the language server uses for a project, opened as one engine:
 * its automatic index (auto-index.ts, the same cache, cached entries reused,
 * missing ones built) with each entry's source roots; a Lake project's with
 * the project weights (engine/fusion.ts), as the server opens it. Shared by
 * `eval --project`, `query --project` and the benchmark's project stage, so
 * that they measure what an editor on that project gets.
 */
import { openEngine, type OpenOptions } from '../engine/open.js';
import type { OpenedEngine } from '../engine/types.js';
import type { Logger } from '../lsp/log.js';
import type { ProgressReporter } from '../lsp/progress.js';
import { autoIndexDirs, type AutoIndex } from './auto-index.js';
import { projectOptions } from './cache-state.js';

export interface OpenedProject {
  engine: OpenedEngine;
  index: AutoIndex;
  /** The workspace entry (the project's own sources), when it has one. */
  workspaceDir?: string;
}

/**
 * Opens the project at `dir` (a Lake project, or an Isabelle workspace): `encoderDir`, the encoder the
 * entries are built with (default the shipped one); `open`, engine options (sparse-only, weights…).
 * Throws when `dir` does not exist or has nothing to index.
 */
export async function openProject(
  dir: string,
  log: Logger,
  opts: { encoderDir?: string; cache?: string; open?: OpenOptions; progress?: (title: string) => Promise<ProgressReporter> } = {},
): Promise<OpenedProject> {
  const what = projectOptions(dir);
  if (typeof what === 'string') throw new Error(what);
  const index = await autoIndexDirs({
    ...what,
    log,
    ...(opts.progress ? { progress: opts.progress } : {}),
    ...(opts.encoderDir ? { encoderDir: opts.encoderDir } : {}),
    ...(opts.cache ? { cache: opts.cache } : {}),
  });
  const engine = await openEngine(index.dirs, {
    ...opts.open,
    ...(opts.encoderDir ? { encoderDir: opts.encoderDir } : {}),
    sourceRoots: index.roots,
    project: what.prover !== 'isabelle',
    sparseOnly: !!opts.open?.sparseOnly || !index.hybrid,
  });
  const workspaceDir = Object.entries(index.kinds).find(([, k]) => k === 'workspace')?.[0];
  return { engine, index, ...(workspaceDir ? { workspaceDir } : {}) };
}
