/**
 * Finds the source files under the directories given to `premise-lsp index`:
 * a Lake project (its own files plus each `.lake/packages/*`, unless told
 * `packages: false`), a bare checkout,
 * a tree of Isabelle theories, or single files. Each file gets its module name
 * relative to its package root (`Mathlib/Order/Basic.lean` → `Mathlib.Order.Basic`).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
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

/** Build scripts, not library code. */
const SKIP_FILES = new Set(['lakefile.lean', 'Lakefile.lean']);

function langOf(file: string): Lang | undefined {
  if (file.endsWith('.lean')) return 'lean';
  if (file.endsWith('.thy')) return 'isabelle';
  return undefined;
}

function moduleOf(rel: string, lang: Lang): string {
  const noExt = rel.replace(/\.(lean|thy)$/, '');
  return lang === 'lean' ? noExt.split('/').join('.') : basename(noExt);
}

const PACKAGE_MARKERS = ['lakefile.lean', 'lakefile.toml', 'Lakefile.lean', 'lean-toolchain'];

/**
 * One source file on its own (an edited document): its language, its package
 * root (the nearest ancestor with a Lake file, for Lean; its folder, for
 * Isabelle) and so its module name, as a whole-tree walk would name it.
 */
export function sourceOf(path: string): SourceFile | undefined {
  const lang = langOf(path);
  if (!lang) return undefined;
  let root = dirname(path);
  if (lang === 'lean') {
    for (let dir = root; ; dir = dirname(dir)) {
      if (PACKAGE_MARKERS.some((m) => existsSync(join(dir, m)))) {
        root = dir;
        break;
      }
      if (dirname(dir) === dir) break;
    }
  }
  const rel = relative(root, path).split(sep).join('/');
  return { path, rel, module: moduleOf(rel, lang), lang, root };
}

function walkPackage(start: string, out: SourceFile[], seen: Set<string>, warnings: string[], skip: string[], root = start): void {
  const stack = [start];
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
        if (isLakeRoot(p)) walkLakePackage(p, out, seen, warnings, skip);
        else stack.push(p);
        continue;
      }
      const lang = langOf(e.name);
      if (!lang || SKIP_FILES.has(e.name)) continue;
      if (!e.isFile() && !isRegularFile(p)) {
        skip.push(`${p}: skipped, not a regular file`);
        continue;
      }
      const rel = relative(root, p).split(sep).join('/');
      out.push({ path: p, rel, module: moduleOf(rel, lang), lang, root });
    }
  }
}

/**
 * The libraries `lake build` builds by default (`@[default_target] lean_lib X`,
 * or `defaultTargets` in lakefile.toml), else every `lean_lib`; undefined when the
 * directory has no lakefile or declares no library, or when its lakefile cannot be
 * read (a warning in `warnings`: the directory is then walked as a plain tree).
 */
export function lakeLibraries(root: string, warnings: string[] = []): string[] | undefined {
  const name = String.raw`«[^»]+»|[A-Za-z_][\w.]*`;
  const unquote = (n: string) => n.replace(/^«|»$/g, '');
  const lean = join(root, 'lakefile.lean');
  const toml = join(root, 'lakefile.toml');
  let all: string[] = [];
  let defaults: string[] = [];
  const read = (file: string): string | undefined => {
    try {
      return readConfigFile(file);
    } catch (e) {
      warnings.push(`${file}: not read (${(e as Error).message}); ${root} walked as a plain directory`);
      return undefined;
    }
  };
  if (existsSync(lean)) {
    const text = read(lean);
    if (text === undefined) return undefined;
    for (const m of text.matchAll(new RegExp(String.raw`(@\[default_target\]\s*)?lean_lib\s+(${name})`, 'g'))) {
      all.push(unquote(m[2]!));
      if (m[1]) defaults.push(unquote(m[2]!));
    }
  } else if (existsSync(toml)) {
    const text = read(toml);
    if (text === undefined) return undefined;
    for (const m of text.matchAll(/\[\[lean_lib\]\]\s*\n\s*name\s*=\s*"([^"]+)"/g)) all.push(m[1]!);
    const dt = /defaultTargets\s*=\s*\[([^\]]*)\]/.exec(text);
    if (dt) defaults = [...dt[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).filter((n) => all.includes(n));
  } else return undefined;
  const libs = defaults.length ? defaults : all;
  return libs.length ? libs : undefined;
}

