/**
 * `premise-lsp cache list|clean` and `query --project`: the automatic index cache of a tiny
 * Lake project, built by `query --project` as the server builds it; entries judged fresh or
 * stale against the project that used them; clean removes only entry directories of the
 * cache root (never a link's target, never other files in it).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEP_THEOREM, lakeFixture, WS_THEOREM } from '../unit/lake-project.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-cache-'));
const cache = join(tmp, 'cache');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: tmp, env: { ...process.env, PREMISE_LSP_CACHE: cache }, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface Listed {
  name: string;
  kind: string;
  state: string;
  bytes: number;
  lastUsed: string;
  projects: string[];
}
const list = (): Listed[] => JSON.parse(run(['cache', 'list', '--json']).out).entries;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('query --project and the cache commands', () => {
  const f = lakeFixture();

  it('query --project builds the entries the server would use, then reuses them', () => {
    expect(run(['cache', 'list']).out).toBe(`no cache entries in ${cache}\n`);
    const r = run(['query', '--project', f.root, '--json', 'zorble frob']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).map((h: { name: string }) => h.name)).toContain(DEP_THEOREM);
    expect(r.err).toMatch(/indexing proj dependencies/);
    expect(readdirSync(cache).map((n) => n.replace(/-[0-9a-f]{12}$/, '')).sort()).toEqual(['proj-dependencies', 'proj-workspace']);
    const again = run(['query', '--project', f.root, '--json', 'quux wibble']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)[0].name).toBe(WS_THEOREM);
    expect(again.err).not.toMatch(/indexing/); // from the cache
  });

  it('query takes --index or --project, not both', () => {
    const r = run(['query', '--project', f.root, '--index', join(tmp, 'x'), 'zorble']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--index <index-dir> or --project <dir>/);
  });

  it('cache list: each entry with its state, kind, size, last use and project', () => {
    const entries = list();
    expect(entries.map((e) => [e.kind, e.state, e.projects])).toEqual([
      ['dependencies', 'fresh', [f.root]],
      ['workspace', 'fresh', [f.root]],
    ]);
    for (const e of entries) {
      expect(e.bytes).toBeGreaterThan(0);
      expect(Date.parse(e.lastUsed)).toBeGreaterThan(Date.now() - 3_600_000);
    }
    const text = run(['cache', 'list']).out;
    expect(text).toContain(`cache: ${cache}\n`);
    expect(text).toMatch(/^fresh +dependencies +[\d.]+ KiB +\d{4}-\d\d-\d\d \d\d:\d\d +proj-dependencies-[0-9a-f]{12} +\/.*proj$/m);
    expect(text).toMatch(/^2 entries, [\d.]+ KiB$/m);
  });

  it('cache clean removes stale entries and dead builds' + "' leftovers, and nothing else", () => {
    // what is not an entry, or not the cache's: a file, a directory, a link named like an entry
    const outside = join(tmp, 'precious');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'mine');
    writeFileSync(join(cache, 'notes.txt'), 'mine');
    mkdirSync(join(cache, 'my-stuff'));
    symlinkSync(outside, join(cache, 'proj-workspace-aaaaaaaaaaaa'));
    // a build whose process is gone, and an entry no use is recorded in
    mkdirSync(join(cache, 'proj-workspace-bbbbbbbbbbbb.tmp-2147483646'));
    writeFileSync(join(cache, 'proj-workspace-bbbbbbbbbbbb.tmp-2147483646', '.premise-lsp-entry'), ''); // made by a build of ours
    const ws = readdirSync(cache).find((n) => /^proj-workspace-[0-9a-f]{12}$/.test(n) && n !== 'proj-workspace-aaaaaaaaaaaa')!;
    cpSync(join(cache, ws), join(cache, 'other-workspace-cccccccccccc'), { recursive: true });
    rmSync(join(cache, 'other-workspace-cccccccccccc', 'used-by.json'));
    // the dependencies move on: both entries of the project are stale (the workspace's key covers the dependencies')
    f.manifest({ deplib: 'def456' });

    const states = Object.fromEntries(list().filter((e) => !e.name.includes('.tmp-')).map((e) => [e.name.replace(/[0-9a-f]{12}$/, ''), e.state]));
    expect(states).toEqual({ 'proj-dependencies-': 'stale', 'proj-workspace-': 'stale', 'other-workspace-': 'unknown' });
    const leftover = list().filter((e) => e.state === 'leftover');
    expect(leftover.map((e) => e.name)).toEqual(['proj-workspace-bbbbbbbbbbbb.tmp-2147483646']);

    const dry = run(['cache', 'clean', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out.trim().split('\n')).toHaveLength(3);
    expect(dry.out).toMatch(/^would remove .*proj-dependencies-[0-9a-f]{12} \(stale, /m);
    expect(list()).toHaveLength(4);

    const r = run(['cache', 'clean']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(3);
    expect(r.err).toMatch(/freed [\d.]+ KiB in .*; 1 entry kept/);
    expect(list().map((e) => e.name)).toEqual(['other-workspace-cccccccccccc']);

    // the project's entries, built again for its new dependencies, are fresh
    expect(run(['query', '--project', f.root, 'zorble frob']).code).toBe(0);
    expect(list().map((e) => e.state).sort()).toEqual(['fresh', 'fresh', 'unknown']);

    const all = run(['cache', 'clean', '--all']);
    expect(all.code).toBe(0);
    expect(all.out.trim().split('\n')).toHaveLength(3);
    expect(list()).toEqual([]);
    expect(readdirSync(cache).sort()).toEqual(['my-stuff', 'notes.txt', 'proj-workspace-aaaaaaaaaaaa']);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('a project that is gone leaves its entries stale', () => {
    const g = lakeFixture();
    expect(run(['query', '--project', g.root, 'zorble frob']).code).toBe(0);
    rmSync(g.root, { recursive: true, force: true });
    expect(list().map((e) => e.state)).toEqual(['stale', 'stale']);
  });

  it('usage errors', () => {
    for (const args of [['cache'], ['cache', 'purge'], ['cache', 'list', '--all'], ['cache', 'clean', '--json']]) {
      const r = run(args);
      expect(r.code).toBe(2);
      expect(r.err).toContain('`premise-lsp cache --help` lists its options');
    }
  });
});
