/**
 * The automatic index of a Lean project (cache entries: toolchain library,
 * dependencies, workspace; see indexes/src/packages.ts) or of an Isabelle
 * workspace (HOL, registered libraries such as the AFP, the workspace's own
 * sessions; see indexes/src/isabelle-sessions.ts): each entry reused when
 * cached or built by child `premise-lsp index` processes (Mathlib takes minutes
 * and gigabytes: the server must stay responsive), whose JSON-lines progress
 * channel (`--progress-fd 3`) becomes `$/progress`.
 *
 * Premises come in two steps: every missing entry is first built sparse-only
 * (extraction + formal BM25, each entry's references resolved against the
 * entries before it; the informal field deferred when an encoder will follow)
 * and served at once through `onSparse`; then a second child adds the informal
 * field and the dense side from the finished sparse index (no second
 * extraction), the sparse-only entry is removed, and the full directories are
 * the result.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  buildDirFor,
  cacheEntries,
  cacheRoot,
  commitBuild,
  encoderKey,
  entryRoots,
  isComplete,
  lakeProject,
  leanToolchain,
  pruneWorkspaceEntries,
  removeStaleBuilds,
  workspaceFilesAsync,
  isDir,
  safeName,
  type CacheEntry,
} from '../../../indexes/src/packages.js';
import { noteUse } from '../../../indexes/src/cache-dir.js';
import { markEntryDir } from '../../../indexes/src/cache-marker.js';
import { homeFromCommand, isabelleDistribution, isabelleEntries, parseGetenv, theoryFilesAsync } from '../../../indexes/src/isabelle-sessions.js';
import { defaultModelDir, packageRoot } from '../paths.js';
import type { Logger } from '../lsp/log.js';
import type { ProgressReporter } from '../lsp/progress.js';

export interface AutoIndexOptions {
  /** The Lake project root. */
  root: string;
  log: Logger;
  /** Opens a progress report (default: none). */
  progress?: (title: string) => Promise<ProgressReporter>;
  /** Cache root (default from the environment, see cacheRoot). */
  cache?: string;
  /** The built CLI (default `<package>/dist/cli.js`). */
  cli?: string;
  /** Encoder directory; default the shipped model if present, null = BM25 only. */
  encoderDir?: string | null;
  /** Environment for finding the toolchain (`ELAN_HOME`, `PATH`; default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * Called once, when every entry has at least its sparse-only index and some
   * still lack the dense side, with the directories to serve meanwhile (and their source roots).
   */
  onSparse?: (dirs: string[], roots: Record<string, string[]>) => void;
  /** Each indexer child's peak resident memory, in bytes (benchmarks). */
  onPeakMemory?: (bytes: number) => void;
  /** `isabelle`: the root is an Isabelle workspace (default: a Lake project). */
  prover?: 'lean' | 'isabelle';
  /** The command that starts Isabelle (default `isabelle` on PATH): asked for `getenv ISABELLE_HOME`. */
  isabelleCommand?: string;
  /**
   * The Isabelle distribution as a cache entry recorded it (`ProjectUse`): taken as it is, no
   * command run (a reader of the cache never starts what it finds there).
   */
  isabelleHome?: { home: string; userHome?: string };
}

/** What to index: a name for the workspace, its root, and its cache entries for an encoder id. */
interface Plan {
  name: string;
  root: string;
  entries: (encoderId: string) => CacheEntry[];
  /** The Isabelle distribution found (recorded with each use of an entry). */
  isabelleHome?: { home: string; userHome?: string };
}

