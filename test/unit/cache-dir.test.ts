/** The cache root's entry directories: only those are listed and removed (never a link's target, a path outside, another file). */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listEntryDirs, noteUse, readUsedBy, removeEntryDir } from '../../indexes/src/cache-dir.js';

describe('cache directory', () => {
  const base = mkdtempSync(join(tmpdir(), 'premise-cache-dir-'));
  const cache = join(base, 'cache');
  const outside = join(base, 'outside-workspace-aaaaaaaaaaaa');
  mkdirSync(join(cache, 'proj-workspace-0123456789ab'), { recursive: true });
  writeFileSync(join(cache, 'proj-workspace-0123456789ab', 'manifest.json'), '{}');
  mkdirSync(outside);
  symlinkSync(outside, join(cache, 'link-workspace-bbbbbbbbbbbb'));
  writeFileSync(join(cache, 'file-workspace-cccccccccccc'), 'not a directory');

  it('lists real entry directories only, with size and use', () => {
    noteUse(join(cache, 'proj-workspace-0123456789ab'), { root: '/p', prover: 'lean' }, 1000);
    noteUse(join(cache, 'proj-workspace-0123456789ab'), { root: '/q', prover: 'isabelle', isabelleCommand: '/i/bin/isabelle' }, 2000);
    noteUse(join(cache, 'proj-workspace-0123456789ab'), { root: '/p', prover: 'lean' }, 3000);
    const [e, ...rest] = listEntryDirs(cache);
    expect(rest).toEqual([]);
    expect(e).toMatchObject({ name: 'proj-workspace-0123456789ab', owner: 'proj', kind: 'workspace', key: '0123456789ab', complete: true, lastUsed: 3000 });
    expect(e!.bytes).toBeGreaterThan(2);
    expect(readUsedBy(e!.dir).map((u) => [u.root, u.lastUsed])).toEqual([['/q', 2000], ['/p', 3000]]);
    expect(listEntryDirs(join(base, 'no-cache'))).toEqual([]);
  });

  it('removes nothing but an entry directory of the cache root', () => {
    expect(removeEntryDir(cache, { name: '../outside-workspace-aaaaaaaaaaaa' })).toBe(false);
    expect(removeEntryDir(cache, { name: 'link-workspace-bbbbbbbbbbbb' })).toBe(false);
    expect(removeEntryDir(cache, { name: 'file-workspace-cccccccccccc' })).toBe(false);
    expect(removeEntryDir(cache, { name: 'notes' })).toBe(false);
    expect(existsSync(outside) && existsSync(join(cache, 'link-workspace-bbbbbbbbbbbb')) && existsSync(join(cache, 'file-workspace-cccccccccccc'))).toBe(true);
    expect(removeEntryDir(cache, { name: 'proj-workspace-0123456789ab' })).toBe(true);
    expect(existsSync(join(cache, 'proj-workspace-0123456789ab'))).toBe(false);
  });
});
