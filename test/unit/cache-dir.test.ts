/** The cache root's entry directories: only those are listed and removed (never a link's target, a path outside, another file). */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listEntryDirs, noteUse, readUsedBy, removeEntryDir } from '../../indexes/src/cache-dir.js';
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
