/** The cache root's entry directories: only those are listed and removed (never a link's target, a path outside, another file). */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listEntryDirs, MAX_USED_BY_BYTES, MAX_USES, noteUse, readUsedBy, removeEntryDir, USED_BY_FILE } from '../../indexes/src/cache-dir.js';
import type { EntryKind } from '../../indexes/src/packages.js';
import { rootRefused } from '../../server/src/indexing/cache-state.js';
import { ENTRY_MARKER, isMarkedEntry } from '../../indexes/src/cache-marker.js';

describe('cache directory', () => {
  const base = mkdtempSync(join(tmpdir(), 'premise-cache-dir-'));
  const cache = join(base, 'cache');
  const outside = join(base, 'outside-workspace-aaaaaaaaaaaa');
  mkdirSync(join(cache, 'proj-workspace-0123456789ab'), { recursive: true });
  writeFileSync(join(cache, 'proj-workspace-0123456789ab', 'manifest.json'), '{}');
  writeFileSync(join(cache, 'proj-workspace-0123456789ab', ENTRY_MARKER), '');
  // named like an entry, not marked: a user's (the cache root set to $HOME)
  mkdirSync(join(cache, 'notes-workspace-dddddddddddd'));
  writeFileSync(join(cache, 'notes-workspace-dddddddddddd', 'thesis.tex'), 'mine');
  // built before markers: a premise-lsp index manifest marks it
  mkdirSync(join(cache, 'old-workspace-eeeeeeeeeeee'));
  writeFileSync(join(cache, 'old-workspace-eeeeeeeeeeee', 'manifest.json'), JSON.stringify({ format: 'premise-lsp-index', version: 3 }));
  mkdirSync(outside);
  symlinkSync(outside, join(cache, 'link-workspace-bbbbbbbbbbbb'));
  writeFileSync(join(cache, 'file-workspace-cccccccccccc'), 'not a directory');

  it('lists real entry directories only, with size and use', () => {
    noteUse(join(cache, 'proj-workspace-0123456789ab'), { root: '/p', prover: 'lean' }, 1000);
    noteUse(join(cache, 'proj-workspace-0123456789ab'), { root: '/q', prover: 'isabelle', isabelleCommand: '/i/bin/isabelle', isabelleHome: '/i', isabelleHomeUser: '/u' }, 2000);
    noteUse(join(cache, 'proj-workspace-0123456789ab'), { root: '/p', prover: 'lean' }, 3000);
    const [notes, old, e, ...rest] = listEntryDirs(cache);
    expect(rest).toEqual([]);
    expect(notes).toMatchObject({ name: 'notes-workspace-dddddddddddd', complete: false, marked: false });
    expect(old).toMatchObject({ name: 'old-workspace-eeeeeeeeeeee', complete: true, marked: true });
    expect(e).toMatchObject({ name: 'proj-workspace-0123456789ab', owner: 'proj', kind: 'workspace', key: '0123456789ab', complete: true, marked: true, lastUsed: 3000 });
    expect(e!.bytes).toBeGreaterThan(2);
    expect(readUsedBy(e!.dir).map((u) => [u.root, u.lastUsed])).toEqual([['/q', 2000], ['/p', 3000]]);
    expect(readUsedBy(e!.dir)[0]).toMatchObject({ isabelleCommand: '/i/bin/isabelle', isabelleHome: '/i', isabelleHomeUser: '/u' });
    expect(listEntryDirs(join(base, 'no-cache'))).toEqual([]);
  });

  it('removes nothing but an entry directory of the cache root', () => {
    expect(removeEntryDir(cache, { name: '../outside-workspace-aaaaaaaaaaaa' })).toBe(false);
    expect(removeEntryDir(cache, { name: 'link-workspace-bbbbbbbbbbbb' })).toBe(false);
    expect(removeEntryDir(cache, { name: 'file-workspace-cccccccccccc' })).toBe(false);
    expect(removeEntryDir(cache, { name: 'notes' })).toBe(false);
    expect(removeEntryDir(cache, { name: 'notes-workspace-dddddddddddd' })).toBe(false);
    expect(existsSync(join(cache, 'notes-workspace-dddddddddddd', 'thesis.tex'))).toBe(true);
    expect(isMarkedEntry(join(cache, 'old-workspace-eeeeeeeeeeee'))).toBe(true);
    expect(removeEntryDir(cache, { name: 'old-workspace-eeeeeeeeeeee' })).toBe(true);
    expect(existsSync(outside) && existsSync(join(cache, 'link-workspace-bbbbbbbbbbbb')) && existsSync(join(cache, 'file-workspace-cccccccccccc'))).toBe(true);
    expect(removeEntryDir(cache, { name: 'proj-workspace-0123456789ab' })).toBe(true);
    expect(existsSync(join(cache, 'proj-workspace-0123456789ab'))).toBe(false);
  });
});

