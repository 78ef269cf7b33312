/**
 * Finds the source files under the directories given to `premise-lsp index`:
 * a Lake project (its own files plus each `.lake/packages/*`), a bare checkout,
 * a tree of Isabelle theories, or single files. Each file gets its module name
 * relative to its package root (`Mathlib/Order/Basic.lean` → `Mathlib.Order.Basic`).
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { Lang } from './record.js';

export interface SourceFile {
  path: string;
  /** Path relative to its package root, `/`-separated. */
  rel: string;
  module: string;
  lang: Lang;
  /** The package root (a source dir or one of its `.lake/packages/*`). */
  root: string;
}

/** Directories never searched: build output, VCS, and Lean repositories' non-library trees. */
const SKIP_DIRS = new Set(['build', 'node_modules', 'test', 'tests', 'MathlibTest', 'Archive', 'Counterexamples', 'scripts', 'docs']);

function langOf(file: string): Lang | undefined {
  if (file.endsWith('.lean')) return 'lean';
  if (file.endsWith('.thy')) return 'isabelle';
  return undefined;
}

function moduleOf(rel: string, lang: Lang): string {
  const noExt = rel.replace(/\.(lean|thy)$/, '');
  return lang === 'lean' ? noExt.split('/').join('.') : basename(noExt);
}

function walkPackage(root: string, out: SourceFile[], seen: Set<string>, warnings: string[]): void {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    let real: string;
    try {
      real = realpathSync(dir);
    } catch (e) {
      warnings.push(`${dir}: ${(e as Error).message}`);
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      warnings.push(`${dir}: ${(e as Error).message}`);
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(dir, e.name);
      const isDir = e.isDirectory() || (e.isSymbolicLink() && safeIsDir(p));
      if (isDir) {
        if (e.name.startsWith('.') || SKIP_DIRS.has(e.name)) continue;
        stack.push(p);
        continue;
      }
      const lang = langOf(e.name);
      if (!lang) continue;
      const rel = relative(root, p).split(sep).join('/');
      out.push({ path: p, rel, module: moduleOf(rel, lang), lang, root });
    }
  }
}

function safeIsDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function discoverSources(inputs: string[]): { files: SourceFile[]; warnings: string[] } {
  const files: SourceFile[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    if (!existsSync(input)) {
      warnings.push(`${input}: no such file or directory`);
      continue;
    }
    if (!safeIsDir(input)) {
      const lang = langOf(input);
      if (lang) files.push({ path: input, rel: basename(input), module: moduleOf(basename(input), lang), lang, root: input });
      else warnings.push(`${input}: not a .lean or .thy file`);
      continue;
    }
    const packages = join(input, '.lake', 'packages');
    if (safeIsDir(packages)) {
      for (const pkg of readdirSync(packages).sort()) {
        if (safeIsDir(join(packages, pkg))) walkPackage(join(packages, pkg), files, seen, warnings);
      }
    }
    walkPackage(input, files, seen, warnings);
  }
  return { files, warnings };
}