async function leanPlan(opts: AutoIndexOptions, cache: string, env: NodeJS.ProcessEnv): Promise<Plan> {
  const project = lakeProject(opts.root);
  if (typeof project === 'string') throw new Error(`automatic index: ${project}`);
  for (const r of project.refusedPackages ?? []) opts.log.warn(`automatic index: ${r}`);
  const toolchain = leanToolchain(project, env) ?? leanToolchain(project, env, await leanPrefix(env));
  if (toolchain) opts.log.info(`automatic index: the toolchain library of ${toolchain.name} is at ${toolchain.dir}`);
  else opts.log.info(`automatic index: no Lean toolchain sources found (lean-toolchain: ${project.toolchain ?? 'none'}); Init and Std are not indexed`);
  // walked once for every key, in slices: the editor's requests are answered meanwhile (a lakefile of many libraries took seconds;
  // test/unit/auto-index-plan.test.ts)
  const files = await workspaceFilesAsync(project);
  return { name: project.name, root: project.root, entries: (id) => cacheEntries(project, id, cache, toolchain, files) };
}

async function isabellePlan(opts: AutoIndexOptions, cache: string, env: NodeJS.ProcessEnv): Promise<Plan> {
  const root = resolve(opts.root);
  if (!isDir(root)) throw new Error(`automatic index: ${root} is not a directory`);
  const command = opts.isabelleCommand ?? 'isabelle';
  const recorded = opts.isabelleHome;
  const vars = recorded
    ? { ISABELLE_HOME: recorded.home, ...(recorded.userHome ? { ISABELLE_HOME_USER: recorded.userHome } : {}) }
    : parseGetenv(await output(command, ['getenv', 'ISABELLE_HOME', 'ISABELLE_HOME_USER'], env));
  const home = vars.ISABELLE_HOME ?? (recorded ? undefined : homeFromCommand(command));
  const dist = home ? isabelleDistribution(home, vars.ISABELLE_HOME_USER) : undefined;
  if (dist) opts.log.info(`automatic index: Isabelle ${dist.version} at ${dist.home}`);
  else opts.log.info(`automatic index: no Isabelle distribution found (\`${command} getenv ISABELLE_HOME\` did not name one with src/HOL); HOL is not indexed`);
  const isabelleHome = dist ? { home: dist.home, ...(dist.userHome ? { userHome: dist.userHome } : {}) } : undefined;
  const files = await theoryFilesAsync(root); // walked once, in slices (as leanPlan)
  return { name: safeName(basename(root)), root, entries: (id) => isabelleEntries(root, dist, id, cache, files), ...(isabelleHome ? { isabelleHome } : {}) };
}

/** The stdout of a short command, or '' when it cannot be run. */
function output(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done) => {
    execFile(command, args, { env, encoding: 'utf8', timeout: 30_000 }, (err, stdout) => done(err ? '' : stdout));
  });
}

const LIBRARY_TITLE: Partial<Record<CacheEntry['kind'], string>> = {
  toolchain: 'the Lean toolchain library',
  hol: 'the Isabelle/HOL library',
  afp: 'the registered Isabelle libraries',
};
const entryTitle = (plan: { name: string }, e: CacheEntry) => LIBRARY_TITLE[e.kind] ?? `${plan.name} ${e.kind}`;

export interface AutoIndex {
  dirs: string[];
  /** Each directory's source roots (engine `sourceRoots`: the toolchain entry's files are under the toolchain, not the links it was built from). */
  roots: Record<string, string[]>;
  /** Every directory has the dense side (false: some entry could only be built sparse-only; open them BM25-only). */
  hybrid: boolean;
  /** Each directory's entry kind (`workspace`: the project's own sources; the others are what it builds on). */
  kinds: Record<string, CacheEntry['kind']>;
  /** The entries that could not be built (each already logged), served without them or BM25-only. */
  failures: string[];
}

/** The cache entries a project's automatic index is made of, as the server would use them; nothing is built. */
export interface AutoIndexPlan {
  /** The project's name (the first part of its entries' directory names) and root. */
  name: string;
  root: string;
  prover: 'lean' | 'isabelle';
  cache: string;
  encoderDir: string | undefined;
  /** The entries with the dense side, in build order. */
  full: CacheEntry[];
  /** The same entries built sparse-only first (the informal field deferred; `full` itself without an encoder). */
  sparse: CacheEntry[];
  /** An Isabelle workspace: the distribution found. */
  isabelleHome?: { home: string; userHome?: string };
}

