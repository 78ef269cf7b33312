/**
 * The one hold-out rule (server/src/eval/holdout.ts): which files it holds out, the list
 * `holdout-files` writes, that every training-data command and evaluation set takes it from
 * that module, and that the Python recipes refuse to run without the list and drop its files.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractRecords, extractSource } from '../../indexes/src/extract/extract.js';
import { resolveRefs } from '../../indexes/src/extract/resolve.js';
import { evalSetFiles, HoldOutRule, holdOutRule, isDevFile, isValidationFile } from '../../server/src/eval/holdout.js';
import { holdoutFilesCommand } from '../../server/src/cli/holdout-files-cmd.js';
import { statementQueries } from '../../server/src/cli/rerank-data-cmd.js';
import { packageRoot } from '../../server/src/paths.js';

const ROOT = packageRoot();
const tmp = mkdtempSync(join(tmpdir(), 'premise-holdout-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const files = Array.from({ length: 400 }, (_, i) => `Lib/F${i}.lean`);
const VAL = files.find(isValidationFile)!;
const TRAIN = files.filter((f) => !isValidationFile(f) && !isDevFile(f));
const [A, B, C, D] = TRAIN as [string, string, string, string];

/** A shared data directory whose LeanDojo step is in B, MathlibQR answer in C, MathlibMPR result declared in D. */
function sharedDir(): string {
  const dir = join(tmp, 'shared');
  mkdirSync(join(dir, 'leandojo'), { recursive: true });
  mkdirSync(join(dir, 'mathlibqr'), { recursive: true });
  writeFileSync(join(dir, 'leandojo', 'dev_steps.jsonl'), JSON.stringify({ id: 'b_thm#0', theorem: 'b_thm', file_path: B, state_before: '⊢ True', premises: [] }) + '\n');
  writeFileSync(join(dir, 'mathlibqr', 'MathlibQR.json'), JSON.stringify([{ id: 'X1', full_name: 'c_thm', file: `${C}:3`, q1c_natural: 'c' }]));
  writeFileSync(join(dir, 'mathlibqr', 'MathlibMPR.json'), JSON.stringify([{ id: 'm1', formal_main_result: 'd_thm' }, { id: 'm2', formal_main_result: 'not_in_corpus' }]));
  return dir;
}

