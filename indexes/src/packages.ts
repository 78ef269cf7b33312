/**
 * Lake projects and the automatic index cache. A project's index is up to
 * three cache entries: the Lean toolchain's own library (`Init`, `Std`; shared
 * by every project on that toolchain, keyed by the toolchain), its dependencies
 * (every `.lake/packages/*` together, so references between them resolve),
 * keyed by the `name@rev` list of `lake-manifest.json`, and its workspace (its
 * own sources only), keyed by their paths, sizes and modification times. Each
 * entry's references are resolved against the entries before it, so its key
 * also covers theirs; all keys cover the index format and the encoder.
 * Nothing here throws on a missing or corrupt project: callers get undefined or
 * an error string.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { modelId } from '../../models/src/fingerprint.js';
import { discoverSources, discoverSourcesAsync, packageLinkRefused, readConfigFile, type Discovered } from './extract/walk.js';
import { MAX_MANIFEST_BYTES, VERSION } from './store/index-dir.js';
import { isMarkedEntry } from './cache-marker.js';

/**
 * The extractor's revision, in every cache key: a change of what extraction gives (here:
 * `exports.json`, type-ascription references, `@[simps]` statements) rebuilds cached
 * entries instead of resolving a workspace against a dependency entry that lacks it.
 */
const EXTRACTOR = 'x2';
import { alive } from './store/staging.js';

export interface LakeDependency {
  name: string;
  rev: string;
  /** `<root>/<packagesDir>/<name>` (only existing directories are kept). */
  dir: string;
}

export interface LakeProject {
  root: string;
  name: string;
  dependencies: LakeDependency[];
  /** The project's `lean-toolchain` (e.g. `leanprover/lean4:v4.21.0-rc3`), when it has one. */
  toolchain?: string;
  /** Packages of the manifest not indexed, with the reason (a link to `/`, or to the project or a directory holding it). */
  refusedPackages?: string[];
}

/** A Lean toolchain's library sources: `<dir>/Init`, `<dir>/Std`… */
export interface LeanToolchain {
  /** The toolchain's name (`leanprover/lean4:v4.21.0-rc3`), or `lean --print-prefix`'s directory when it came from there. */
  name: string;
  /** `<toolchain>/src/lean`. */
  dir: string;
}

/** The toolchain libraries indexed: lemmas live in `Init` and `Std`; `Lean` (the elaborator's API) and `Lake` are left out. */
export const TOOLCHAIN_LIBRARIES = ['Init', 'Std'];

/** elan's directory for a toolchain name: `leanprover/lean4:v4.21.0-rc3` → `leanprover--lean4---v4.21.0-rc3`. */
export function elanToolchainDirName(name: string): string {
  const full = !name.includes('/') && /^v?\d/.test(name) ? `leanprover/lean4:${name.startsWith('v') ? name : `v${name}`}` : name;
  return full.split('/').join('--').split(':').join('---');
}

/**
 * The toolchain library of a project: `$ELAN_HOME/toolchains/<toolchain>/src/lean`
 * (`ELAN_HOME` defaulting to `~/.elan`) for the project's `lean-toolchain`, else
 * `<prefix>/src/lean` for `prefix` (what `lean --print-prefix` answers, asked
 * by the caller). Undefined when neither has an `Init` directory.
 */
export function leanToolchain(project: LakeProject, env: NodeJS.ProcessEnv = process.env, prefix?: string): LeanToolchain | undefined {
  const hasInit = (dir: string) => isDir(join(dir, 'Init'));
  if (project.toolchain) {
    const elan = env.ELAN_HOME ? resolve(env.ELAN_HOME) : join(homedir(), '.elan');
    const dir = join(elan, 'toolchains', elanToolchainDirName(project.toolchain), 'src', 'lean');
    if (hasInit(dir)) return { name: project.toolchain, dir };
  }
  if (prefix) {
    const dir = join(resolve(prefix), 'src', 'lean');
    if (hasInit(dir)) return { name: project.toolchain ?? dir, dir };
  }
  return undefined;
}