/** The entries of the project's automatic index (the toolchain or Isabelle distribution found as the server finds them). Throws when the project has nothing to index. */
export async function autoIndexPlan(opts: AutoIndexOptions): Promise<AutoIndexPlan> {
  const encoderDir = opts.encoderDir === null ? undefined : (opts.encoderDir ?? (existsSync(defaultModelDir()) ? defaultModelDir() : undefined));
  const cache = opts.cache ?? cacheRoot();
  const env = opts.env ?? process.env;
  const plan = opts.prover === 'isabelle' ? await isabellePlan(opts, cache, env) : await leanPlan(opts, cache, env);
  const full = plan.entries(await encoderKey(encoderDir));
  // with an encoder, the first step's entries leave the informal field to the dense step (their own key: they are not a BM25-only index)
  const sparse = encoderDir ? plan.entries(STAGED_KEY) : full;
  if (!full.length) {
    throw new Error(`automatic index: ${plan.root} has ${opts.prover === 'isabelle' ? 'no theories and no Isabelle distribution' : 'no dependencies and no Lean sources'}`);
  }
  return { name: plan.name, root: plan.root, prover: opts.prover ?? 'lean', cache, encoderDir, full, sparse, ...(plan.isabelleHome ? { isabelleHome: plan.isabelleHome } : {}) };
}

/** Index directories for the project: cached ones reused, missing ones built. Throws when there is nothing to serve. */
export async function autoIndexDirs(opts: AutoIndexOptions): Promise<AutoIndex> {
  const plan = await autoIndexPlan(opts);
  const { cache, encoderDir, full, sparse } = plan;
  const ctx: BuildContext = { project: plan, cache, encoderDir, opts };
  // each entry served records this project (`premise-lsp cache list|clean` judge entries by it)
  const home = plan.isabelleHome;
  const user = {
    root: plan.root,
    prover: plan.prover,
    ...(opts.isabelleCommand ? { isabelleCommand: opts.isabelleCommand } : {}),
    ...(home ? { isabelleHome: home.home, ...(home.userHome ? { isabelleHomeUser: home.userHome } : {}) } : {}),
  };
  const noteUses = (ds: (string | undefined)[]) => ds.forEach((d) => d && noteUse(d, user));

  // step 1: every entry served, sparse-only where the full one is missing
  const dirs: (string | undefined)[] = [];
  const failures: string[] = [];
  for (let i = 0; i < full.length; i++) {
    const f = full[i]!;
    const s = sparse[i]!;
    if (isComplete(f) || isComplete(s)) {
      const dir = isComplete(f) ? f.dir : s.dir;
      opts.log.info(`automatic index: using the cached ${f.kind} index ${dir}`);
      dirs.push(dir);
      continue;
    }
    try {
      await buildEntry(ctx, s, 'index', indexArgs(s, dirs.filter((d): d is string => !!d), !!encoderDir));
      dirs.push(s.dir);
    } catch (e) {
      failures.push(fail(ctx, f, e));
      dirs.push(undefined);
    }
  }
  if (!dirs.some((d) => d)) throw new Error(failures.join('; '));
  noteUses(dirs);
  const rootsNow = () => Object.fromEntries(dirs.flatMap((d, i) => (d ? [[d, entryRoots(full[i]!)]] : [])));
  const kindsNow = () => Object.fromEntries(dirs.flatMap((d, i) => (d ? [[d, full[i]!.kind]] : [])));

  // step 2: the dense side of every sparse-only entry
  const pending = full.flatMap((f, i) => (dirs[i] && dirs[i] !== f.dir ? [i] : []));
  let hybrid = true;
  if (pending.length && encoderDir) {
    opts.onSparse?.(dirs.filter((d): d is string => !!d), rootsNow());
    for (const i of pending) {
      const f = full[i]!;
      try {
        await buildEntry(ctx, f, 'embed', ['--dense-from', dirs[i]!, '--encoder', encoderDir]);
        rmSync(dirs[i]!, { recursive: true, force: true });
        dirs[i] = f.dir;
      } catch (e) {
        failures.push(fail(ctx, f, e)); // the sparse-only entry keeps serving
        hybrid = false;
      }
    }
  }
  noteUses(pending.map((i) => dirs[i]));
  return { dirs: dirs.filter((d): d is string => !!d), roots: rootsNow(), hybrid, failures, kinds: kindsNow() };
}