describe('the one hold-out rule', () => {
  const shared = sharedDir();
  const fileOf = (n: string) => ({ d_thm: D, c_thm: C })[n];

  it('holds out the hash-validation files and the files every evaluation set queries', () => {
    const sets = evalSetFiles(shared, fileOf);
    expect([...sets.files].sort()).toEqual([B, C, D].sort());
    expect(sets.sets.mathlibmpr).toEqual({ queries: 2, files: 1, unknown: 1 });
    const rule = holdOutRule(shared, fileOf);
    expect([VAL, B, C, D].map((f) => rule.isHeldOut(f))).toEqual([true, true, true, true]);
    expect(rule.isHeldOut(A)).toBe(false);
    expect(rule.list([A, VAL, B])).toEqual([VAL, B, C, D].sort());
    // without the shared data, the hash rule alone
    expect(holdOutRule(join(tmp, 'absent'), fileOf).list([A, VAL, B])).toEqual([VAL]);
  });

  it('`holdout-files` writes the list for a corpus of records', async () => {
    const records = join(tmp, 'records.jsonl');
    const src = [A, B, D, VAL].map((f, i) => ({ f, text: `theorem ${['a', 'b', 'd', 'v'][i]}_thm : True := trivial\n` }));
    writeFileSync(records, src.flatMap(({ f, text }) => extractRecords(text, { lang: 'lean', rel: f, module: f.replace('.lean', '') })).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = join(tmp, 'list.txt');
    expect(await holdoutFilesCommand(['--records', records, '--shared', shared, '--out', out])).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe([VAL, B, C, D].sort().join('\n') + '\n');
    await expect(holdoutFilesCommand(['--shared', shared, '--out', out])).rejects.toThrow(/exactly one of/);
  });

  it("gives rerank-data and fusion-data no query from an evaluation set's file: never a training one, and the validation ones stay the held-out statements", () => {
    const records = join(tmp, 'queries.jsonl');
    const lines = [A, B, VAL].flatMap((f, i) =>
      extractRecords(`theorem base${i} : 1 = 1 := rfl\ntheorem use${i} : 1 = 1 := by rw [base${i}]\n`, { lang: 'lean', rel: f, module: `M${i}` }),
    );
    writeFileSync(records, lines.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { queries } = statementQueries(records, new Set(), () => true, shared);
    expect(queries.map((q) => [q.name, q.split]).sort()).toEqual([
      ['use0', 'train'],
      ['use2', 'val'],
    ]);
  });
});

/** TypeScript sources under a directory. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('one place', () => {
  it('every training-data command and evaluation set takes its split from eval/holdout.ts', () => {
    const users = ['server/src/cli/training-files.ts', 'server/src/cli/rerank-data-cmd.ts', 'server/src/cli/fusion-data-cmd.ts', 'server/src/cli/holdout-files-cmd.ts', 'server/src/eval/statements.ts', 'server/src/eval/isabelle-lemmas.ts'];
    for (const f of users) expect(readFileSync(join(ROOT, f), 'utf8'), f).toMatch(/from '(\.\.\/eval|\.)\/holdout\.js'/);
    // the training-data commands build the rule through training-files.ts's readRule (rerank-data and fusion-data in statementQueries)
    expect(readFileSync(join(ROOT, 'server/src/cli/rerank-data-cmd.ts'), 'utf8')).toMatch(/readRule\(/);
    for (const f of ['server/src/cli/tower-data-cmd.ts', 'server/src/cli/fusion-data-cmd.ts']) expect(readFileSync(join(ROOT, f), 'utf8'), f).toMatch(/readRule\(|statementQueries\(/);
    // and nothing else computes the split: no hash mod 20, no *_MOD constant outside holdout.ts
    const offenders = [...tsFiles(join(ROOT, 'server', 'src')), ...tsFiles(join(ROOT, 'indexes', 'src'))]
      .filter((f) => !f.endsWith(join('eval', 'holdout.ts')))
      .filter((f) => /(Hash\([^)]*\)|digest\([^)]*\)[^;\n]*)\s*%\s*(VAL_MOD|20n?)\b|const \w*(VAL|HOLDOUT)_MOD\b/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });

  it('the Python recipes read the list and compute no split of their own', () => {
    const recipes = ['models/train/prep.py', 'models/train/text_tower.py', 'models/train/reranker/train.py', 'models/train/fusion/train.py', 'models/train/ranker/train.py', 'models/train/afp_prose.py'];
    for (const f of recipes) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      expect(text, f).toMatch(/heldout_files\(\)/);
      expect(text, f).not.toMatch(/md5|is_heldout_file|VAL_MOD|file_bucket/);
    }
    for (const sh of ['models/train/train.sh', 'models/train/text_tower.sh', 'models/train/reranker/train.sh', 'models/train/fusion/train.sh', 'models/train/ranker/train.sh']) {
      expect(readFileSync(join(ROOT, sh), 'utf8'), sh).toMatch(/holdout-files/);
    }
  });
});

const python = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import json'], { stdio: 'ignore' }).status === 0);
if (!python) console.log('holdout.test.ts: no python3, the recipe checks are skipped');

describe.skipIf(!python)('the Python recipes', () => {
  const env = { ...process.env };
  delete env.HOLDOUT_FILES;
  const run = (script: string, args: string[], extra: Record<string, string> = {}) =>
    spawnSync(python!, [join(ROOT, script), ...args], { env: { ...env, HOLDOUT: join(tmp, 'no-holdout.txt'), LEANDOJO: join(tmp, 'no-dojo.jsonl'), ...extra }, encoding: 'utf8' });

  it('refuse to run without the held-out file list', () => {
    for (const script of ['models/train/prep.py', 'models/train/text_tower.py', 'models/train/reranker/train.py', 'models/train/fusion/train.py', 'models/train/afp_prose.py']) {
      const r = run(script, [join(tmp, 'x'), ...(script.endsWith('afp_prose.py') ? ['--out'] : []), join(tmp, 'y')]);
      expect(r.status, script).not.toBe(0);
      expect(r.stderr, script).toMatch(/HOLDOUT_FILES is not set/);
    }
    const r = run('models/train/prep.py', [join(tmp, 'x'), join(tmp, 'y')], { HOLDOUT_FILES: join(tmp, 'absent.txt') });
    expect(r.stderr).toMatch(/no such file/);
  });

  it("prep.py (the encoder's data) never trains on a listed file: its theorems are validation queries, its declarations no positives", () => {
    const records = join(tmp, 'prep-records.jsonl');
    const sources: [string, string][] = [
      [A, 'theorem base_a (n : Nat) : n + 0 = n := rfl\ntheorem use_a (n : Nat) : n + 0 + 0 = n := by rw [base_a, base_a]\n'],
      [B, 'theorem base_b (n : Nat) : 0 + n = n := sorry\ntheorem use_b (n : Nat) : 0 + n + 0 = n := by rw [base_b, base_a]\ntheorem use_ab (n : Nat) : n = n := by rw [base_b]\n'],
      [C, 'theorem use_c (n : Nat) : n = n + 0 := by rw [base_a, base_b]\n'],
    ];
    const recs = resolveRefs(sources.flatMap(([f, text]) => extractSource(text, { lang: 'lean', rel: f, module: f.replace('.lean', '') }).decls));
    writeFileSync(records, recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const list = join(tmp, 'prep-list.txt');
    writeFileSync(list, `${B}\n`);
    const r = run('models/train/prep.py', [records, join(tmp, 'prep-work')], { HOLDOUT_FILES: list });
    expect(r.status, r.stderr).toBe(0);
    // training pairs: use_a → base_a (twice the same premise: one pair) and use_c → base_a; base_b (in B) is no positive;
    // use_b and use_ab (in B) are validation queries
    expect(r.stdout).toMatch(/state_pairs=2 \(queries 2\)/);
    expect(r.stdout).toMatch(/val_queries=2/);
    expect(r.stdout).toMatch(/heldout_files=1/);
  });
});
