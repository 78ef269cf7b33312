/**
 * Where an indexed premise's source file is on disk. A premise's `file` is
 * relative to the package root it was read under (extract/walk.ts): a source
 * given to `index`, one of that source's `.lake/packages/*`, a Lake package
 * nested in a source directory, or, for a single file given on its own, that file. `SourcePaths` maps `file` back to an
 * absolute path: the first of the roots under which it is a regular file (nested
 * Lake packages, found by a walk of the sources, only asked when no other root has it),
 * never a path outside that root (an index whose `file` is absolute, climbs
 * with `..` or is not a plain relative path gets none). Answers, found or not,
 * are cached per file for the roots it was made with.
 */
import { readdirSync, statSync } from 'node:fs';
import { lakeRootsUnder } from './extract/walk.js';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** One root: a directory the file is relative to, or a single source file (its `file` is its base name). */
interface Root {
  path: string;
  single: boolean;
}

function stat(p: string) {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/** `file` as an index records it: relative, `/`-separated, no empty, `.` or `..` part, no backslash or NUL. */
export function isPlainRelative(file: string): boolean {
  if (!file || file.includes('\0') || file.includes('\\') || isAbsolute(file) || /^[A-Za-z]:/.test(file)) return false;
  return file.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * The package roots a build walked for `sources`, in the order the walk takes
 * them: each directory's `.lake/packages/*` (sorted), then the directory
 * itself; a source that is a file stands for itself.
 */
function rootsOf(sources: readonly string[]): Root[] {
  const out: Root[] = [];
  for (const s of sources) {
    if (!isAbsolute(s)) continue; // relative to what? (`index` records absolute paths)
    const src = resolve(s);
    const st = stat(src);
    if (!st) continue;
    if (!st.isDirectory()) {
      out.push({ path: src, single: true });
      continue;
    }
    const packages = join(src, '.lake', 'packages');
    let names: string[] = [];
    try {
      names = readdirSync(packages).sort();
    } catch {
      // no packages
    }
    for (const n of names) if (stat(join(packages, n))?.isDirectory()) out.push({ path: join(packages, n), single: false });
    out.push({ path: src, single: false });
  }
  return out;
}

/** Lake packages nested in the source directories (their own roots; the walk's order). */
function nestedRootsOf(roots: readonly Root[], sources: readonly string[]): Root[] {
  const dirs = new Set(roots.filter((r) => !r.single).map((r) => r.path));
  const out: Root[] = [];
  for (const s of sources) {
    const src = resolve(s);
    if (!dirs.has(src)) continue;
    for (const p of lakeRootsUnder(src)) if (!dirs.has(p)) out.push({ path: p, single: false });
  }
  return out;
}

export class SourcePaths {
  private roots?: Root[];
  private nested?: Root[];
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly sources: readonly string[]) {}

  /** The absolute path of an indexed `file`, or undefined when it is under none of the roots (or is not a plain relative path). */
  resolve(file: string): string | undefined {
    const known = this.cache.get(file);
    if (known !== undefined) return known ?? undefined;
    const found = this.find(file);
    this.cache.set(file, found ?? null);
    return found;
  }

  private find(file: string): string | undefined {
    if (typeof file !== 'string' || !isPlainRelative(file)) return undefined;
    this.roots ??= rootsOf(this.sources);
    const found = this.under(this.roots, file);
    if (found) return found;
    this.nested ??= nestedRootsOf(this.roots, this.sources);
    return this.under(this.nested, file);
  }

  private under(roots: readonly Root[], file: string): string | undefined {
    for (const root of roots) {
      if (root.single) {
        if (file === basename(root.path) && stat(root.path)?.isFile()) return root.path;
        continue;
      }
      const p = join(root.path, file);
      const rel = relative(root.path, p);
      if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue; // kept even if isPlainRelative were wrong
      if (stat(p)?.isFile()) return p;
    }
    return undefined;
  }
}