/** Cache key of the toolchain entry: format version, encoder, the toolchain, and its `Init.lean`'s size and time (a rebuilt local toolchain). */
export function toolchainKey(tc: LeanToolchain, encoderId: string): string {
  let stamp = '';
  try {
    const st = statSync(join(tc.dir, 'Init.lean'));
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    /* no Init.lean: the name alone */
  }
  return sha1([`v${VERSION}`, EXTRACTOR, encoderId, 'toolchain', tc.name, tc.dir, stamp, ...TOOLCHAIN_LIBRARIES]);
}

const LAKE_FILES = ['lakefile.lean', 'lakefile.toml', 'lake-manifest.json'];

/** Does `dir` look like a Lake project (a lakefile or a manifest)? */
export function isLakeProject(dir: string): boolean {
  return LAKE_FILES.some((f) => existsSync(join(dir, f)));
}

/**
 * The project at `root` from its `lake-manifest.json`; a project with a lakefile
 * but no manifest has no dependencies. An error string when `root` is not a Lake
 * project or the manifest cannot be read.
 */
export function lakeProject(root: string): LakeProject | string {
  root = resolve(root);
  const file = join(root, 'lake-manifest.json');
  const toolchain = readToolchain(root);
  if (!existsSync(file)) {
    if (!isLakeProject(root)) return `${root} is not a Lake project (no lake-manifest.json or lakefile)`;
    return { root, name: safeName(basename(root)), dependencies: [], toolchain };
  }
  let m: unknown;
  try {
    m = JSON.parse(readConfigFile(file));
  } catch (e) {
    return `${file}: cannot read (${(e as Error).message})`;
  }
  if (typeof m !== 'object' || m === null || !Array.isArray((m as { packages?: unknown }).packages)) {
    return `${file}: not a Lake manifest (no "packages" list)`;
  }
  const manifest = m as { name?: unknown; packagesDir?: unknown; packages: unknown[] };
  const packagesDir = typeof manifest.packagesDir === 'string' && manifest.packagesDir ? manifest.packagesDir : join('.lake', 'packages');
  // the dependencies are indexed: never a directory outside the project (`../..`, an absolute path)
  const rel = relative(root, resolve(root, packagesDir));
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return `${file}: packagesDir ${JSON.stringify(packagesDir)} is not inside the project`;
  const dependencies: LakeDependency[] = [];
  const refusedPackages: string[] = [];
  for (const p of manifest.packages) {
    if (typeof p !== 'object' || p === null) continue;
    const { name, rev } = p as { name?: unknown; rev?: unknown };
    if (typeof name !== 'string' || !name || name.includes('/') || name.includes('\\') || name === '..' || name === '.') continue;
    const dir = join(root, packagesDir, name);
    if (!isDir(dir)) continue;
    // a package linked to `/`, the project or a directory holding it is never indexed (./extract/walk.ts)
    const refused = packageLinkRefused(realpathOr(dir), realpathOr(root));
    if (refused) {
      refusedPackages.push(`${dir}: ${refused}`);
      continue;
    }
    dependencies.push({ name, rev: typeof rev === 'string' ? rev : '', dir });
  }
  dependencies.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const name = typeof manifest.name === 'string' && manifest.name ? manifest.name : basename(root);
  return { root, name: safeName(name), dependencies, toolchain, ...(refusedPackages.length ? { refusedPackages } : {}) };
}

function realpathOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
}

function readToolchain(root: string): string | undefined {
  try {
    const line = readConfigFile(join(root, 'lean-toolchain')).split('\n')[0]!.trim();
    return line && !line.includes('..') ? line : undefined;
  } catch {
    return undefined;
  }
}

function isRealDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export const safeName = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^\.+/, '') || 'project';

export const sha1 = (parts: string[]) => createHash('sha1').update(parts.join('\n')).digest('hex');

/** Cache key of the dependencies entry: format version, encoder, sorted `name@rev`. */
export function dependenciesKey(project: LakeProject, encoderId: string): string {
  const revs = project.dependencies.map((d) => `${d.name}@${d.rev}`).sort();
  return sha1([`v${VERSION}`, EXTRACTOR, encoderId, ...revs]);
}

/** The workspace's own source files (no `.lake/packages`), as the index build would find them. */
export function workspaceFiles(project: LakeProject): string[] {
  return leanPaths(discoverSources([project.root], { packages: false }));
}

/** workspaceFiles on the language server's thread: the walk gives the event loop a turn every slice (extract/steps.ts). */
export async function workspaceFilesAsync(project: LakeProject): Promise<string[]> {
  return leanPaths(await discoverSourcesAsync([project.root], { packages: false }));
}