interface BuildContext {
  project: { name: string; root: string };
  cache: string;
  encoderDir: string | undefined;
  opts: AutoIndexOptions;
}

function fail(ctx: BuildContext, entry: CacheEntry, e: unknown): string {
  const msg = `automatic index of ${entryTitle(ctx.project, entry)} failed: ${(e as Error).message}`;
  ctx.opts.log.error(msg);
  return msg;
}

/** Encoder id in the keys of first-step entries built to be upgraded (formal BM25 only, the informal field deferred). */
export const STAGED_KEY = 'none+deferred-informal';

/** `index` arguments for a sparse-only build of an entry, its references resolved against `earlier`; `staged`: the informal field left to the dense step. */
function indexArgs(entry: CacheEntry, earlier: string[], staged: boolean): string[] {
  return [
    ...(entry.links ? [] : entry.sources),
    // the directory of links the toolchain entry is built from is ours: its links lead out of it by design
    ...(entry.links ? ['--follow-links'] : []),
    '--no-dense',
    ...(staged ? ['--defer-informal'] : []),
    ...(entry.packages ? [] : ['--no-packages']),
    ...earlier.flatMap((d) => ['--resolve-against', d]),
  ];
}

const PHASE_LABEL: Record<string, string> = {
  extract: 'extracting declarations',
  informal: 'indexing the English side',
  embed: 'embedding premises',
  ann: 'building the vector graph',
  write: 'writing the index',
};

async function buildEntry(ctx: BuildContext, entry: CacheEntry, step: 'index' | 'embed', args: string[]): Promise<void> {
  const { cache, opts, project } = ctx;
  mkdirSync(cache, { recursive: true });
  removeStaleBuilds(cache);
  const tmp = buildDirFor(entry);
  rmSync(tmp, { recursive: true, force: true });
  // marked as ours from the start: only marked directories are ever removed from the cache root
  mkdirSync(tmp);
  markEntryDir(tmp);
  // the toolchain's libraries, under their module names (Init/…, Std/…), in a directory of links
  const linkDir = entry.links && step === 'index' ? `${entry.dir}.src.tmp-${process.pid}` : undefined; // removed with stale builds after a crash
  if (linkDir) {
    rmSync(linkDir, { recursive: true, force: true });
    mkdirSync(linkDir, { recursive: true });
    markEntryDir(linkDir);
    for (const [name, target] of Object.entries(entry.links!)) symlinkSync(target, join(linkDir, name));
  }
  const cli = opts.cli ?? join(packageRoot(), 'dist', 'cli.js');
  const title = `premise-lsp: ${step === 'index' ? 'indexing' : 'adding vectors to'} ${entryTitle(project, entry)}`;
  opts.log.info(`${title} → ${entry.dir}`);
  const progress = deferred(opts.progress?.(title));
  const t0 = Date.now();
  try {
    const done = await runIndexer([cli, 'index', ...(linkDir && step === 'index' ? [linkDir] : []), ...args, '--out', tmp, '--progress-fd', '3'], (e) => {
      if (e.event === 'progress' && typeof e.phase === 'string') {
        const total = Number(e.total) || 0;
        const pct = total > 1 ? Math.floor((100 * Number(e.done)) / total) : undefined;
        progress.report(`${PHASE_LABEL[e.phase] ?? e.phase}${total > 1 ? ` ${e.done}/${total}` : ''}`, pct);
      }
    });
    if (!commitBuild(tmp, entry)) throw new Error(`could not move the finished index into ${entry.dir}`);
    const summary = done ? `${done.declarations} declarations${done.dense ? '' : ', sparse only'}` : 'built';
    const peak = done && typeof done.peakRssBytes === 'number' ? `, peak memory ${Math.round(done.peakRssBytes / 2 ** 20)} MB` : '';
    opts.log.info(`automatic index: ${entry.kind} ${summary} (${((Date.now() - t0) / 1000).toFixed(1)} s${peak})`);
    if (done && typeof done.peakRssBytes === 'number') opts.onPeakMemory?.(done.peakRssBytes);
    progress.end(summary);
    if (entry.kind === 'workspace') pruneWorkspaceEntries(project, entry, cache);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    progress.end(`failed: ${(e as Error).message}`);
    throw e;
  } finally {
    if (linkDir) rmSync(linkDir, { recursive: true, force: true });
  }
}

