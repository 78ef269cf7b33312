/**
 * An index build written beside its destination and moved into place when
 * complete: a build that fails or is interrupted (SIGINT, SIGTERM, a crash)
 * leaves the previous index in the directory as it was, usable; what it had
 * written is removed by the next build into that directory.
 *
 * The build writes into `<out>/.tmp-<pid>` (inside the output directory, which
 * prepareOutDir has checked: same file system, no other permission needed).
 * Moving in keeps the directory openable as the old index or the new one at
 * every step (a kill or power loss between any two leaves one of them):
 *   1. the finished build is renamed to `<out>/.index-<pid>-<n>`;
 *   2. `manifest.json` is replaced (one rename) by the new manifest naming that
 *      directory (`"data"`, ./data-dir.ts): the new index opens from there;
 *   3. each new file is linked beside its place and renamed over the old one,
 *      index files the new build did not write are removed;
 *   4. the new manifest without `"data"` replaces it (one rename): the new
 *      index opens from its usual place; `.index-<pid>` is removed.
 * Files in the output directory that are not an index's are left alone.
 */
import { copyFileSync, linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { prepareOutDir } from './out-path.js';
import { DATA_DIR, dataDir } from './data-dir.js';

/** What an index build may write (the manifest apart); a stale one would be read with the new index. */
const INDEX_FILES = ['premises.bin', 'sparse.bin', 'informal.bin', 'dense.bin', 'dense.usearch', 'mash.bin', 'symbols.bin', 'external-refs.json', 'exports.json', 'deferred-informal.json', 'imports.json'];
const MANIFEST = 'manifest.json';
const STAGING = /^\.tmp-(\d+)$/;

/** The steps of a move-in, for tests that stop it after one (a crash there). */
export type MoveStep = 'staged' | 'pointed' | 'file' | 'removed' | 'manifest';

/** Runs `build` on a fresh staging directory and moves what it wrote into `out`; on failure `out` is untouched. */
export async function buildBeside<T>(out: string, build: (dir: string) => Promise<T>, afterStep?: (step: MoveStep) => void): Promise<T> {
  prepareOutDir(out);
  const dest = resolve(out);
  removeStaleStaging(dest);
  const tmp = join(dest, `.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    const result = await build(tmp);
    moveIn(tmp, dest, afterStep);
    return result;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function moveIn(tmp: string, dest: string, afterStep: (step: MoveStep) => void = () => {}): void {
  const previous = dataDir(dest); // a move cut short before: the index opens from there until this one is pointed at
  let data = join(dest, `.index-${process.pid}-0`);
  for (let i = 1; data === previous; i++) data = join(dest, `.index-${process.pid}-${i}`);
  rmSync(data, { recursive: true, force: true });
  renameSync(tmp, data);
  afterStep('staged');
  const manifest = JSON.parse(readFileSync(join(data, MANIFEST), 'utf8')) as Record<string, unknown>;
  replaceManifest(dest, { ...manifest, data: basename(data) });
  afterStep('pointed');
  const written = readdirSync(data);
  for (const f of written) {
    if (f === MANIFEST) continue;
    const next = join(dest, `${f}.next-${process.pid}`);
    rmSync(next, { force: true });
    try {
      linkSync(join(data, f), next);
    } catch {
      copyFileSync(join(data, f), next); // a file system without hard links
    }
    renameSync(next, join(dest, f));
    afterStep('file');
  }
  for (const f of INDEX_FILES) if (!written.includes(f)) rmSync(join(dest, f), { force: true });
  afterStep('removed');
  replaceManifest(dest, manifest);
  afterStep('manifest');
  rmSync(data, { recursive: true, force: true });
  if (previous !== dest) rmSync(previous, { recursive: true, force: true });
}

/** `manifest.json` replaced in one rename. */
function replaceManifest(dest: string, manifest: Record<string, unknown>): void {
  const tmp = join(dest, `${MANIFEST}.tmp-${process.pid}`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, join(dest, MANIFEST));
}

/**
 * Staging directories left in `dest` by builds whose process is gone (killed
 * mid-build), and moved-in builds whose move was cut short: kept while the
 * manifest still names one (the index opens from there until the next build).
 */
function removeStaleStaging(dest: string): void {
  const inUse = dataDir(dest);
  for (const n of readdirSync(dest)) {
    const m = STAGING.exec(n) ?? DATA_DIR.exec(n);
    if (m && !alive(Number(m[1])) && join(dest, n) !== inUse) rmSync(join(dest, n), { recursive: true, force: true });
  }
}

/** Whether a process of this id runs (a staging or cache build directory named after it is in use). */
export function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
