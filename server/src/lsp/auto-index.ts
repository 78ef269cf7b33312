/**
 * The automatic index of a Lean project: its cache entries (dependencies and
 * workspace, see indexes/src/packages.ts), each reused when cached or built by
 * a child `premise-lsp index` process (Mathlib takes minutes and gigabytes: the
 * server must stay responsive), with the child's stderr phases as `$/progress`.
 * Resolves with the index directories to open together.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildDirFor,
  cacheEntries,
  cacheRoot,
  commitBuild,
  encoderKey,
  isComplete,
  lakeProject,
  pruneWorkspaceEntries,
  removeStaleBuilds,
  type CacheEntry,
  type LakeProject,
} from '../../../indexes/src/packages.js';
import { defaultModelDir, packageRoot } from '../paths.js';
import type { Logger } from './log.js';
import type { ProgressReporter } from './progress.js';

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
}

/** Index directories for the project: cached ones reused, missing ones built. Throws when there is nothing to serve. */
export async function autoIndexDirs(opts: AutoIndexOptions): Promise<string[]> {
  const project = lakeProject(opts.root);
  if (typeof project === 'string') throw new Error(`automatic index: ${project}`);
  const encoderDir = opts.encoderDir === null ? undefined : (opts.encoderDir ?? (existsSync(defaultModelDir()) ? defaultModelDir() : undefined));
  const cache = opts.cache ?? cacheRoot();
  const entries = cacheEntries(project, await encoderKey(encoderDir), cache);
  if (!entries.length) throw new Error(`automatic index: ${project.root} has no dependencies and no Lean sources`);
  const dirs: string[] = [];
  const failures: string[] = [];
  for (const entry of entries) {
    if (isComplete(entry)) {
      opts.log.info(`automatic index: using the cached ${entry.kind} index ${entry.dir}`);
      dirs.push(entry.dir);
      continue;
    }
    try {
      await buildEntry(project, entry, cache, encoderDir, opts);
      dirs.push(entry.dir);
    } catch (e) {
      const msg = `automatic index of ${project.name} ${entry.kind} failed: ${(e as Error).message}`;
      opts.log.error(msg);
      failures.push(msg);
    }
  }
  if (!dirs.length) throw new Error(failures.join('; '));
  return dirs;
}

async function buildEntry(project: LakeProject, entry: CacheEntry, cache: string, encoderDir: string | undefined, opts: AutoIndexOptions): Promise<void> {
  mkdirSync(cache, { recursive: true });
  removeStaleBuilds(cache);
  const tmp = buildDirFor(entry);
  rmSync(tmp, { recursive: true, force: true });
  const cli = opts.cli ?? join(packageRoot(), 'dist', 'cli.js');
  const args = [cli, 'index', ...entry.sources, '--out', tmp, ...(encoderDir ? ['--encoder', encoderDir] : ['--no-dense']), ...(entry.packages ? [] : ['--no-packages'])];
  const title = `premise-lsp: indexing ${project.name} ${entry.kind}`;
  opts.log.info(`${title} → ${entry.dir}`);
  const progress = deferred(opts.progress?.(title));
  const t0 = Date.now();
  try {
    const summary = await runIndexer(args, (line) => {
      opts.log.debug(`indexer: ${line}`);
      const phase = /^premise-lsp: (.*?)…?$/.exec(line);
      if (phase) progress.report(phase[1]!);
    });
    if (!commitBuild(tmp, entry)) throw new Error(`could not move the finished index into ${entry.dir}`);
    opts.log.info(`automatic index: ${summary || 'built'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    progress.end(summary ? summary.replace(/ → .*$/, '') : 'done');
    if (entry.kind === 'workspace') pruneWorkspaceEntries(project, entry, cache);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    progress.end(`failed: ${(e as Error).message}`);
    throw e;
  }
}

/** Children still running when the server exits are stopped with it. */
const running = new Set<ReturnType<typeof spawn>>();
let exitHook = false;

/** Run `node cli.js index …`; resolves with its summary line, rejects with its last stderr lines. */
function runIndexer(args: string[], onLine: (line: string) => void): Promise<string> {
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const c of running) c.kill();
    });
  }
  return new Promise((resolve, reject) => {
    // stdout is ignored: ours is the editor's channel
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    running.add(child);
    const tail: string[] = [];
    let summary = '';
    let buf = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line) continue;
        if (line.startsWith('indexed ')) summary = line;
        tail.push(line);
        if (tail.length > 5) tail.shift();
        onLine(line);
      }
    });
    child.on('error', (e) => {
      running.delete(child);
      reject(e);
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve(summary);
      else reject(new Error(`the indexer ${signal ? `was killed (${signal})` : `exited with code ${code}`}${tail.length ? `: ${tail.join(' | ')}` : ''}`));
    });
  });
}

/** A reporter usable at once, attached to the real one when it arrives (the editor may not take requests yet). */
function deferred(p: Promise<ProgressReporter> | undefined): ProgressReporter {
  let real: ProgressReporter | undefined;
  let last: string | undefined;
  let ended: { message?: string } | undefined;
  p?.then(
    (r) => {
      real = r;
      if (ended) r.end(ended.message);
      else if (last !== undefined) r.report(last);
    },
    () => {},
  );
  return {
    report(message) {
      if (real) real.report(message);
      else last = message;
    },
    end(message) {
      if (real) real.end(message);
      else ended = { message };
    },
  };
}