const leanPaths = (d: Discovered) => d.files.filter((f) => f.lang === 'lean').map((f) => f.path);

/** Cache key of the workspace entry: format version, encoder, sorted `rel:size:mtimeMs` of its own .lean files. */
export function workspaceKey(project: LakeProject, encoderId: string): string {
  return filesKey(project.root, workspaceFiles(project), encoderId);
}

/** Format version, encoder, sorted `rel:size:mtimeMs` of `files` under `root`. */
export function filesKey(root: string, files: string[], encoderId: string): string {
  const rows: string[] = [];
  for (const path of files) {
    try {
      const st = statSync(path);
      rows.push(`${path.slice(root.length + 1).split('\\').join('/')}:${st.size}:${st.mtimeMs}`);
    } catch {
      /* vanished while listing: not part of the key */
    }
  }
  return sha1([`v${VERSION}`, EXTRACTOR, encoderId, ...rows.sort()]);
}

/**
 * An id for the encoder directory, from its files' contents (`none` without an
 * encoder): a retrained or replaced model gives new cache keys.
 */
export async function encoderKey(dir: string | undefined): Promise<string> {
  if (!dir) return 'none';
  const files = readdirSync(dir)
    .filter((f) => !f.endsWith('.md') && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => join(dir, f));
  return modelId(dir, files, {});
}

/** `$PREMISE_LSP_CACHE`, else `$XDG_CACHE_HOME/premise-lsp/indexes`, else `~/.cache/premise-lsp/indexes`. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PREMISE_LSP_CACHE) return resolve(env.PREMISE_LSP_CACHE);
  if (env.XDG_CACHE_HOME) return join(resolve(env.XDG_CACHE_HOME), 'premise-lsp', 'indexes');
  return join(homedir(), '.cache', 'premise-lsp', 'indexes');
}

/** Lean: toolchain, dependencies, workspace; Isabelle: hol (the distribution's `src/HOL`), afp (registered libraries), workspace. */
export type EntryKind = 'toolchain' | 'dependencies' | 'hol' | 'afp' | 'workspace';

export interface CacheEntry {
  kind: EntryKind;
  /** Covers this entry's sources and the keys of the entries before it (its references resolve against them). */
  key: string;
  /** `<cache>/<name>-<kind>-<key12>`, the name cut to 64 characters (the toolchain entry is named after the toolchain, not the project). */
  dir: string;
  /** What to index: the dependency directories, or the project root (none for the toolchain: see `links`). */
  sources: string[];
  /** Walk the sources' `.lake/packages` too (false for the workspace entry). */
  packages: boolean;
  /** Index a directory of these links (name → target) instead of `sources`: the toolchain's libraries under their module names. */
  links?: Record<string, string>;
}

/** What one cache entry indexes, before its key is chained to the entries before it. */
export interface EntrySpec {
  kind: EntryKind;
  /** The key of the entry's own sources. */
  ownKey: string;
  sources: string[];
  packages: boolean;
  /** The first part of the directory name (a project, or a shared library such as `lean-v4.21.0`). */
  name: string;
  links?: Record<string, string>;
}

/**
 * The name part of an entry's directory name, at most 64 characters: a file
 * name has 255 at most, and the key, not the name, makes entries unique.
 */
export const entryNamePart = (name: string) => name.slice(0, 64);

/** Cache entries in build order, each key covering the keys of the entries before it (references resolve against them). */
export function chainEntries(cache: string, specs: EntrySpec[]): CacheEntry[] {
  const out: CacheEntry[] = [];
  for (const s of specs) {
    const key = out.length ? sha1([s.ownKey, ...out.map((e) => e.key)]) : s.ownKey;
    const e: CacheEntry = { kind: s.kind, key, dir: join(cache, `${entryNamePart(s.name)}-${s.kind}-${key.slice(0, 12)}`), sources: s.sources, packages: s.packages };
    out.push(s.links ? { ...e, links: s.links } : e);
  }
  return out;
}

/**
 * The project's cache entries in build order: the toolchain library (when
 * found), dependencies (when it has any) and workspace (when it has its own
 * .lean files: `files`, walked here unless the caller walked them already).
 */