/** Project files (lakefiles, `lake-manifest.json`, `lean-toolchain`) are small; larger ones are not read. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * A project's configuration file as text. Throws, saying why, for what is not a
 * regular file (a FIFO would block for ever, a directory fails) or is too large.
 */
export function readConfigFile(file: string): string {
  const st = statSync(file);
  if (!st.isFile()) throw new Error(st.isDirectory() ? 'a directory' : 'not a regular file');
  if (st.size > MAX_CONFIG_BYTES) throw new Error('larger than 4 MiB');
  return readFileSync(file, 'utf8');
}

function walkLakePackage(root: string, out: SourceFile[], seen: Set<string>, warnings: string[], skip: string[]): void {
  const libs = lakeLibraries(root, warnings);
  if (!libs) return walkPackage(root, out, seen, warnings, skip);
  for (const lib of libs) {
    const file = join(root, `${lib}.lean`);
    if (isRegularFile(file)) out.push({ path: file, rel: `${lib}.lean`, module: lib, lang: 'lean', root });
    else if (existsSync(file) && !safeIsDir(file)) skip.push(`${file}: skipped, not a regular file`);
    if (safeIsDir(join(root, lib))) walkPackage(join(root, lib), out, seen, warnings, skip, root);
  }
}

/**
 * The Lake packages nested in `dir` that a walk of it treats as package roots of
 * their own (their files' paths are relative to them): directories with a
 * lakefile, not looked into further, in the directories the walk enters.
 */
export function lakeRootsUnder(dir: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries;
    try {
      const real = realpathSync(d);
      if (seen.has(real)) continue;
      seen.add(real);
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const below: string[] = [];
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.name.startsWith('.') || SKIP_DIRS.has(e.name) || !(e.isDirectory() || (e.isSymbolicLink() && safeIsDir(p)))) continue;
      if (isLakeRoot(p)) out.push(p);
      else below.push(p);
    }
    stack.push(...below.reverse()); // looked into in name order
  }
  return out;
}

const isLakeRoot = (dir: string) => existsSync(join(dir, 'lakefile.lean')) || existsSync(join(dir, 'lakefile.toml'));

/** A regular file, after symbolic links (a FIFO or device would block or never end when read). */
function isRegularFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function safeIsDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export interface DiscoverOptions {
  /** Also walk each input's `.lake/packages/*` (default true); false: the project's own sources only. */
  packages?: boolean;
}

/**
 * The source files under `inputs`; `warnings` for inputs that cannot be read, `skipped`
 * for `.lean`/`.thy` entries that are not regular files (FIFOs, devices, sockets), with the reason.
 */
export function discoverSources(inputs: string[], opts: DiscoverOptions = {}): { files: SourceFile[]; warnings: string[]; skipped: string[] } {
  const files: SourceFile[] = [];
  const warnings: string[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    if (!existsSync(input)) {
      warnings.push(`${input}: no such file or directory`);
      continue;
    }
    if (!safeIsDir(input)) {
      const lang = langOf(input);
      if (!lang) warnings.push(`${input}: not a .lean or .thy file`);
      else if (!isRegularFile(input)) skipped.push(`${input}: skipped, not a regular file`);
      else files.push({ path: input, rel: basename(input), module: moduleOf(basename(input), lang), lang, root: input });
      continue;
    }
    const packages = join(input, '.lake', 'packages');
    if (opts.packages !== false && safeIsDir(packages)) {
      let pkgs: string[] = [];
      try {
        pkgs = readdirSync(packages).sort();
      } catch (e) {
        warnings.push(`${packages}: ${(e as Error).message}`);
      }
      for (const pkg of pkgs) {
        if (safeIsDir(join(packages, pkg))) walkLakePackage(join(packages, pkg), files, seen, warnings, skipped);
      }
    }
    walkLakePackage(input, files, seen, warnings, skipped);
  }
  return { files, warnings, skipped };
}
