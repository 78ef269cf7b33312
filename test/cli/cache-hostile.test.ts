/**
 * The cache read by `cache list`, `cache clean` and `doctor` is data, never a command, and
 * only what premise-lsp marked as its own is ever removed (issue 31 item 12):
 * - an entry's `used-by.json` naming an `isabelleCommand` that would create a file: the file
 *   is never created, and the entry is judged `unknown` (no recorded distribution to judge by);
 * - directories named like entries that premise-lsp did not mark (a cache root set to $HOME:
 *   a user's `notes-workspace-…/thesis.tex`, a `….tmp-<dead pid>` of theirs) survive
 *   `cache clean`, `cache clean --all` and a build in that cache root, and are reported.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeFixture } from '../unit/lake-project.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-cache-hostile-'));

function run(args: string[], cache: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: tmp, env: { ...process.env, PREMISE_LSP_CACHE: cache, PATH: '/usr/bin:/bin' }, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the cache is read, never run', () => {
  it('an isabelleCommand in used-by.json is never started by cache list, cache clean or doctor', () => {
    const cache = join(tmp, 'cache-cmd');
    const pwned = join(tmp, 'pwned');
    const evil = join(tmp, 'evil-isabelle');
    writeFileSync(evil, `#!/bin/sh\ntouch '${pwned}'\necho ISABELLE_HOME=/nonexistent\n`);
    chmodSync(evil, 0o755);
    const workspace = join(tmp, 'thys');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'ROOT'), 'session Foo = HOL + theories A\n');
    const entry = join(cache, 'thys-workspace-0123456789ab');
    mkdirSync(entry, { recursive: true });
    writeFileSync(join(entry, 'manifest.json'), JSON.stringify({ format: 'premise-lsp-index', version: 3, files: {} }));
    writeFileSync(join(entry, 'used-by.json'), JSON.stringify({ projects: [{ root: workspace, prover: 'isabelle', isabelleCommand: evil, lastUsed: 1 }] }));
    const listed = run(['cache', 'list', '--json'], cache);
    expect(listed.code).toBe(0);
    expect(existsSync(pwned)).toBe(false);
    expect(JSON.parse(listed.out).entries.map((e: { state: string }) => e.state)).toEqual(['unknown']);
    expect(run(['cache', 'list'], cache).code).toBe(0);
    expect(run(['cache', 'clean', '--dry-run'], cache).code).toBe(0);
    expect(run(['cache', 'clean'], cache).code).toBe(0);
    expect(existsSync(entry)).toBe(true); // unknown: kept
    // doctor judges the cache too (the project here is another one)
    const f = lakeFixture();
    const doc = run(['doctor', f.root], cache);
    expect(doc.out).toContain('Lake project proj');
    expect(existsSync(pwned)).toBe(false);
  }, 180_000);
});

describe('cache clean removes only what premise-lsp marked as its own', () => {
  it('a look-alike directory without the marker survives clean, clean --all and a build', () => {
    const cache = join(tmp, 'home');
    const notes = join(cache, 'notes-workspace-0123456789ab');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'thesis.tex'), '\\section{mine}\n');
    const build = join(cache, 'notes-workspace-0123456789ab.tmp-2147483646');
    mkdirSync(build);
    writeFileSync(join(build, 'draft.tex'), 'mine too\n');

    const clean = run(['cache', 'clean'], cache);
    expect(clean.code).toBe(0);
    expect(readFileSync(join(notes, 'thesis.tex'), 'utf8')).toBe('\\section{mine}\n');
    const listed = JSON.parse(run(['cache', 'list', '--json'], cache).out).entries as { name: string; state: string }[];
    expect(listed.map((e) => [e.name, e.state])).toEqual([
      ['notes-workspace-0123456789ab', 'foreign'],
      ['notes-workspace-0123456789ab.tmp-2147483646', 'foreign'],
    ]);
    expect(clean.out).toBe('');
    expect(clean.err).toContain(`left alone: ${notes} (named like a cache entry, but premise-lsp did not mark it as its own)`);
    expect(run(['cache', 'clean', '--all'], cache).out).toBe('');
    // a build in this cache root removes dead builds' leftovers: only its own
    const f = lakeFixture();
    expect(run(['query', '--project', f.root, 'zorble frob'], cache).code).toBe(0);
    expect(readFileSync(join(notes, 'thesis.tex'), 'utf8')).toBe('\\section{mine}\n');
    expect(readFileSync(join(build, 'draft.tex'), 'utf8')).toBe('mine too\n');
    // the entries that build made are marked: clean --all removes them, and nothing else
    const all = run(['cache', 'clean', '--all'], cache);
    expect(all.out.trim().split('\n')).toHaveLength(2);
    expect(existsSync(join(notes, 'thesis.tex')) && existsSync(join(build, 'draft.tex'))).toBe(true);
  }, 180_000);
});

describe('used-by.json that is not a regular file (issue 36 item 2)', () => {
  it('a FIFO: cache list, cache clean and query --project finish (hang guard far above what they need)', () => {
    const cache = join(tmp, 'cache-fifo');
    const f = lakeFixture();
    // the project's entries, built and recorded as used
    expect(run(['query', '--project', f.root, 'zorble frob'], cache).code).toBe(0);
    const entries = JSON.parse(run(['cache', 'list', '--json'], cache).out).entries as { dir: string; state: string }[];
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      rmSync(join(e.dir, 'used-by.json'), { force: true });
      expect(spawnSync('mkfifo', [join(e.dir, 'used-by.json')]).status).toBe(0);
    }
    const guarded = (args: string[]) => {
      const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: tmp, env: { ...process.env, PREMISE_LSP_CACHE: cache, PATH: '/usr/bin:/bin' }, timeout: 30_000 });
      expect(r.signal).toBeNull();
      return r;
    };
    const listed = guarded(['cache', 'list', '--json']);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout).entries.map((e: { state: string }) => e.state)).toEqual(entries.map(() => 'unknown'));
    expect(guarded(['cache', 'list']).status).toBe(0);
    expect(guarded(['cache', 'clean', '--dry-run']).status).toBe(0);
    expect(guarded(['query', '--project', f.root, 'zorble frob']).status).toBe(0);
  }, 180_000);
});
