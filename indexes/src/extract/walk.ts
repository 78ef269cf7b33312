/**
 * Finds the source files under the directories given to `premise-lsp index`:
 * a Lake project (its own files plus each `.lake/packages/*`, unless told
 * `packages: false`), a bare checkout,
 * a tree of Isabelle theories, or single files. Each file gets its module name
 * relative to its package root (`Mathlib/Order/Basic.lean` → `Mathlib.Order.Basic`),
 * also when the directory given is inside the package (`moduleRootOf`: `<mathlib4>/Mathlib`
 * still names `Mathlib.Order.Basic`); its path (`rel`) stays relative to the root walked.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { leanLakefileSteps, tomlLakefileSteps, type LakefileLibraries } from './lakefile.js';
import { runSteps, runStepsAsync, type Steps } from './steps.js';
import type { Lang } from './record.js';
import { importSyntax, leanModuleSyntax } from './module-names.js';

export interface SourceFile {
  path: string;
  /** Path relative to `root`, `/`-separated (a premise's `file`). */
  rel: string;
  /** The module name, counted from the package root (which is above `root` for a subdirectory of a package given to `index`). */
  module: string;
  lang: Lang;
  /** The root walked (a source dir, one of its `.lake/packages/*`, a Lake package nested in it). */
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

/** A file's module (Lean: its path as a dotted name, after `prefix`, the walked root's own module path) or theory (its base name). */
function moduleOf(rel: string, lang: Lang, prefix = ''): string {
  const noExt = rel.replace(/\.(lean|thy)$/, '');
  if (lang !== 'lean') return basename(noExt);
  const name = noExt.split('/').join('.');
  return prefix ? `${prefix}.${name}` : name;
}

/**
 * A file whose module name no import can write (a newline, a quote, a `»`: see
 * `module-names.ts`) is not indexed: it is skipped with the reason, and counted.
 * Returns whether the file may be added.
 */
function importable(p: string, module: string, lang: Lang, w: Walk): boolean {
  if (importSyntax(module, lang) !== undefined) return true;
  w.skip.push(`${JSON.stringify(p)}: skipped, its ${lang === 'lean' ? 'module' : 'theory'} name ${JSON.stringify(module)} cannot be written in an import`);
  return false;
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
  const root = (lang === 'lean' && packageRootAt(dirname(path))) || dirname(path);
  const rel = relative(root, path).split(sep).join('/');
  return { path, rel, module: moduleOf(rel, lang), lang, root };
}

