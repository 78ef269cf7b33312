/**
 * `premise-lsp serve …` from an argv: parse the options, choose the engine, run
 * the session, return the exit code. The CLI's `serve` command calls this with
 * the real index opener.
 */
import type { PremiseSearch } from '../engine/types.js';
import { parseServeArgs, type ServeArgs } from './args.js';
import type { EngineLoader } from './engine-host.js';
import { FixtureEngine } from './fixture-engine.js';
import { serve } from './serve.js';

export type IndexOpener = (indexDir: string) => Promise<PremiseSearch> | PremiseSearch;

/**
 * The engine for a session: `--fake-engine FILE` (tests), else the index from
 * settings or `--index` through `openIndex`, else no premises.
 */
export function engineLoader(args: ServeArgs, openIndex: IndexOpener): EngineLoader {
  return async (opts) => {
    if (args.fakeEngineDelayMs) await new Promise((r) => setTimeout(r, args.fakeEngineDelayMs));
    if (args.fakeEngine) return FixtureEngine.fromFile(args.fakeEngine);
    const index = opts?.index ?? args.index;
    return index ? openIndex(index) : new FixtureEngine([]);
  };
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
