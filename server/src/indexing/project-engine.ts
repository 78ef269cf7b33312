/**
 * The entries the language server uses for a Lake project, opened as one
 * engine: its automatic index (auto-index.ts, the same cache, cached entries
 * reused, missing ones built) with each entry's source roots. Shared by `eval
 * --project`, `query --project` and the benchmark's project stage, so that
 * they measure what an editor on that project gets.
 */
import { openEngine, type OpenOptions } from '../engine/open.js';
import type { OpenedEngine } from '../engine/types.js';
import type { Logger } from '../lsp/log.js';
import { autoIndexDirs, type AutoIndex } from './auto-index.js';

export interface OpenedProject {
  engine: OpenedEngine;
  index: AutoIndex;
  /** The workspace entry (the project's own sources), when it has one. */
  workspaceDir?: string;
}

/** Opens the project at `root` (`encoderDir`: the encoder the entries are built with, default the shipped one); `open`: engine options (sparse-only, weights…). */
export async function openProject(root: string, log: Logger, opts: { encoderDir?: string; cache?: string; open?: OpenOptions } = {}): Promise<OpenedProject> {
  const index = await autoIndexDirs({ root, log, ...(opts.encoderDir ? { encoderDir: opts.encoderDir } : {}), ...(opts.cache ? { cache: opts.cache } : {}) });
  const engine = await openEngine(index.dirs, {
    ...opts.open,
    ...(opts.encoderDir ? { encoderDir: opts.encoderDir } : {}),
    sourceRoots: index.roots,
    project: true,
    sparseOnly: !!opts.open?.sparseOnly || !index.hybrid,
  });
  const workspaceDir = Object.entries(index.kinds).find(([, k]) => k === 'workspace')?.[0];
  return { engine, index, ...(workspaceDir ? { workspaceDir } : {}) };
}