/**
 * `used-by.json` is read as the index side files are (issue 36 item 2): a regular file (a link is
 * not followed: to /dev/zero it never ends), at most MAX_USED_BY_BYTES; a FIFO is
 * test/cli/cache-hostile.test.ts's (it would block this process). And a recorded root is walked
 * only when it is one premise-lsp could have recorded: never the file system's root or a directory
 * holding the home directory, and for a workspace entry only the root its manifest records.
 */
describe('used-by.json and the roots it records', () => {
  const base = mkdtempSync(join(tmpdir(), 'premise-used-by-'));
  const use = { root: '/p', prover: 'lean', lastUsed: 1 };

  it('a link is not followed, and a file over the size cap is not read', () => {
    const real = join(base, 'real');
    mkdirSync(real);
    writeFileSync(join(real, USED_BY_FILE), JSON.stringify({ projects: [use] }));
    expect(readUsedBy(real).map((u) => u.root)).toEqual(['/p']);
    const linked = join(base, 'linked');
    mkdirSync(linked);
    symlinkSync(join(real, USED_BY_FILE), join(linked, USED_BY_FILE));
    expect(readUsedBy(linked)).toEqual([]);
    const big = join(base, 'big');
    mkdirSync(big);
    writeFileSync(join(big, USED_BY_FILE), JSON.stringify({ projects: [use] }) + ' '.repeat(MAX_USED_BY_BYTES));
    expect(readUsedBy(big)).toEqual([]);
  });

  it('keeps the latest MAX_USES uses', () => {
    const dir = join(base, 'many');
    mkdirSync(dir);
    for (let i = 0; i < MAX_USES + 5; i++) noteUse(dir, { root: `/p${i}`, prover: 'lean' }, i);
    const users = readUsedBy(dir);
    expect(users).toHaveLength(MAX_USES);
    expect(users[0]!.root).toBe('/p5');
  });

  it('a recorded root is judged only when premise-lsp could have recorded it', () => {
    const home = join(base, 'home', 'user');
    mkdirSync(home, { recursive: true });
    const proj = join(home, 'proj');
    mkdirSync(proj);
    const entry = (kind: EntryKind, sources?: unknown) => {
      const dir = join(base, `e-${kind}-${Math.random().toString(16).slice(2)}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ format: 'premise-lsp-index', ...(sources ? { sources } : {}) }));
      return { dir, kind };
    };
    const env = { HOME: home };
    expect(rootRefused('/', entry('hol'), env)).toContain("file system's root");
    expect(rootRefused(join(base, 'home'), entry('hol'), env)).toContain('holds the home directory');
    expect(rootRefused('relative/dir', entry('hol'), env)).toContain('not an absolute path');
    expect(rootRefused(proj, entry('hol'), env)).toBeUndefined();
    expect(rootRefused(home, entry('toolchain'), env)).toBeUndefined();
    // a workspace entry is its project's own: its manifest names the root it was built from
    expect(rootRefused(proj, entry('workspace', [proj]), env)).toBeUndefined();
    expect(rootRefused(proj, entry('workspace', [home]), env)).toContain('not the root');
    expect(rootRefused(proj, entry('workspace'), env)).toContain('not the root');
    expect(rootRefused(proj, entry('dependencies', [join(proj, '.lake', 'packages', 'a')]), env)).toBeUndefined();
    expect(rootRefused(proj, entry('dependencies', ['/elsewhere/a']), env)).toContain('not the root');
    // through a link too
    symlinkSync('/', join(base, 'to-root'));
    expect(rootRefused(join(base, 'to-root'), entry('hol'), env)).toContain("file system's root");
  });
});
