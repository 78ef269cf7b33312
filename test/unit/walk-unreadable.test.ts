/**
 * A `.lake/packages` directory that cannot be listed (EACCES: a permission this
 * test, often run as root, cannot take away, so the listing is made to fail) is
 * a warning naming it; the project's own sources are still found.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((p: string, o?: unknown) => {
    if (String(p).endsWith(join('.lake', 'packages'))) throw Object.assign(new Error(`EACCES: permission denied, scandir '${p}'`), { code: 'EACCES' });
    return (fs.readdirSync as (p: string, o?: unknown) => unknown)(p, o);
  }) as typeof fs.readdirSync;
  return { ...fs, default: { ...fs, readdirSync }, readdirSync };
});

const { discoverSources } = await import('../../indexes/src/extract/walk.js');

describe('an unreadable .lake/packages', () => {
  it('is a warning, and the project’s own files are still found', () => {
    const root = mkdtempSync(join(tmpdir(), 'premise-unreadable-'));
    mkdirSync(join(root, '.lake', 'packages', 'dep'), { recursive: true });
    writeFileSync(join(root, 'Own.lean'), 'theorem own : True := trivial\n');
    const { files, warnings } = discoverSources([root]);
    expect(files.map((f) => f.module)).toEqual(['Own']);
    expect(warnings).toEqual([`${join(root, '.lake', 'packages')}: EACCES: permission denied, scandir '${join(root, '.lake', 'packages')}'`]);
  });
});
