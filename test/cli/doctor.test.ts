/**
 * `premise-lsp doctor` from the shell: every check a line, ✓ or ✗ with its fix, exit 1 when
 * one fails. The prover is a fake `lake` / `isabelle` on a PATH made for each run (no Lean or
 * Isabelle needed); premise-lsp is put on that PATH as a link to the built CLI.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeFixture } from '../unit/lake-project.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-doctor-'));
const cache = join(tmp, 'cache');

/** A directory of executables for PATH: `premise-lsp` (a link to the CLI) and the given scripts. */
function bin(name: string, scripts: Record<string, string>, withCli = true): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  if (withCli) symlinkSync(CLI, join(dir, 'premise-lsp'));
  for (const [cmd, text] of Object.entries(scripts)) {
    writeFileSync(join(dir, cmd), `#!/bin/sh\n${text}\n`);
    chmodSync(join(dir, cmd), 0o755);
  }
  return dir;
}

function run(args: string[], path: string, cwd = ROOT) {
  const env = { ...process.env, PATH: `${path}:/usr/bin:/bin`, PREMISE_LSP_CACHE: cache };
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, env, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const lines = (out: string, mark: '✓' | '✗') => out.split('\n').filter((l) => l.startsWith(mark));

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('premise-lsp doctor', () => {
  const lake = bin('lake-bin', { lake: 'echo "Lake version 5.0.0-fake (Lean version 4.99.0)"' });

  it('a Lake project: everything found, the automatic index not built yet, then cached; exit 0', () => {
    const f = lakeFixture();
    let r = run(['doctor', f.root], lake);
    expect(r.err).toBe('');
    expect(lines(r.out, '✗')).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^✓ premise-lsp \d+\.\d+\.\d+ \(node v/m);
    expect(r.out).toContain(`✓ premise-lsp on PATH: ${join(lake, 'premise-lsp')}\n`); // this install: no note
    for (const m of ['encoder', 'text tower', 'reranker', 'vocabulary']) expect(r.out).toMatch(new RegExp(`^✓ ${m} loads`, 'm'));
    expect(r.out).toMatch(/^✓ server starts: initialize answered in [\d.]+ s \(premise-lsp [^)]*\), shut down cleanly$/m);
    expect(r.out).toContain(`✓ Lake project proj at ${f.root}; automatic index cache ${cache}`);
    expect(r.out).toMatch(/^✓ dependencies entry .*proj-dependencies-[0-9a-f]{12}: not built yet/m);
    expect(r.out).toMatch(/^✓ workspace entry .*proj-workspace-[0-9a-f]{12}: not built yet/m);
    expect(r.out).toContain('✓ lake: Lake version 5.0.0-fake (Lean version 4.99.0)');
    expect(r.out).toMatch(/all checks passed\n$/);

    expect(run(['query', '--project', f.root, 'zorble frob'], lake).code).toBe(0);
    r = run(['doctor', f.root], lake);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^✓ dependencies entry .*: cached with vectors, [\d.]+ KiB$/m);
    expect(r.out).toMatch(/^✓ workspace entry .*: cached with vectors, [\d.]+ KiB$/m);
  });

  it('fails, with the fix, when the prover or premise-lsp is not on PATH', () => {
    const f = lakeFixture();
    const r = run(['doctor', f.root], bin('empty-bin', {}, false));
    expect(r.code).toBe(1);
    const failed = lines(r.out, '✗');
    expect(failed).toEqual(['✗ premise-lsp is not on PATH (editors start the server by that name)', '✗ lake: lake is not on PATH']);
    expect(r.out).toMatch(/✗ lake: lake is not on PATH\n {4}fix: install elan/);
    expect(r.out).toMatch(/2 checks failed\n$/);
  });

  it('names a toolchain whose library sources are missing', () => {
    const f = lakeFixture();
    f.write('lean-toolchain', 'leanprover/lean4:v4.98.0\n');
    const env = { ELAN_HOME: join(tmp, 'no-elan') };
    const r = spawnSync(process.execPath, [CLI, 'doctor', f.root], { encoding: 'utf8', env: { ...process.env, ...env, PATH: `${lake}:/usr/bin:/bin`, PREMISE_LSP_CACHE: cache }, timeout: 120_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/✗ toolchain library leanprover\/lean4:v4\.98\.0: no sources .*\n {4}fix: `elan toolchain install leanprover\/lean4:v4\.98\.0`/);
  });

  it('an Isabelle workspace: isabelle on PATH', () => {
    const ws = join(tmp, 'isa-ws');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'ROOT'), 'session Mine = HOL + theories Mine\n');
    writeFileSync(join(ws, 'Mine.thy'), 'theory Mine imports Main begin\nlemma quibble_twice: "x = x" by simp\nend\n');
    const isa = bin('isa-bin', { isabelle: 'if [ "$1" = version ]; then echo Isabelle2099; fi' });
    const r = run(['doctor', ws], isa);
    expect(lines(r.out, '✗')).toEqual([]);
    expect(r.out).toContain(`✓ Isabelle workspace isa-ws at ${ws}`);
    expect(r.out).toMatch(/^✓ workspace entry .*isa-ws-workspace-[0-9a-f]{12}: not built yet/m);
    expect(r.out).toContain('✓ isabelle: Isabelle2099');
    expect(r.code).toBe(0);
  });

  it('--index: the index given, or no index there', () => {
    const index = join(tmp, 'idx');
    expect(run(['index', join(ROOT, 'test', 'fixtures', 'sample'), '--out', index, '--no-dense'], lake).code).toBe(0);
    let r = run(['doctor', '--index', index], lake);
    expect(r.out).toMatch(new RegExp(`^✓ index ${index}: \\d+ premises`, 'm'));
    expect(r.code).toBe(0);
    r = run(['doctor', '--index', join(tmp, 'no-idx')], lake);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`✗ index ${join(tmp, 'no-idx')}: no index at ${join(tmp, 'no-idx')}`);
  });

  it('--index: an index the server refuses (built with an encoder this installation lacks) fails with the message query gives', () => {
    const index = join(tmp, 'idx-foreign-encoder');
    expect(run(['index', join(ROOT, 'test', 'fixtures', 'sample'), '--out', index], lake).code).toBe(0);
    const file = join(index, 'manifest.json');
    const m = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...m, encoder: { ...m.encoder, id: 'default-000000000000' } }));
    const refused = 'was built with encoder default-000000000000, which this installation does not have';
    const q = run(['query', '--index', index, 'a + b = b + a'], lake);
    expect(q.code).toBe(1);
    expect(q.err).toContain(refused);
    const r = run(['doctor', '--index', index], lake);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/^✓ index /m);
    expect(lines(r.out, '✗')).toEqual([expect.stringContaining(`✗ index ${index}: the index ${index} ${refused}`)]);
  });

  it('--index naming a Lake project: ✗, and the fix never writes an index among its sources', () => {
    const f = lakeFixture();
    const r = run(['doctor', '--index', f.root], lake);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`✗ index ${f.root}: no index at ${f.root}`);
    expect(r.out).not.toContain(`--out ${f.root}`);
    expect(r.out).toContain('--out ~/.cache/premise-lsp/proj');
  });

  it('outside a project, without DIR: says so and passes; a DIR that is no project fails', () => {
    const plain = join(tmp, 'plain');
    mkdirSync(plain, { recursive: true });
    let r = run(['doctor'], lake, plain);
    expect(r.out).toMatch(/^✓ .*plain: no Lean or Isabelle project here/m);
    expect(r.code).toBe(0);
    r = run(['doctor', plain], lake);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^✗ automatic index of .*plain: .*not a Lake project/m);
    expect(run(['doctor', join(tmp, 'nowhere')], lake).code).toBe(2);
  });
});