/** The nearest directory, `dir` or above it, that holds a Lake file (PACKAGE_MARKERS); only their existence is looked at. */
function packageRootAt(dir: string): string | undefined {
  for (;; dir = dirname(dir)) {
    if (PACKAGE_MARKERS.some((m) => existsSync(join(dir, m)))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Where the module names of a source directory given to `index` count from, as Lean
 * names them: the directory itself when it is a package (a Lake file in it); else the
 * nearest directory above it with one (`<mathlib4>/Mathlib` → `<mathlib4>`: modules
 * `Mathlib.…`); else, outside any package, the highest directory reached by going up
 * while the parent holds a library's root file of the directory's name (a toolchain's
 * `src/lean/Init` → `src/lean`, since `src/lean/Init.lean` exists). Undefined when the
 * directory is its own root. Only the existence of files above it is looked at: nothing
 * outside the directory is read or walked. `prefix`: the directory's own module path.
 * Test: test/unit/walk.test.ts.
 */
export function moduleRootOf(input: string): { root: string; prefix: string; why: string } | undefined {
  const dir = resolve(input);
  if (PACKAGE_MARKERS.some((m) => existsSync(join(dir, m)))) return undefined;
  let root = dirname(dir) === dir ? undefined : packageRootAt(dirname(dir));
  let why = 'the nearest Lake package above it';
  if (!root) {
    let at = dir;
    while (dirname(at) !== at && isRegularFile(join(dirname(at), `${basename(at)}.lean`))) at = dirname(at);
    if (at === dir) return undefined;
    root = at;
    why = 'the source root its library files name';
  }
  const prefix = relative(root, dir).split(sep).join('.');
  return { root, prefix, why };
}

/**
 * Links are judged against the source root being walked (`Walk.boundary`, its
 * real path): a link whose target leaves it is not followed unless
 * `followLinks`; a Lake package listed in `.lake/packages` (a link there
 * included) is a root of its own. Directories carry their real path down the
 * walk, so only links are resolved (a deep chain costs one step per level).
 */
interface Walk {
  out: SourceFile[];
  seen: Set<string>;
  warnings: string[];
  skip: string[];
  /** Links not followed, their target outside the root being walked. */
  links: string[];
  followLinks: boolean;
}

const within = (real: string, boundary: string) => real === boundary || real.startsWith(boundary.endsWith(sep) ? boundary : boundary + sep);

/** A link's real target, or undefined (a warning or a skipped link recorded) when it cannot or may not be followed. */
function linkTarget(p: string, boundary: string, w: Walk): string | undefined {
  let real: string;
  try {
    real = realpathSync.native(p);
  } catch {
    return undefined; // a dangling link: nothing to index
  }
  if (w.followLinks || within(real, boundary)) return real;
  w.links.push(`${p}: link to ${real}, outside ${boundary}, not followed (--follow-links follows it)`);
  return undefined;
}

function* walkPackage(start: string, startReal: string, boundary: string, w: Walk, root = start, prefix = ''): Steps {
  const stack: [string, string][] = [[start, startReal]];
  while (stack.length) {
    yield;
    const [dir, real] = stack.pop()!;
    if (w.seen.has(real)) continue;
    w.seen.add(real);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      w.warnings.push(`${dir}: ${(e as Error).message}`);
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(dir, e.name);
      const lang = langOf(e.name);
      const wanted = e.isDirectory() || (lang && !SKIP_FILES.has(e.name));
      if (!wanted && !e.isSymbolicLink()) continue;
      if (e.isDirectory() || (e.isSymbolicLink() && safeIsDir(p))) {
        if (e.name.startsWith('.') || SKIP_DIRS.has(e.name)) continue;
        const childReal = e.isSymbolicLink() ? linkTarget(p, boundary, w) : join(real, e.name);
        if (childReal === undefined) continue;
        if (isLakeRoot(p)) yield* walkLakePackage(p, childReal, boundary, w);
        else stack.push([p, childReal]);
        continue;
      }
      if (!lang || SKIP_FILES.has(e.name)) continue;
      if (e.isSymbolicLink() && linkTarget(p, boundary, w) === undefined && existsSync(p)) continue;
      if (!e.isFile() && !isRegularFile(p)) {
        w.skip.push(`${p}: skipped, not a regular file`);
        continue;
      }
      const rel = relative(root, p).split(sep).join('/');
      const module = moduleOf(rel, lang, prefix);
      if (importable(p, module, lang, w)) w.out.push({ path: p, rel, module, lang, root });
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
  return runSteps(lakeLibrarySteps(root, warnings));
}

/** lakeLibraries in steps (./steps.ts). */
function* lakeLibrarySteps(root: string, warnings: string[]): Steps<string[] | undefined> {
  const lean = join(root, 'lakefile.lean');
  const toml = join(root, 'lakefile.toml');
  const read = (file: string): string | undefined => {
    try {
      return readConfigFile(file, MAX_LAKEFILE_BYTES);
    } catch (e) {
      warnings.push(`${file}: not read (${(e as Error).message}); ${root} walked as a plain directory`);
      return undefined;
    }
  };
  let found: LakefileLibraries;
  if (existsSync(lean)) {
    const text = read(lean);
    if (text === undefined) return undefined;
    found = yield* leanLakefileSteps(text);
  } else if (existsSync(toml)) {
    const text = read(toml);
    if (text === undefined) return undefined;
    found = yield* tomlLakefileSteps(text);
  } else return undefined;
  if (found.omitted) {
    const n = found.all.length + found.omitted;
    warnings.push(`${root}: its lakefile declares ${n} libraries; the first ${found.all.length} are indexed`);
  }
  const libs = found.defaults.length ? found.defaults : found.all;
  return libs.length ? libs : undefined;
}

/** A lakefile larger than this is not read (Mathlib's is 6 KiB): ./lakefile.ts reads what it is given in linear time, on the server's thread in slices (./steps.ts). */
const MAX_LAKEFILE_BYTES = 1024 * 1024;

/** Project files (lakefiles, `lake-manifest.json`, `lean-toolchain`) are small; larger ones are not read. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * A project's configuration file as text. Throws, saying why, for what is not a
 * regular file (a FIFO would block for ever, a directory fails) or is too large.
 */
export function readConfigFile(file: string, maxBytes = MAX_CONFIG_BYTES): string {
  const st = statSync(file);
  if (!st.isFile()) throw new Error(st.isDirectory() ? 'a directory' : 'not a regular file');
  if (st.size > maxBytes) throw new Error(`larger than ${maxBytes / (1024 * 1024)} MiB, the limit for this file`);
  return readFileSync(file, 'utf8');
}

/** Does `lib` (a lakefile's `lean_lib` name) name a path inside `root`, lexically? */
function insideLexically(root: string, lib: string): boolean {
  const rel = relative(root, join(root, lib));
  return !isAbsolute(lib) && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** `prefix`: the module path of `root` when it is a directory inside a package (moduleRootOf), else ''. */
function* walkLakePackage(root: string, rootReal: string, boundary: string, w: Walk, prefix = ''): Steps {
  const libs = prefix ? undefined : yield* lakeLibrarySteps(root, w.warnings);
  if (!libs) return yield* walkPackage(root, rootReal, boundary, w, root, prefix);
  for (const lib of libs) {
    yield;
    if (!insideLexically(root, lib)) {
      w.warnings.push(`${root}: lean_lib ${JSON.stringify(lib)} leaves the package root; skipped`);
      continue;
    }
    const file = join(root, `${lib}.lean`);
    const dir = join(root, lib);
    // after links: the library's file and directory must stay inside the package (or the root walked)
    const fileReal = realOrUndefined(file);
    if (fileReal !== undefined && !within(fileReal, rootReal) && !within(fileReal, boundary) && !w.followLinks) {
      w.links.push(`${file}: resolves to ${fileReal}, outside ${root}, not followed (--follow-links follows it)`);
    } else if (isRegularFile(file)) {
      if (importable(file, lib, 'lean', w)) w.out.push({ path: file, rel: `${lib}.lean`, module: lib, lang: 'lean', root });
    }
    else if (existsSync(file) && !safeIsDir(file)) w.skip.push(`${file}: skipped, not a regular file`);
    if (!safeIsDir(dir)) continue;
    const dirReal = realOrUndefined(dir);
    if (dirReal === undefined) continue;
    if (!within(dirReal, rootReal) && !within(dirReal, boundary) && !w.followLinks) {
      w.links.push(`${dir}: lean_lib ${JSON.stringify(lib)} resolves to ${dirReal}, outside ${root}, not followed (--follow-links follows it)`);
      continue;
    }
    yield* walkPackage(dir, dirReal, boundary, w, root);
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * The Lake packages nested in `dir` that a walk of it treats as package roots of
 * their own (their files' paths are relative to them): directories with a
 * lakefile, not looked into further, in the directories the walk enters.
 */
export function lakeRootsUnder(dir: string, followLinks = false): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const boundary = realOrUndefined(dir);
  if (boundary === undefined) return out;
  const w: Walk = { out: [], seen, warnings: [], skip: [], links: [], followLinks };
  const stack: [string, string][] = [[dir, boundary]];
  while (stack.length) {
    const [d, real] = stack.pop()!;
    if (seen.has(real)) continue;
    seen.add(real);
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const below: [string, string][] = [];
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.name.startsWith('.') || SKIP_DIRS.has(e.name) || !(e.isDirectory() || (e.isSymbolicLink() && safeIsDir(p)))) continue;
      const childReal = e.isSymbolicLink() ? linkTarget(p, boundary, w) : join(real, e.name);
      if (childReal === undefined) continue;
      if (isLakeRoot(p)) out.push(p);
      else below.push([p, childReal]);
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
  /** Follow links whose target leaves the source root being walked (default false: they are skipped and listed in `links`). */
  followLinks?: boolean;
}

export interface Discovered {
  files: SourceFile[];
  /** Inputs or directories that cannot be read, library names that leave their package. */
  warnings: string[];
  /** `.lean`/`.thy` entries that are not regular files (FIFOs, devices, sockets) or whose module name no import can write, with the reason. */
  skipped: string[];
  /** Links not followed: their target leaves the source root being walked. */
  links: string[];
  /** For each source directory whose module names count from a directory above it (moduleRootOf): that directory, and why. */
  moduleRoots: { input: string; root: string; prefix: string; why: string }[];
}

/**
 * Why a package directory of a project (`.lake/packages/<pkg>`, a link there
 * included) whose real path is `pkgReal` is not walked as a package, or
 * undefined when it may be: the file system's root, the project itself or a
 * directory holding it (a link to `/`, `..`, `~`) would walk the whole disk or
 * the project again under other module names. Anywhere else (a checkout beside
 * the project, inside it) is a package of its own. Test: test/unit/walk-links.test.ts.
 */
export function packageLinkRefused(pkgReal: string, projectReal: string): string | undefined {
  if (dirname(pkgReal) === pkgReal) return `a package that is the file system's root (${pkgReal}); not walked`;
  if (within(projectReal, pkgReal)) {
    return `a package that is ${pkgReal === projectReal ? 'the project itself' : `a directory holding the project (${pkgReal})`}; not walked`;
  }
  return undefined;
}

/**
 * The source files under `inputs`. Each input is a source root, and so is each
 * package in its `.lake/packages` (a link there included: Lake allows it, and a
 * package's files are relative to the package); inside a root, a link whose
 * target leaves it is not followed unless `followLinks`.
 */
export function discoverSources(inputs: string[], opts: DiscoverOptions = {}): Discovered {
  return runSteps(discoverSteps(inputs, opts));
}

/**
 * discoverSources on a thread that serves others (the language server): the same
 * walk, giving the event loop a turn every `sliceMs` of work (./steps.ts).
 */
export function discoverSourcesAsync(inputs: string[], opts: DiscoverOptions = {}, sliceMs?: number): Promise<Discovered> {
  return runStepsAsync(discoverSteps(inputs, opts), sliceMs);
}

function* discoverSteps(inputs: string[], opts: DiscoverOptions): Steps<Discovered> {
  const w: Walk = { out: [], seen: new Set(), warnings: [], skip: [], links: [], followLinks: opts.followLinks === true };
  const moduleRoots: Discovered['moduleRoots'] = [];
  for (const input of inputs) {
    if (!existsSync(input)) {
      w.warnings.push(`${input}: no such file or directory`);
      continue;
    }
    if (!safeIsDir(input)) {
      const lang = langOf(input);
      if (!lang) w.warnings.push(`${input}: not a .lean or .thy file`);
      else if (!isRegularFile(input)) w.skip.push(`${input}: skipped, not a regular file`);
      else if (importable(input, moduleOf(basename(input), lang), lang, w)) w.out.push({ path: input, rel: basename(input), module: moduleOf(basename(input), lang), lang, root: input });
      continue;
    }
    const packages = join(input, '.lake', 'packages');
    if (opts.packages !== false && safeIsDir(packages)) {
      let pkgs: string[] = [];
      try {
        pkgs = readdirSync(packages).sort();
      } catch (e) {
        w.warnings.push(`${packages}: ${(e as Error).message}`);
      }
      const inputReal = realOrUndefined(input);
      for (const pkg of pkgs) {
        const dir = join(packages, pkg);
        const real = safeIsDir(dir) ? realOrUndefined(dir) : undefined;
        if (real === undefined) continue;
        const refused = inputReal === undefined ? undefined : packageLinkRefused(real, inputReal);
        if (refused) w.warnings.push(`${dir}: ${refused}`);
        else yield* walkLakePackage(dir, real, real, w);
      }
    }
    const real = realOrUndefined(input);
    if (real === undefined) {
      w.warnings.push(`${input}: cannot resolve its path`);
      continue;
    }
    // a directory inside a package: module names as Lean gives them, from the package root
    let above = moduleRootOf(input);
    if (above && leanModuleSyntax(above.prefix) === undefined) {
      w.warnings.push(`${input}: its module path ${JSON.stringify(above.prefix)} under ${above.root} cannot be written in an import; module names counted from ${input}`);
      above = undefined;
    }
    if (above) moduleRoots.push({ input, ...above });
    yield* walkLakePackage(input, real, real, w, above?.prefix ?? '');
  }
  return { files: w.out, warnings: w.warnings, skipped: w.skip, links: w.links, moduleRoots };
}
