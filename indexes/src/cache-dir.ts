/**
 * The automatic index cache as a directory (the entries themselves and their
 * keys: ./packages.ts): which entry directories it holds, their sizes, which
 * projects used each and when (`used-by.json` in the entry, written by the
 * server each time it serves the entry), and removing one. Only direct children
 * of the cache root named like an entry (`<name>-<kind>-<key12>`, or a build
 * beside one, `….tmp-<pid>`) that are real directories (not links) are ever
 * listed, and of those only the ones marked as premise-lsp's (./cache-marker.ts)
 * are ever removed: nothing outside the cache root, nothing else in it, no
 * look-alike of a user's. What `used-by.json` records is data, never run: the
 * Isabelle command a project used is kept to tell uses apart, not to be started.
 * Nothing here throws on a missing or unreadable cache.
 *
 * `used-by.json` is read as an index's side files are (./store/sidecar.ts): only a regular
 * file, never through a link (to /dev/zero it never ends) nor a FIFO (it blocks for ever),
 * at most MAX_USED_BY_BYTES, the latest MAX_USES uses; anything else is no record
 * (test/unit/cache-dir.test.ts, test/cli/cache-hostile.test.ts).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isMarkedEntry } from './cache-marker.js';
import type { EntryKind } from './packages.js';
import { alive } from './store/staging.js';

/** The file in an entry naming the projects that used it. */
export const USED_BY_FILE = 'used-by.json';

/** The most bytes a `used-by.json` may have: a use is about 200 bytes, and at most MAX_USES are kept. */
export const MAX_USED_BY_BYTES = 1 << 20;

/** The most uses an entry records (the latest): a shared entry (a toolchain's library) is used by many projects. */
export const MAX_USES = 256;

/** A project that used an entry: what its automatic index needs to be planned again. */
export interface ProjectUse {
  root: string;
  prover: 'lean' | 'isabelle';
  /** The command that starts Isabelle, when it was not `isabelle` on PATH (recorded, never run by a reader of the cache). */
  isabelleCommand?: string;
  /** The Isabelle distribution that use found (`ISABELLE_HOME`, `ISABELLE_HOME_USER`): what a reader judges it by. */
  isabelleHome?: string;
  isabelleHomeUser?: string;
  /** Milliseconds since the epoch. */
  lastUsed: number;
}

const ENTRY_NAME = /^(.+)-(toolchain|dependencies|hol|afp|workspace)-([0-9a-f]{12})(?:\.src)?(?:\.tmp-(\d+))?$/;

export interface EntryDir {
  /** The directory's name in the cache root, and its path. */
  name: string;
  dir: string;
  /** The project or shared library it belongs to (`proj`, `lean-v4.21.0`, `isabelle-Isabelle2024`). */
  owner: string;
  kind: EntryKind;
  /** The first 12 hex digits of its key. */
  key: string;
  /** Its manifest is in place (an entry is moved in only when complete). */
  complete: boolean;
  /** premise-lsp marked it as its own (./cache-marker.ts): only such a directory is ever removed. */
  marked: boolean;
  /** A build directory (`….tmp-<pid>`) and whether its process still runs. */
  build?: { pid: number; running: boolean };
  bytes: number;
  usedBy: ProjectUse[];
  /** The latest use recorded, else the directory's modification time. */
  lastUsed: number;
}

/** Record that `project` uses the entry at `dir` (never throws: a read-only cache just keeps no record). */
export function noteUse(dir: string, project: Omit<ProjectUse, 'lastUsed'>, now = Date.now()): void {
  try {
    const users = readUsedBy(dir).filter((u) => u.root !== project.root);
    users.push({ ...project, lastUsed: now });
    users.sort((a, b) => a.lastUsed - b.lastUsed);
    users.splice(0, Math.max(0, users.length - MAX_USES));
    const tmp = join(dir, `${USED_BY_FILE}.tmp-${process.pid}`);
    writeFileSync(tmp, JSON.stringify({ projects: users }, null, 1) + '\n');
    renameSync(tmp, join(dir, USED_BY_FILE));
  } catch {
    /* no record */
  }
}

/** The projects recorded in an entry (none when the file is missing or not ours). */
export function readUsedBy(dir: string): ProjectUse[] {
  let data: unknown;
  try {
    const text = readEntryFile(join(dir, USED_BY_FILE), MAX_USED_BY_BYTES);
    if (text === undefined) return [];
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const list = (data as { projects?: unknown })?.projects;
  if (!Array.isArray(list)) return [];
  const uses = list.flatMap((u): ProjectUse[] => {
    const { root, prover, isabelleCommand, isabelleHome, isabelleHomeUser, lastUsed } = (u ?? {}) as Record<string, unknown>;
    if (typeof root !== 'string' || (prover !== 'lean' && prover !== 'isabelle') || typeof lastUsed !== 'number') return [];
    return [
      {
        root,
        prover,
        lastUsed,
        ...(typeof isabelleCommand === 'string' ? { isabelleCommand } : {}),
        ...(typeof isabelleHome === 'string' ? { isabelleHome } : {}),
        ...(typeof isabelleHomeUser === 'string' ? { isabelleHomeUser } : {}),
      },
    ];
  });
  return uses.length > MAX_USES ? uses.sort((a, b) => a.lastUsed - b.lastUsed).slice(-MAX_USES) : uses;
}

/**
 * The text of a small file premise-lsp wrote into an entry directory: undefined unless it is
 * a regular file (not a link, FIFO or device: opened without following links and without
 * blocking, then looked at) of at most `maxBytes`.
 */
export function readEntryFile(path: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The entry directories in the cache root, by name. */
export function listEntryDirs(cache: string): EntryDir[] {
  let names: string[];
  try {
    names = readdirSync(cache).sort();
  } catch {
    return [];
  }
  const out: EntryDir[] = [];
  for (const name of names) {
    const m = ENTRY_NAME.exec(name);
    const dir = join(cache, name);
    if (!m || !isRealDir(dir)) continue;
    const pid = m[4] === undefined ? undefined : Number(m[4]);
    const usedBy = pid === undefined ? readUsedBy(dir) : [];
    const mtime = lstatSync(dir).mtimeMs;
    out.push({
      name,
      dir,
      owner: m[1]!,
      kind: m[2] as EntryKind,
      key: m[3]!,
      complete: pid === undefined && isFile(join(dir, 'manifest.json')),
      marked: isMarkedEntry(dir),
      ...(pid === undefined ? {} : { build: { pid, running: alive(pid) } }),
      bytes: treeBytes(dir),
      usedBy,
      lastUsed: usedBy.length ? Math.max(...usedBy.map((u) => u.lastUsed)) : mtime,
    });
  }
  return out;
}

/** Remove one entry directory of the cache root, marked as premise-lsp's; refuses anything else (returns false). */
export function removeEntryDir(cache: string, entry: Pick<EntryDir, 'name'>): boolean {
  const root = resolve(cache);
  const dir = join(root, entry.name);
  if (!ENTRY_NAME.test(entry.name) || resolve(dir, '..') !== root || !isRealDir(dir) || !isMarkedEntry(dir)) return false;
  rmSync(dir, { recursive: true, force: true });
  return true;
}

function isRealDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}

/** Bytes of the files under `dir`, links not followed. */
function treeBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const n of names) {
    const p = join(dir, n);
    try {
      const st = lstatSync(p);
      total += st.isDirectory() ? treeBytes(p) : st.isFile() ? st.size : 0;
    } catch {
      /* vanished */
    }
  }
  return total;
}