export function cacheEntries(project: LakeProject, encoderId: string, cache: string, toolchain?: LeanToolchain, files: string[] = workspaceFiles(project)): CacheEntry[] {
  const specs: EntrySpec[] = [];
  if (toolchain) {
    const links: Record<string, string> = {};
    for (const lib of TOOLCHAIN_LIBRARIES) {
      if (isDir(join(toolchain.dir, lib))) links[lib] = join(toolchain.dir, lib);
      if (existsSync(join(toolchain.dir, `${lib}.lean`))) links[`${lib}.lean`] = join(toolchain.dir, `${lib}.lean`);
    }
    const name = `lean-${safeName(toolchain.name.replace(/^leanprover\/lean4:/, ''))}`;
    specs.push({ kind: 'toolchain', ownKey: toolchainKey(toolchain, encoderId), sources: [], packages: false, name, links });
  }
  if (project.dependencies.length) {
    specs.push({ kind: 'dependencies', ownKey: dependenciesKey(project, encoderId), sources: project.dependencies.map((d) => d.dir), packages: true, name: project.name });
  }
  if (files.length) specs.push({ kind: 'workspace', ownKey: filesKey(project.root, files, encoderId), sources: [project.root], packages: false, name: project.name });
  return chainEntries(cache, specs);
}

/**
 * The roots an entry's premises' files are relative to: its sources, or, for a
 * directory of links (the toolchain's `Init` → `<dir>/Init`), the directories
 * the links point into (the link directory is gone once the entry is built).
 */
export function entryRoots(entry: Pick<CacheEntry, 'sources' | 'links'>): string[] {
  if (!entry.links) return [...entry.sources];
  const roots = Object.entries(entry.links).flatMap(([name, target]) => (basename(target) === name ? [dirname(target)] : []));
  return [...new Set(roots)];
}

/** A finished entry has its manifest (written last, and the directory is renamed into place only when complete). */
export function isComplete(entry: CacheEntry): boolean {
  return existsSync(join(entry.dir, 'manifest.json'));
}

/** Where to build an entry: beside it, named after this process. */
export function buildDirFor(entry: CacheEntry, pid = process.pid): string {
  return `${entry.dir}.tmp-${pid}`;
}

/**
 * Move a finished build into place. If another process finished the same entry
 * first, keep theirs and drop ours. Returns false when neither is in place.
 */
export function commitBuild(tmp: string, entry: CacheEntry): boolean {
  try {
    renameSync(tmp, entry.dir);
    return true;
  } catch {
    rmSync(tmp, { recursive: true, force: true });
    return isComplete(entry);
  }
}

/** Remove build directories left by processes that are gone (a crash mid-build): only real directories premise-lsp marked as its own. */
export function removeStaleBuilds(cache: string): void {
  let names: string[];
  try {
    names = readdirSync(cache);
  } catch {
    return;
  }
  for (const n of names) {
    const m = /\.tmp-(\d+)$/.exec(n);
    if (!m || alive(Number(m[1]))) continue;
    const dir = join(cache, n);
    if (!isRealDir(dir) || !isMarkedEntry(dir)) continue; // not ours: a user's file or directory with a look-alike name
    rmSync(dir, { recursive: true, force: true });
  }
}


/**
 * After a new workspace entry is in place: remove older workspace entries of
 * the same project (same name, built from the same root), which no key will
 * match again.
 */
export function pruneWorkspaceEntries(project: { name: string; root: string }, keep: CacheEntry, cache: string): void {
  let names: string[];
  try {
    names = readdirSync(cache);
  } catch {
    return;
  }
  const prefix = `${entryNamePart(project.name)}-workspace-`;
  for (const n of names) {
    const dir = join(cache, n);
    if (!n.startsWith(prefix) || n.includes('.tmp-') || dir === keep.dir || !isMarkedEntry(dir)) continue;
    try {
      const file = join(dir, 'manifest.json');
      const st = lstatSync(file);
      if (!st.isFile() || st.size > MAX_MANIFEST_BYTES) continue; // no manifest of ours
      const m = JSON.parse(readFileSync(file, 'utf8')) as { sources?: unknown };
      if (Array.isArray(m.sources) && m.sources.length === 1 && resolve(String(m.sources[0])) === project.root) rmSync(dir, { recursive: true, force: true });
    } catch {
      /* not ours to judge */
    }
  }
}
