/**
 * An index build written beside its destination and moved into place when
 * complete: a build that fails or is interrupted (SIGINT, SIGTERM, a crash)
 * leaves the previous index in the directory as it was, usable; what it had
 * written is removed by the next build into that directory.
 *
 * The build writes into `<out>/.tmp-<pid>` (inside the output directory, which
 * prepareOutDir has checked: same file system, no other permission needed).
 * Moving in: the old manifest (which marks a directory complete) is removed, the
 * new files are renamed over the old ones, index files the new build did not
 * write are removed, and the new manifest comes last. Files in the output
 * directory that are not an index's are left alone.
 */
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareOutDir } from './out-path.js';

/** What an index build may write (the manifest apart); a stale one would be read with the new index. */
const INDEX_FILES = ['premises.bin', 'sparse.bin', 'informal.bin', 'dense.bin', 'dense.usearch', 'external-refs.json', 'deferred-informal.json', 'imports.json'];
const MANIFEST = 'manifest.json';
const STAGING = /^\.tmp-(\d+)$/;

/** Runs `build` on a fresh staging directory and moves what it wrote into `out`; on failure `out` is untouched. */
export async function buildBeside<T>(out: string, build: (dir: string) => Promise<T>): Promise<T> {
  prepareOutDir(out);
  const dest = resolve(out);
  removeStaleStaging(dest);
  const tmp = join(dest, `.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    const result = await build(tmp);
    moveIn(tmp, dest);
    return result;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function moveIn(tmp: string, dest: string): void {
  const written = readdirSync(tmp);
  rmSync(join(dest, MANIFEST), { force: true });
  for (const f of written) if (f !== MANIFEST) renameSync(join(tmp, f), join(dest, f));
  for (const f of INDEX_FILES) if (!written.includes(f)) rmSync(join(dest, f), { force: true });
  renameSync(join(tmp, MANIFEST), join(dest, MANIFEST));
}

/** Staging directories left in `dest` by builds whose process is gone (killed mid-build). */
function removeStaleStaging(dest: string): void {
  for (const n of readdirSync(dest)) {
    const m = STAGING.exec(n);
    if (m && !alive(Number(m[1]))) rmSync(join(dest, n), { recursive: true, force: true });
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
