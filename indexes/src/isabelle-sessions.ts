/**
 * The automatic index of an Isabelle workspace: the distribution's `src/HOL`
 * (keyed by the distribution's version, shared by every workspace on it), the
 * libraries registered with it (the AFP's `thys`, listed in
 * `$ISABELLE_HOME_USER/ROOTS` or `$ISABELLE_HOME_USER/etc/components`), and the
 * workspace's own theories (its `ROOT` session directories), in that order,
 * each resolved against the ones before. Finding `ISABELLE_HOME` is the
 * caller's job (`isabelle getenv`); nothing here runs a process or throws.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve, sep } from 'node:path';
import { discoverSources, discoverSourcesAsync, type Discovered } from './extract/walk.js';
import { chainEntries, filesKey, isDir, safeName, sha1, type CacheEntry, type EntrySpec } from './packages.js';
import { VERSION } from './store/index-dir.js';

export interface IsabelleDistribution {
  /** `ISABELLE_HOME`. */
  home: string;
  /** `ISABELLE_HOME_USER`, when known. */
  userHome?: string;
  /** `etc/ISABELLE_ID`'s first line, else the directory's name (`Isabelle2024`). */
  version: string;
}

/** `VAR=value` lines, as `isabelle getenv VAR…` prints them. */
export function parseGetenv(out: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m && m[2]) env[m[1]!] = m[2];
  }
  return env;
}

/** The distribution at `home` (it must have `src/HOL`), or undefined. */
export function isabelleDistribution(home: string, userHome?: string): IsabelleDistribution | undefined {
  home = resolve(home);
  if (!isDir(join(home, 'src', 'HOL'))) return undefined;
  let version = basename(home);
  try {
    version = readFileSync(join(home, 'etc', 'ISABELLE_ID'), 'utf8').split('\n')[0]!.trim() || version;
  } catch {
    /* a development checkout or a bundle without it: the directory's name */
  }
  return { home, version, ...(userHome ? { userHome: resolve(userHome) } : {}) };
}

/** `ISABELLE_HOME` from the command that starts Isabelle (`…/Isabelle2024/bin/isabelle`), when it is a path. */
export function homeFromCommand(command: string): string | undefined {
  if (!isAbsolute(command) || basename(command) !== 'isabelle') return undefined;
  const home = resolve(command, '..', '..');
  return isDir(join(home, 'src', 'HOL')) ? home : undefined;
}

/**
 * Session directories registered with the user's Isabelle outside the
 * distribution and the workspace (the AFP's `thys`): lines of
 * `$ISABELLE_HOME_USER/ROOTS` and of `$ISABELLE_HOME_USER/etc/components`
 * naming existing directories with a `ROOTS` or `ROOT` file.
 */
export function registeredLibraries(dist: IsabelleDistribution, workspace: string): string[] {
  if (!dist.userHome) return [];
  const out = new Set<string>();
  const inside = (dir: string, parent: string) => dir === parent || dir.startsWith(parent + sep);
  for (const list of [join(dist.userHome, 'ROOTS'), join(dist.userHome, 'etc', 'components')]) {
    let text: string;
    try {
      text = readFileSync(list, 'utf8');
    } catch {
      continue;
    }
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const dir = resolve(dist.userHome, line.replace(/^\$ISABELLE_HOME_USER/, dist.userHome).replace(/^\$ISABELLE_HOME/, dist.home));
      if (!isDir(dir) || !(existsSync(join(dir, 'ROOTS')) || existsSync(join(dir, 'ROOT')))) continue;
      if (inside(dir, dist.home) || inside(dir, resolve(workspace)) || inside(resolve(workspace), dir)) continue;
      out.add(dir);
    }
  }
  return [...out].sort();
}

/** The workspace's own theories: `.thy` files under it. */
export function theoryFiles(root: string): string[] {
  return theoryPaths(discoverSources([root], { packages: false }));
}

/** theoryFiles on the language server's thread: the walk gives the event loop a turn every slice (extract/steps.ts). */
export async function theoryFilesAsync(root: string): Promise<string[]> {
  return theoryPaths(await discoverSourcesAsync([root], { packages: false }));
}

const theoryPaths = (d: Discovered) => d.files.filter((f) => f.lang === 'isabelle').map((f) => f.path);

/** Stamp of a directory's session list (`ROOTS`, else `ROOT`): size and time. */
function rootsStamp(dir: string): string {
  for (const f of ['ROOTS', 'ROOT']) {
    try {
      const st = statSync(join(dir, f));
      return `${dir}:${f}:${st.size}:${st.mtimeMs}`;
    } catch {
      /* next */
    }
  }
  return dir;
}

/**
 * The cache entries of an Isabelle workspace in build order: HOL (with a
 * distribution), registered libraries (when any), the workspace (when it has
 * theories: `files`, walked here unless the caller walked them already).
 */
export function isabelleEntries(root: string, dist: IsabelleDistribution | undefined, encoderId: string, cache: string, files?: string[]): CacheEntry[] {
  root = resolve(root);
  const specs: EntrySpec[] = [];
  const shared = `isabelle-${safeName(dist?.version ?? 'none')}`;
  if (dist) {
    const hol = join(dist.home, 'src', 'HOL');
    specs.push({ kind: 'hol', ownKey: sha1([`v${VERSION}`, encoderId, 'hol', dist.home, dist.version, rootsStamp(hol)]), sources: [hol], packages: false, name: shared });
    const libs = registeredLibraries(dist, root);
    if (libs.length) specs.push({ kind: 'afp', ownKey: sha1([`v${VERSION}`, encoderId, 'afp', ...libs.map(rootsStamp)]), sources: libs, packages: false, name: shared });
  }
  files ??= theoryFiles(root);
  if (files.length) specs.push({ kind: 'workspace', ownKey: filesKey(root, files, encoderId), sources: [root], packages: false, name: safeName(basename(root)) });
  return chainEntries(cache, specs);
}
