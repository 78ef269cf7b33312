/**
 * `premise-lsp serve …` from an argv: parse the options, choose the engine, run
 * the session, return the exit code. The CLI's `serve` command calls this with
 * the real index opener.
 */
import { basename, resolve } from 'node:path';
import { indexOutsideOf, sourceTreeOf } from '../../../indexes/src/source-tree.js';
import type { PremiseSearch } from '../engine/types.js';
import { autoIndexDirs, type AutoIndexOptions } from '../indexing/auto-index.js';
import type { ServeArgs } from './args.js';
import type { EngineLoader, LoadRequest } from './engine-host.js';
import { FixtureEngine } from '../engine/open.js';
import { Logger } from './log.js';
import { projectRootAbove } from './project-root.js';
import { serve } from './serve.js';

/**
 * Opens one index directory, or several as one engine (`sparseOnly`: BM25 only, some built without vectors;
 * `sourceRoots`: per directory, where its premises' files are, instead of its manifest's sources;
 * `project`: a Lake project's automatic index, searched with the project weights, engine/fusion.ts).
 */
export type IndexOpener = (
  indexDir: string | string[],
  opts?: { sparseOnly?: boolean; sourceRoots?: Record<string, string[]>; project?: boolean },
) => Promise<PremiseSearch> | PremiseSearch;

/**
 * The engine for a session: `--fake-engine FILE` (tests), else the index from
 * settings or `--index` through `openIndex`, else (setting `autoIndex`) the
 * automatic index of the Lean project (`--lean ROOT`, else the Lake project at
 * or above the editor's workspace folder: project-root.ts), else no premises
 * (`onProject` hears which).
 */
export function engineLoader(args: ServeArgs, openIndex: IndexOpener): EngineLoader {
  return async (opts) => {
    if (args.fakeEngineDelayMs) await new Promise((r) => setTimeout(r, args.fakeEngineDelayMs));
    if (args.fakeEngine) return FixtureEngine.fromFile(args.fakeEngine);
    const index = opts?.index ?? args.index;
    if (index) {
      try {
        return await openIndex(index);
      } catch (e) {
        throw new Error(`${(e as Error).message}. ${INDEX_FIX(index)}`);
      }
    }
    if (opts?.autoIndex === false) return new FixtureEngine([]);
    const log = opts?.log ?? new Logger();
    if (args.flavor === 'isabelle') {
      // an Isabelle session: the workspace (the nearest ROOT/ROOTS folder, else the folder itself) with HOL and the registered libraries
      if (!opts?.workspaceRoot) {
        opts?.onProject?.(undefined);
        return new FixtureEngine([]);
      }
      const root = projectRootAbove(opts.workspaceRoot, 'isabelle') ?? opts.workspaceRoot;
      opts.onProject?.(root);
      const cmd = args.upstream?.command;
      return autoIndexEngine({ root, prover: 'isabelle', isabelleCommand: cmd && basename(cmd) === 'isabelle' ? cmd : undefined }, log, openIndex, opts);
    }
    const root = autoIndexRoot(args.leanRoot, opts?.workspaceRoot);
    opts?.onProject?.(root);
    if (!root) return new FixtureEngine([]);
    return autoIndexEngine({ root }, log, openIndex, opts);
  };
}

/** How to mend an index that cannot be opened (shown to the user with the error); never an index written among the sources. */
const INDEX_FIX = (index: string) => {
  const tree = sourceTreeOf(index);
  const build = tree ? `build an index outside the sources with \`premise-lsp index ${tree.root} --out ${indexOutsideOf(tree)}\` and set \`index\` to it` : `build the index with \`premise-lsp index --out ${index} <sources>\``;
  return `To fix it, ${build}, or correct the \`index\` setting (or --index); without one, premise-lsp indexes the project itself.`;
};

