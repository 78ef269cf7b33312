/**
 * What marks a directory of the automatic index cache as premise-lsp's own: the
 * marker file written into every entry directory (and every build beside one)
 * when it is created, or, for an entry built before markers were written, a
 * premise-lsp index manifest in it. Only marked directories are ever removed
 * (`premise-lsp cache clean`, a dead build's leftovers): a user's directory that
 * merely has an entry's name (a cache root set to `$HOME`) is left alone.
 * Nothing here throws on a missing or unreadable directory.
 */
import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMAT } from './store/index-dir.js';

/** The marker file's name in an entry directory. */
export const ENTRY_MARKER = '.premise-lsp-entry';

/** A manifest larger than this is no entry's (they are a few KiB). */
const MAX_MANIFEST_BYTES = 1 << 20;

/** Mark a directory premise-lsp has just created in the cache root as its own. */
export function markEntryDir(dir: string): void {
  writeFileSync(join(dir, ENTRY_MARKER), 'premise-lsp automatic index cache entry: `premise-lsp cache clean` may remove this directory\n');
}

/** Is `dir` (a real directory, links not followed) marked as premise-lsp's? */
export function isMarkedEntry(dir: string): boolean {
  return isPlainFile(join(dir, ENTRY_MARKER)) || legacyEntry(dir);
}

/** An entry built before markers: its manifest is a premise-lsp index's. */
function legacyEntry(dir: string): boolean {
  const file = join(dir, 'manifest.json');
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > MAX_MANIFEST_BYTES) return false;
    return (JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown } | null)?.format === FORMAT;
  } catch {
    return false;
  }
}

function isPlainFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}