/** `lean --print-prefix`, when `lean` is on PATH (elan's proxy answers for the default toolchain); undefined otherwise. */
function leanPrefix(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('lean', ['--print-prefix'], { env, encoding: 'utf8', timeout: 30_000 }, (err, stdout) => resolve(err ? undefined : stdout.trim() || undefined));
  });
}

/** One event of the indexer's progress channel (server/src/cli/progress-fd.ts). */
type IndexerEvent = { event?: unknown; phase?: unknown; done?: unknown; total?: unknown; declarations?: unknown; dense?: unknown; peakRssBytes?: unknown };

/** Children still running when the server exits are stopped with it. */
const running = new Set<ReturnType<typeof spawn>>();
let exitHook = false;

/**
 * Run `node cli.js index …` with its progress channel on fd 3; resolves with its
 * `done` event, rejects with its exit status and last stderr lines.
 */
function runIndexer(args: string[], onEvent: (e: IndexerEvent) => void): Promise<IndexerEvent | undefined> {
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const c of running) c.kill();
    });
  }
  return new Promise((resolve, reject) => {
    // stdout is ignored: ours is the editor's channel
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    running.add(child);
    const tail: string[] = [];
    let done: IndexerEvent | undefined;
    lines(child.stderr!, (line) => {
      tail.push(line);
      if (tail.length > 5) tail.shift();
    });
    lines(child.stdio[3] as NodeJS.ReadableStream, (line) => {
      let e: IndexerEvent;
      try {
        e = JSON.parse(line) as IndexerEvent;
      } catch {
        return; // not ours: ignored
      }
      if (typeof e !== 'object' || e === null) return;
      if (e.event === 'done') done = e;
      onEvent(e);
    });
    child.on('error', (e) => {
      running.delete(child);
      reject(e);
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve(done);
      else reject(new Error(`the indexer ${signal ? `was killed (${signal})` : `exited with code ${code}`}${tail.length ? `: ${tail.join(' | ')}` : ''}`));
    });
  });
}

function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) onLine(line);
    }
  });
}

/** A reporter usable at once, attached to the real one when it arrives (the editor may not take requests yet). */
function deferred(p: Promise<ProgressReporter> | undefined): ProgressReporter {
  let real: ProgressReporter | undefined;
  let last: [string, number | undefined] | undefined;
  let ended: { message?: string } | undefined;
  p?.then(
    (r) => {
      real = r;
      if (ended) r.end(ended.message);
      else if (last !== undefined) r.report(...last);
    },
    () => {},
  );
  return {
    report(message, percentage) {
      if (real) real.report(message, percentage);
      else last = [message, percentage];
    },
    end(message) {
      if (real) real.end(message);
      else ended = { message };
    },
  };
}
