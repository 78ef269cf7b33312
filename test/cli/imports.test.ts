/**
 * `query --imported-modules A,B | --imports-from FILE [--imports only|prefer|any]`
 * on an index of the narrow-import Lake fixture (Imp.A imports Imp.B; Imp.C is
 * imported by nobody; Imp/Use.lean imports Imp.A alone).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const LAKE = join(ROOT, 'test', 'fixtures', 'imports', 'lean');
const tmp = mkdtempSync(join(tmpdir(), 'premise-cli-imports-'));
const index = join(tmp, 'idx');
const QUERY = 'snark sum swap';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const names = (out: string) => (JSON.parse(out) as { name: string }[]).map((h) => h.name);

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  const r = run(['index', LAKE, '--out', index, '--no-dense']);
  if (r.code !== 0) throw new Error(r.err);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('query with what the file imports', () => {
  it('without import options: every premise, C\'s best match first', () => {
    const r = run(['query', '--index', index, '--json', QUERY]);
    expect(r.code).toBe(0);
    expect(names(r.out)[0]).toBe('Imp.snark_swap');
  });

  it('--imported-modules Imp.A: premises of A and of B (which A imports), not C\'s', () => {
    const r = run(['query', '--index', index, '--json', '--imported-modules', 'Imp.A', QUERY]);
    expect(r.code).toBe(0);
    expect(names(r.out).sort()).toEqual(['Imp.snark_left', 'Imp.snark_right']);
  });

  it('--imports-from a file: its header\'s imports; --imports prefer ranks C\'s after, marked needsImport', () => {
    const r = run(['query', '--index', index, '--json', '--imports-from', join(LAKE, 'Imp', 'Use.lean'), '--imports', 'prefer', QUERY]);
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.out) as { name: string; rank: number; needsImport?: string }[];
    expect(hits.map((h) => h.name).at(-1)).toBe('Imp.snark_swap');
    expect(hits.at(-1)!.needsImport).toBe('Imp.C');
    expect(hits.filter((h) => h.needsImport).length).toBe(1);
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1));
    const text = run(['query', '--index', index, '--imports-from', join(LAKE, 'Imp', 'Use.lean'), '--imports', 'any', QUERY]);
    expect(text.out).toMatch(/Imp\.snark_swap[^]*\(needs import Imp\.C\)/);
  });

  it('bad options are usage errors (exit 2) naming the fix', () => {
    const noModules = run(['query', '--index', index, '--imports', 'only', QUERY]);
    expect(noModules.code).toBe(2);
    expect(noModules.err).toMatch(/--imports needs --imported-modules or --imports-from/);
    const badPolicy = run(['query', '--index', index, '--imported-modules', 'Imp.A', '--imports', 'sometimes', QUERY]);
    expect(badPolicy.code).toBe(2);
    expect(badPolicy.err).toMatch(/--imports must be one of prefer, only, any/);
    const missing = run(['query', '--index', index, '--imports-from', join(tmp, 'Nope.lean'), QUERY]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--imports-from: cannot read .*Nope\.lean \(ENOENT\)/);
    const notSource = run(['query', '--index', index, '--imports-from', join(tmp, 'x.txt'), QUERY]);
    expect(notSource.code).toBe(2);
    expect(notSource.err).toMatch(/--imports-from takes a \.lean or \.thy file/);
    const empty = run(['query', '--index', index, '--imported-modules', ' , ', QUERY]);
    expect(empty.code).toBe(2);
    // before any index is opened: a missing index is not what is reported
    const first = run(['query', '--index', join(tmp, 'no-such-index'), '--imported-modules', 'Imp.A', '--imports', 'sometimes', QUERY]);
    expect(first.code).toBe(2);
    expect(first.err).toMatch(/--imports must be one of/);
  });

  it('--imports-from a FIFO, a directory or a huge file: a usage error at once, never a hang', { timeout: 120_000 }, () => {
    const fifo = join(tmp, 'Pipe.lean');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // a hang guard far above what it needs: a stall fails on the signal
    const r = spawnSync(process.execPath, [CLI, 'query', '--index', index, '--imports-from', fifo, QUERY], { encoding: 'utf8', cwd: ROOT, timeout: 30_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--imports-from: cannot read ${fifo} (not a regular file)`);
    mkdirSync(join(tmp, 'Dir.lean'));
    expect(run(['query', '--index', index, '--imports-from', join(tmp, 'Dir.lean'), QUERY]).err).toContain('(a directory)');
    const huge = join(tmp, 'Huge.lean');
    writeFileSync(huge, '');
    truncateSync(huge, 4 * 2 ** 20 + 1);
    const big = run(['query', '--index', index, '--imports-from', huge, QUERY]);
    expect(big.code).toBe(2);
    expect(big.err).toContain(`--imports-from: cannot read ${huge} (larger than 4 MiB)`);
  });
});
