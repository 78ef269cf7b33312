/**
 * Whether a path is in a source tree: a Lake project (a lakefile or
 * `lake-manifest.json`), Isabelle sessions (`ROOT` or `ROOTS`), or a folder with
 * .lean or .thy files within two levels. No index is suggested inside one: its
 * files would land among the user's sources (a suggested `--out` is outside it).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { isLakeProject, safeName } from './packages.js';

export interface SourceTree {
  root: string;
  kind: 'lake' | 'isabelle' | 'sources';
}

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** .lean or .thy files in `dir` or its subfolders, two levels down at most, looking at a few hundred entries. */
function holdsSources(dir: string): boolean {
  let budget = 500;
  const walk = (d: string, depth: number): boolean => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      if (--budget < 0) return false;
      if (e.isFile() && /\.(lean|thy)$/.test(e.name)) return true;
      if (e.isDirectory() && depth < 2 && !e.name.startsWith('.') && walk(resolve(d, e.name), depth + 1)) return true;
    }
    return false;
  };
  return walk(dir, 0);
}

/** The source tree `path` is in or is (looking upward from it, or its nearest existing parent), if any. */
export function sourceTreeOf(path: string): SourceTree | undefined {
  const start = resolve(path);
  for (let d = start; ; d = dirname(d)) {
    if (existsSync(d)) {
      if (isLakeProject(d)) return { root: d, kind: 'lake' };
      if (isFile(resolve(d, 'ROOT')) || isFile(resolve(d, 'ROOTS'))) return { root: d, kind: 'isabelle' };
    }
    if (dirname(d) === d) break;
  }
  if (existsSync(start) && holdsSources(start)) return { root: start, kind: 'sources' };
  return undefined;
}

/** Where to suggest an index of `tree` be written: beside the automatic index cache, never inside the sources. */
export const indexOutsideOf = (tree: SourceTree) => `~/.cache/premise-lsp/${safeName(basename(tree.root))}`;

/** Where to suggest an index be written for `--index DIR`: DIR itself, unless it is in a source tree (then outside it). */
export function indexOutFor(dir: string): string {
  const tree = sourceTreeOf(dir);
  return tree ? indexOutsideOf(tree) : dir;
}
