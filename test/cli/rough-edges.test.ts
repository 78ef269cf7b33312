/**
 * The built CLI's rough edges (issue 23): a usage error prints the command's own
 * usage, a single-valued option given twice is refused, an index of nothing is
 * refused, a missing index is named as missing (not corrupt), an evaluation that
 * scores no query says so, and `serve` needs `--stdio`. Every run has a time limit.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const tmp = mkdtempSync(join(tmpdir(), 'premise-rough-'));
const INDEX = join(tmp, 'sample-idx');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT, timeout: 30_000, input: '' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  const r = run(['index', SAMPLE, '--out', INDEX, '--no-dense']);
  if (r.code !== 0) throw new Error(`indexing the sample failed: ${r.err}`);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a usage error prints the command’s own usage', () => {
  const cases: [string, string[]][] = [
    ['index', ['index', SAMPLE]],
    ['query', ['query', 'x']],
    ['eval', ['eval', '--index', INDEX]],
    ['extract', ['extract']],
    ['rerank-data', ['rerank-data', '--index', INDEX]],
    ['tower-data', ['tower-data']],
    ['fusion-data', ['fusion-data']],
    ['serve', ['serve', '--bogus']],
    ['http', ['http']],
    ['vocab', ['vocab']],
    ['models', ['models', 'push']],
    ['query', ['query', '--index', INDEX, '--nope', 'x']],
  ];
  it.each(cases)('%s: %j', (cmd, args) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^premise-lsp: .+\n/);
    expect(r.err).toContain(`usage: premise-lsp ${cmd} `);
    expect(r.err).not.toMatch(/^commands:/m); // not the global usage
  });

  it('an unknown command still gets the global usage', () => {
    const r = run(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^commands:/m);
  });
});

describe('a single-valued option given twice', () => {
  it('is refused with exit 2, naming the option', () => {
    const r = run(['query', '--index', INDEX, '--index', join(tmp, 'other'), 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--index is given twice/);
    expect(r.out).toBe('');
    const k = run(['query', '--index', INDEX, '-k', '3', '--k', '4', 'x']);
    expect(k.code).toBe(2);
    expect(k.err).toMatch(/--k is given twice/);
  });

  it('serve refuses it too', () => {
    const r = run(['serve', '--stdio', '--index', INDEX, '--index', INDEX]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--index is given twice/);
  });

  it('a repeatable option may be repeated', () => {
    const r = run(['index', join(SAMPLE, 'lean'), '--out', join(tmp, 'twice'), '--no-dense', '--resolve-against', INDEX, '--resolve-against', INDEX]);
    expect(r.err).not.toMatch(/given twice/);
    expect(r.code).toBe(0);
  });
});

describe('index of a path with no sources', () => {
  it('exits 1 saying so, and writes no index', () => {
    const empty = join(tmp, 'no-sources');
    mkdirSync(join(empty, 'sub'), { recursive: true });
    writeFileSync(join(empty, 'sub', 'notes.txt'), 'not a theory\n');
    const out = join(tmp, 'empty-idx');
    const r = run(['index', empty, '--out', out, '--no-dense']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`no .lean or .thy files in ${empty}`);
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    expect(existsSync(out)).toBe(false); // the directory it would have created is not left behind
  });
});

describe('an --index path that is not there', () => {
  it('is reported as no index, with the command that builds one', () => {
    const missing = join(tmp, 'mistyped-idx');
    for (const args of [['query', '--index', missing, 'x'], ['eval', '--index', missing, '--dataset', 'afp']]) {
      const r = run(args);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`no index at ${missing}`);
      expect(r.err).toContain(`premise-lsp index <source>... --out ${missing}`);
      expect(r.err).not.toMatch(/corrupt/);
    }
  });

  it('a directory that holds no index is no index either', () => {
    const r = run(['query', '--index', SAMPLE, 'x']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`no index at ${SAMPLE}`);
    expect(r.err).not.toMatch(/corrupt/);
  });
});

describe('eval that scores no query', () => {
  it('says so and exits 1 instead of printing 0.000 everywhere', () => {
    const data = join(tmp, 'unresolvable.jsonl');
    writeFileSync(data, JSON.stringify({ state_before: 'a b : M\n⊢ a * b = b * a', premises: [{ full_name: 'Not.In.This.Index' }] }) + '\n');
    const r = run(['eval', '--index', INDEX, '--dataset', 'leandojo', data, '--mode', 'bm25']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/no query could be scored/);
    expect(r.err).toMatch(/0 of 1 gold premises/);
  });
});

describe('serve without --stdio', () => {
  it('exits 2 with the serve usage', () => {
    const r = run(['serve', '--index', INDEX]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/serve needs --stdio/);
    expect(r.err).toContain('usage: premise-lsp serve ');
  });
});