/** How to mend an automatic index that could not be built (shown to the user with the error). */
export const AUTO_INDEX_FIX =
  'To fix it, correct what the message names and restart the language server (premise-lsp builds the automatic index again), or set `index` to an index built with `premise-lsp index --out <dir> <sources>`.';

/**
 * The automatic index as an engine: the sparse-only one as soon as every entry
 * is extracted, upgraded (through `upgrade`) to the hybrid one when the vectors
 * are built; or the hybrid one at once when the cache has it.
 */
function autoIndexEngine(what: Pick<AutoIndexOptions, 'root' | 'prover' | 'isabelleCommand'>, log: Logger, openIndex: IndexOpener, opts: LoadRequest | undefined): Promise<PremiseSearch> {
  // a Lean project's automatic index takes the project weights; an Isabelle workspace keeps its own
  const project = what.prover !== 'isabelle';
  return new Promise((resolveFirst, rejectFirst) => {
    let first: Promise<PremiseSearch> | undefined;
    const build = autoIndexDirs({
      ...what,
      log,
      progress: opts?.progress,
      onSparse: (dirs, sourceRoots) => {
        first = Promise.resolve(openIndex(dirs, { sparseOnly: true, sourceRoots, project }));
        first.then(resolveFirst, rejectFirst);
      },
    });
    const failed = (e: unknown) => (e as Error).message.replace(/\.?$/, `. ${AUTO_INDEX_FIX}`);
    build.then(
      async ({ dirs, roots: sourceRoots, hybrid, failures }) => {
        if (failures.length) log.alert('warn', `${failures.join('; ')}; premise-lsp serves the rest${hybrid ? '' : ' (BM25 only where the vectors are missing)'}. ${AUTO_INDEX_FIX}`);
        if (!first && hybrid && opts?.upgrade) {
          // from the cache: BM25 first (the vectors and the encoder take as long again to load), then hybrid
          first = Promise.resolve(openIndex(dirs, { sparseOnly: true, sourceRoots, project }));
          first.then(resolveFirst, rejectFirst);
        }
        if (!first) return resolveFirst(await openIndex(dirs, { sparseOnly: !hybrid, sourceRoots, project }));
        if (!hybrid) return; // the sparse-only engine stays
        await first.catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50)); // requests waiting for the first engine are answered before the long read
        const full = await openIndex(dirs, { sourceRoots, project });
        if (opts?.upgrade) opts.upgrade(full);
        else log.info('automatic index: hybrid index ready (takes effect on the next load)');
      },
      (e) => {
        if (!first) rejectFirst(new Error(failed(e)));
        else log.alert('error', `automatic index: ${failed(e)}`);
      },
    ).catch((e) => {
      if (!first) rejectFirst(new Error(failed(e)));
      else log.alert('error', `automatic index: could not open the hybrid index: ${failed(e)}`);
    });
  });
}

/** The project to index automatically: `--lean ROOT`, else the Lake project at or above the workspace folder. */
export function autoIndexRoot(leanRoot: string | undefined, workspaceRoot: string | undefined): string | undefined {
  if (leanRoot) return resolve(leanRoot);
  return workspaceRoot ? projectRootAbove(workspaceRoot, 'lean') : undefined;
}

/** Run a session on stdio (`args` from parseServeArgs). Resolves with the process exit code (0 after shutdown+exit). */
export async function runServe(args: ServeArgs, openIndex: IndexOpener): Promise<number> {
  let code = 0;
  await serve({
    upstreamSpec: args.upstream,
    flavor: args.flavor,
    engine: engineLoader(args, openIndex),
    stdin: process.stdin,
    stdout: process.stdout,
    restartDelayMs: args.restartDelayMs,
    hangTimeoutMs: args.hangTimeoutMs,
    initializeTimeoutMs: args.initializeTimeoutMs,
    projectCommands: args.projectCommands,
    stopOnSignals: ['SIGTERM', 'SIGINT', 'SIGHUP'],
    onExit: (c) => (code = c),
  });
  return code;
}
