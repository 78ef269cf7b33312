/**
 * The built CLI end to end on the bundled sample: index, query, eval, and the
 * exit-status contract (0 ok, 2 usage, 1 other errors with the reason on stderr).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const TINY = join(ROOT, 'test', 'fixtures', 'tiny-encoder');
const tmp = mkdtempSync(join(tmpdir(), 'premise-cli-'));

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('premise-lsp index/query (sparse)', () => {
  const index = join(tmp, 'sparse');

  it('indexes the sample with a summary on stderr', () => {
    const r = run(['index', SAMPLE, '--out', index, '--no-dense']);
    expect(r.err).toMatch(/indexed 4 files: \d+ declarations/);
    expect(r.code).toBe(0);
  });

  it('names the modules of a package subdirectory from the package root, and says which root (issue 35)', () => {
    // a fixture Lake project: lakefile + Pkg/Sub/File.lean; `index <project>/Pkg` as `index <mathlib4>/Mathlib`
    const proj = join(tmp, 'subdir-proj');
    mkdirSync(join(proj, 'Pkg', 'Sub'), { recursive: true });
    writeFileSync(join(proj, 'lakefile.toml'), 'name = "proj"\n\n[[lean_lib]]\nname = "Pkg"\n');
    writeFileSync(join(proj, 'Pkg', 'Sub', 'File.lean'), '/-- A snark is blorped. -/\ntheorem snark_blorp (n : Nat) : n + 0 = n := rfl\n');
    const out = join(tmp, 'subdir-index');
    const r = run(['index', join(proj, 'Pkg'), '--out', out, '--no-dense']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`module names of ${join(proj, 'Pkg')} counted from ${proj} (the nearest Lake package above it): Pkg.…`);
    const q = run(['query', '--index', out, '--k', '1', '--json', 'snark blorp']);
    const hit = (JSON.parse(q.out) as { name: string; module: string; file: string }[])[0]!;
    // `file` stays relative to the directory given, where the index's recorded source finds it
    expect(hit).toMatchObject({ name: 'snark_blorp', module: 'Pkg.Sub.File', file: 'Sub/File.lean' });
    expect(existsSync(join(proj, 'Pkg', hit.file))).toBe(true);
  });

  it('answers a Lean proof state with name, kind, statement, location and scores', () => {
    const r = run(['query', '--index', index, '--k', '3', '--json', 'l₁ l₂ : List α\n⊢ (l₁ ++ l₂).length = l₁.length + l₂.length']);
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.out);
    expect(hits).toHaveLength(3);
    expect(hits[0].name).toBe("Sample.Lists.length_append'");
    expect(hits[0]).toMatchObject({ kind: 'theorem', rank: 1, file: 'Sample/Lists.lean' });
    // where it is: the file under the source given to `index` (a Lake package nested in it)
    expect(hits[0].path).toBe(join(SAMPLE, 'lean', 'Sample', 'Lists.lean'));
    expect(hits[0].statement).toContain('(l₁ ++ l₂).length = l₁.length + l₂.length');
    expect(hits[0].doc).toMatch(/sum of the lengths/);
    expect(hits[0].parts.sparse).toBeGreaterThan(0);
  });

  it('reads the state from stdin with -', () => {
    const r = run(['query', '--index', index, '--k', '1', '--json', '-'], 'l : List α\n⊢ (rev l).length = l.length');
    expect(JSON.parse(r.out)[0].name).toBe('Sample.Lists.length_rev');
  });

  it('answers Isabelle goals and plain English', () => {
    const isa = run(['query', '--index', index, '--k', '1', '--json', 'goal (1 subgoal):\n 1. rev (rev xs) = xs']);
    expect(JSON.parse(isa.out)[0].name).toMatch(/rev_rev/);
    const en = run(['query', '--index', index, '--k', '1', '--json', 'triangle inequality for absolute values']);
    expect(JSON.parse(en.out)[0].name).toBe('Sample.Order.abs_add_le');
  });

  it('reads English through the informal side: the name in words, stemmed', () => {
    // no docstring says it: `le_antisymm'` read through the naming convention does
    const q = 'antisymmetry of less than or equal';
    const hybrid = run(['query', '--index', index, '--mode', 'hybrid', '--k', '1', '--json', q]);
    expect(JSON.parse(hybrid.out)[0]).toMatchObject({ name: "Nat.le_antisymm'", parts: { informal: expect.any(Number), name: expect.any(Number) } });
    const formalOnly = run(['query', '--index', index, '--mode', 'bm25', '--k', '5', '--json', q]);
    expect(JSON.parse(formalOnly.out).map((h: { name: string }) => h.name)).not.toContain("Nat.le_antisymm'");
  });

  it('evaluates a LeanDojo-style file', () => {
    const data = join(tmp, 'steps.jsonl');
    writeFileSync(
      data,
      [
        { state_before: 'a b : M\n⊢ a * b = b * a', premises: [{ full_name: 'Sample.mul_comm' }, { full_name: 'Unknown.name' }] },
        { state_before: 'n : Nat\n⊢ 2 * n = n + n', premises: [{ full_name: 'Nat.two_mul\'' }] },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n'),
    );
    const r = run(['eval', '--index', index, '--dataset', 'leandojo', data, '--mode', 'bm25', '--json']);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep).toMatchObject({ dataset: 'leandojo', mode: 'bm25', total: 3, resolved: 2 });
    expect(Object.keys(rep.metrics)).toEqual(['R@1', 'R@5', 'R@10', 'R@16', 'R@32', 'R@100', 'nDCG@10', 'MRR']);
    expect(rep.metrics['R@10']).toBe(1);
    // candidate generation apart from ranking: the whole pool's recall and each generator's
    expect(rep.pool.all).toEqual({ queries: 2, pool: 1, generators: { sparse: 1 } });
    expect(run(['eval', '--index', index, '--dataset', 'leandojo', data, '--mode', 'bm25']).out).toMatch(/pool, all\s+1\.000 {2}\(sparse 1\.000\)/);
    const plain = JSON.parse(run(['eval', '--index', index, '--dataset', 'leandojo', data, '--mode', 'bm25-plain', '--json']).out);
    expect(plain).toMatchObject({ mode: 'bm25-plain', resolved: 2 });
  });
});

describe('exit status and errors', () => {
  it('exits 2 on bad usage', () => {
    expect(run([]).code).toBe(2);
    expect(run(['frobnicate']).code).toBe(2);
    expect(run(['query', 'x']).err).toMatch(/--index/);
    expect(run(['query', '--index', tmp, '--mode', 'fast', 'x']).code).toBe(2);
    expect(run(['index', SAMPLE]).code).toBe(2);
    const w = run(['query', '--index', tmp, '--weights', '1,2', 'x']);
    expect(w.code).toBe(2);
    expect(w.err).toMatch(/--weights takes three to twelve/);
  });

  it('exits 1 naming the file when a dataset file is not one', () => {
    const index = join(tmp, 'sparse');
    const bad = (name: string, text: string) => {
      const file = join(tmp, name);
      writeFileSync(file, text);
      return file;
    };
    const lines = bad('bad-steps.jsonl', '{"state_before": "⊢ a", "premises": []}\n{"a": 1}\n');
    let r = run(['eval', '--index', index, '--dataset', 'leandojo', lines, '--mode', 'bm25']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`premise-lsp: ${lines}: not a leandojo dataset (entry 2: needs state_before (a string) and premises (a list of {full_name}))\n`);
    const obj = bad('bad-qr.json', '{"id": 1}');
    r = run(['eval', '--index', index, '--dataset', 'mathlibqr', obj, '--mode', 'bm25']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`premise-lsp: ${obj}: not a mathlibqr dataset (expected a JSON list of entries)\n`);
    const empty = bad('empty.jsonl', '');
    r = run(['eval', '--index', index, '--dataset', 'leandojo', empty, '--mode', 'bm25']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`premise-lsp: ${empty}: no leandojo queries in it\n`);
    expect(r.out).toBe('');
  });

  it('--dataset afp takes no file and needs held-out Isabelle lemmas in the index', () => {
    const index = join(tmp, 'sparse');
    let r = run(['eval', '--index', index, '--dataset', 'afp', 'lemmas.jsonl', '--mode', 'bm25']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--dataset afp takes no file/);
    // the sample's one theory is not among the held-out ones
    r = run(['eval', '--index', index, '--dataset', 'afp', '--mode', 'bm25']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`premise-lsp: ${index}: no held-out Isabelle lemmas in this index\n`);
  });

  it('exits 1 naming the file when the index is corrupt', () => {
    const index = join(tmp, 'corrupt');
    expect(run(['index', SAMPLE, '--out', index, '--no-dense']).code).toBe(0);
    truncateSync(join(index, 'premises.bin'), 64);
    const r = run(['query', '--index', index, 'x']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(join(index, 'premises.bin'));
  });

  it('never prints a premise from a premises.bin flipped in the middle: exits 1 naming the file', () => {
    const index = join(tmp, 'flipped');
    expect(run(['index', SAMPLE, '--out', index, '--no-dense']).code).toBe(0);
    const file = join(index, 'premises.bin');
    const buf = readFileSync(file);
    const at = buf.indexOf('length_append', buf.length >> 1); // inside a stored statement
    buf[at >= 0 ? at : buf.length >> 1] ^= 0x01;
    writeFileSync(file, buf);
    const r = run(['query', '--index', index, '--k', '50', 'l₁ l₂ : List α\n⊢ (l₁ ++ l₂).length = l₁.length + l₂.length']);
    expect(r.out).toBe('');
    expect(r.err).toContain(`${file}: checksum mismatch`);
    expect(r.code).toBe(1);
  });

  it('exits 1 when the index directory does not exist', () => {
    const r = run(['query', '--index', join(tmp, 'nowhere'), 'x']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no index at .*nowhere/);
  });
});

describe.skipIf(!existsSync(join(TINY, 'model.onnx')))('premise-lsp index/query (dense, tiny encoder)', () => {
  const index = join(tmp, 'dense');
  it('builds vectors and answers in every mode', () => {
    expect(run(['index', SAMPLE, '--out', index, '--encoder', TINY]).code).toBe(0);
    for (const mode of ['bm25', 'dense', 'hybrid']) {
      const r = run(['query', '--index', index, '--mode', mode, '--k', '5', '--json', 'a b : M\n⊢ a * b = b * a']);
      expect(r.code).toBe(0);
      const hits = JSON.parse(r.out);
      expect(hits).toHaveLength(5);
      if (mode !== 'bm25') expect(typeof hits[0].parts.dense).toBe('number');
    }
  });
});
