/**
 * The automatic index cache judged against the projects that use it (for
 * `premise-lsp cache` and `doctor`): an entry is fresh when the automatic index
 * of a project recorded in it (indexes/src/cache-dir.ts) would use it now, stale
 * when none would (its project changed, moved or is gone; a newer encoder or
 * index format), unknown when no project is recorded in it (or none that can
 * be judged), and a build directory is building while its process runs, else a
 * leftover. A directory premise-lsp did not mark as its own is foreign
 * (indexes/src/cache-marker.ts) and is never removed.
 *
 * Judging reads the cache, never runs what it finds there: an Isabelle use is
 * judged by the distribution recorded with it (no command started); one
 * recorded before that is judged by `isabelle` on PATH (the user's own) when it
 * was served with that, else it is unknown. Tests: test/cli/cache-hostile.test.ts,
 * test/protocol/auto-index-isabelle.test.ts.
 *
 * Judging a use walks its project (the workspace key covers its files): only a root premise-lsp
 * could have recorded is walked (`rootRefused`: never the file system's root or a directory
 * holding the home directory, and for a workspace or dependencies entry only the project its own
 * manifest was built from); any other use is unknown (test/unit/cache-dir.test.ts).
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { listEntryDirs, readEntryFile, type EntryDir, type ProjectUse } from '../../../indexes/src/cache-dir.js';
import { isComplete, isLakeProject, type CacheEntry } from '../../../indexes/src/packages.js';
import { theoryFiles } from '../../../indexes/src/isabelle-sessions.js';
import { Logger } from '../lsp/log.js';
import { autoIndexPlan, type AutoIndexOptions, type AutoIndexPlan } from './auto-index.js';

export type EntryState = 'fresh' | 'stale' | 'unknown' | 'building' | 'leftover' | 'foreign';

export interface EntryReport extends EntryDir {
  state: EntryState;
}

export interface CacheReportOptions {
  /** Environment for finding toolchains (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** As in AutoIndexOptions (default: the shipped encoder). */
  encoderDir?: string | null;
}

/** Every entry directory of the cache root with its state. */
export async function cacheReport(cache: string, opts: CacheReportOptions = {}): Promise<EntryReport[]> {
  const plans = new Map<string, Promise<Set<string> | undefined | 'unknown'>>();
  const used = (u: ProjectUse) => {
    const id = JSON.stringify([u.prover, u.root, u.isabelleCommand !== undefined, u.isabelleHome, u.isabelleHomeUser]);
    if (!plans.has(id)) plans.set(id, planDirs(u, cache, opts));
    return plans.get(id)!;
  };
  const out: EntryReport[] = [];
  for (const e of listEntryDirs(cache)) {
    let state: EntryState;
    if (!e.marked) state = 'foreign';
    else if (e.build) state = e.build.running ? 'building' : 'leftover';
    else if (!e.complete) state = 'leftover';
    else if (!e.usedBy.length) state = 'unknown';
    else {
      state = 'stale';
      for (const u of e.usedBy) {
        const dirs = rootRefused(u.root, e, opts.env) ? 'unknown' : await used(u);
        if (dirs === 'unknown') state = state === 'fresh' ? state : 'unknown';
        else if (dirs?.has(resolve(e.dir))) state = 'fresh';
      }
    }
    out.push({ ...e, state });
  }
  return out;
}

const within = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
}

/**
 * Why a root recorded as using `entry` is not walked to judge it, or undefined when it may be:
 * a relative path, the file system's root or a directory holding the home directory (no project
 * premise-lsp indexes; walking it reads the whole disk), or, for an entry of one project's own
 * (workspace, dependencies), a root other than the one its manifest records its sources in.
 */
export function rootRefused(root: string, entry: Pick<EntryDir, 'dir' | 'kind'>, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!isAbsolute(root)) return `${root}: not an absolute path`;
  const real = realOr(root);
  if (dirname(real) === real) return `${root}: the file system's root`;
  const home = realOr(env.HOME || homedir());
  if (real !== home && within(home, real)) return `${root}: a directory that holds the home directory`;
  if (entry.kind !== 'workspace' && entry.kind !== 'dependencies') return undefined;
  let sources: string[] = [];
  try {
    const m = JSON.parse(readEntryFile(join(entry.dir, 'manifest.json'), 1 << 20) ?? 'null') as { sources?: unknown } | null;
    if (Array.isArray(m?.sources)) sources = m.sources.filter((x): x is string => typeof x === 'string').map((x) => resolve(x));
  } catch {
    /* no sources recorded */
  }
  const r = resolve(root);
  const ok = entry.kind === 'workspace' ? sources.includes(r) : sources.length > 0 && sources.every((x) => x !== r && within(x, r));
  return ok ? undefined : `${root}: not the root the entry's manifest records its sources under`;
}

/**
 * The entry directories a project's automatic index would use now (undefined: the project is
 * gone or cannot be indexed; `unknown`: the use cannot be judged without running its command).
 */
async function planDirs(u: ProjectUse, cache: string, opts: CacheReportOptions): Promise<Set<string> | undefined | 'unknown'> {
  if (!existsSync(u.root)) return undefined;
  // never the recorded command: the recorded distribution; else `isabelle` on PATH (the user's own) for a
  // use that was served with it; else no judgement
  let isabelleHome: AutoIndexOptions['isabelleHome'];
  if (u.prover === 'isabelle' && u.isabelleHome !== undefined) {
    isabelleHome = { home: u.isabelleHome, ...(u.isabelleHomeUser !== undefined ? { userHome: u.isabelleHomeUser } : {}) };
  } else if (u.prover === 'isabelle' && u.isabelleCommand !== undefined && u.isabelleCommand !== 'isabelle') {
    return 'unknown';
  }
  try {
    const plan = await autoIndexPlan({ root: u.root, prover: u.prover, ...(isabelleHome ? { isabelleHome } : {}), cache, env: opts.env, encoderDir: opts.encoderDir, log: new Logger(() => {}, 'error') });
    return new Set([...plan.full, ...plan.sparse].map((e) => resolve(e.dir)));
  } catch {
    return undefined;
  }
}

/** What the cache holds of one planned entry: with vectors, sparse-only (served while the vectors are built), or nothing yet. */
export type PlannedState = 'hybrid' | 'sparse-only' | 'missing';

export function plannedStates(plan: AutoIndexPlan): { entry: CacheEntry; state: PlannedState; dir: string }[] {
  return plan.full.map((f, i) => {
    const s = plan.sparse[i]!;
    if (isComplete(f)) return { entry: f, state: 'hybrid' as const, dir: f.dir };
    if (s !== f && isComplete(s)) return { entry: f, state: 'sparse-only' as const, dir: s.dir };
    return { entry: f, state: 'missing' as const, dir: f.dir };
  });
}

/** A project's automatic index options from a directory: a Lake project is Lean, else a directory with an Isabelle `ROOT`/`ROOTS` or theories is Isabelle. */
export function projectOptions(dir: string): Pick<AutoIndexOptions, 'root' | 'prover'> | string {
  const root = resolve(dir);
  if (!existsSync(root)) return `no such directory: ${dir}`;
  return { root, prover: kindOf(root) };
}

function kindOf(root: string): 'lean' | 'isabelle' {
  if (isLakeProject(root)) return 'lean';
  if (existsSync(resolve(root, 'ROOT')) || existsSync(resolve(root, 'ROOTS')) || theoryFiles(root).length) return 'isabelle';
  return 'lean'; // and the plan says it is not a Lake project
}
