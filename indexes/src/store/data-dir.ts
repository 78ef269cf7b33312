/**
 * Where an index directory's files are. Normally the directory itself; while a
 * new build is being moved in (./staging.ts), its manifest names the complete
 * new build beside it (`"data": ".index-<pid>-<n>"`), so that the directory opens
 * as the old index or as the new one at every step, never as a mix. Only that
 * form of name is followed: a manifest never sends a reader elsewhere.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The name of a build moved in beside the index it replaces. */
export const DATA_DIR = /^\.index-(\d+)-\d+$/;

/** The directory holding the index files of `dir`, given its manifest's `data` (undefined: `dir` itself); throws on a name that is not `.index-<pid>-<n>`. */
export function dataDirOf(dir: string, data: unknown): string {
  if (data === undefined) return dir;
  if (typeof data !== 'string' || !DATA_DIR.test(data)) throw new Error(`manifest.json: "data" ${JSON.stringify(data)} is not a build directory name`);
  return join(dir, data);
}

/** The same, reading the manifest (`dir` itself when it cannot be read: the caller's own reading then fails or finds nothing). */
export function dataDir(dir: string): string {
  let data: unknown;
  try {
    data = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { data?: unknown }).data;
  } catch {
    return dir;
  }
  try {
    return dataDirOf(dir, data);
  } catch {
    return dir;
  }
}
