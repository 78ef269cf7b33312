/**
 * `premise-lsp serve …` from an argv: parse the options, choose the engine, run
 * the session, return the exit code. The CLI's `serve` command calls this with
 * the real index opener.
 */
import { resolve } from 'node:path';
import { isLakeProject } from '../../../indexes/src/packages.js';
import type { PremiseSearch } from '../engine/types.js';
import { autoIndexDirs } from './auto-index.js';
import { parseServeArgs, type ServeArgs } from './args.js';
import type { EngineLoader } from './engine-host.js';
import { FixtureEngine } from '../engine/open.js';
import { Logger } from './log.js';
import { serve } from './serve.js';

/** Opens one index directory, or several as one engine. */
export type IndexOpener = (indexDir: string | string[]) => Promise<PremiseSearch> | PremiseSearch;

/**
 * The engine for a session: `--fake-engine FILE` (tests), else the index from
 * settings or `--index` through `openIndex`, else (setting `autoIndex`) the
 * automatic index of the Lean project (`--lean ROOT`, else the editor's
 * workspace folder when it is a Lake project), else no premises.
 */
export function engineLoader(args: ServeArgs, openIndex: IndexOpener): EngineLoader {
  return async (opts) => {
    if (args.fakeEngineDelayMs) await new Promise((r) => setTimeout(r, args.fakeEngineDelayMs));
    if (args.fakeEngine) return FixtureEngine.fromFile(args.fakeEngine);
    const index = opts?.index ?? args.index;
    if (index) return openIndex(index);
    const root = opts?.autoIndex === false ? undefined : autoIndexRoot(args.leanRoot, opts?.workspaceRoot);
    if (!root) return new FixtureEngine([]);
    const log = opts?.log ?? new Logger();
    const dirs = await autoIndexDirs({ root, log, progress: opts?.progress });
    return openIndex(dirs);
  };
}

/** The project to index automatically: `--lean ROOT`, else the workspace folder if it is a Lake project. */
export function autoIndexRoot(leanRoot: string | undefined, workspaceRoot: string | undefined): string | undefined {
  if (leanRoot) return resolve(leanRoot);
  return workspaceRoot && isLakeProject(workspaceRoot) ? workspaceRoot : undefined;
}

/** Run a session on stdio. Resolves with the process exit code (0 after shutdown+exit). */
export async function runServe(argv: string[], openIndex: IndexOpener): Promise<number> {
  let args: ServeArgs;
  try {
    args = parseServeArgs(argv);
  } catch (e) {
    process.stderr.write(`premise-lsp serve: ${(e as Error).message}\n`);
    return 2;
  }
  let code = 0;
  await serve({
    upstreamSpec: args.upstream,
    flavor: args.flavor,
    engine: engineLoader(args, openIndex),
    stdin: process.stdin,
    stdout: process.stdout,
    restartDelayMs: args.restartDelayMs,
    hangTimeoutMs: args.hangTimeoutMs,
    onExit: (c) => (code = c),
  });
  return code;
}
