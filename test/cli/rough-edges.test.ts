/**
 * The built CLI's rough edges (issues 23 and 31): a usage error is one line (an unknown
 * option or command with the nearest valid one) and where the command's own help is;
 * a single-valued option given twice is refused; an index of nothing is refused; a
 * missing index is named as missing (not corrupt), an `--index` naming a source tree
 * gets `--project` and never an `--out` inside it, an index of another format version
 * is named older or newer with its rebuild command; an evaluation that scores no query
 * says so; `serve` needs `--stdio`. Every run has a time limit.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../indexes/src/store/index-dir.js';
import { lakeFixture } from '../unit/lake-project.js';

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

describe('a usage error is one line, then where the command’s own help is (issue 31)', () => {
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
  const twoLines = (err: string, cmd: string) => {
    const lines = err.split('\n').filter((l) => l);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^premise-lsp ${cmd}: .+`));
    expect(lines[1]).toBe(`\`premise-lsp ${cmd} --help\` lists its options`);
    return lines[0]!;
  };
  it.each(cases)('%s: %j', (cmd, args) => {
    const r = run(args);
    expect(r.code).toBe(2);
    twoLines(r.err, cmd);
  });

  it('an unknown option is named with the nearest valid one, not Node’s parser text and the whole usage', () => {
    const r = run(['query', '--indx', INDEX, 'x']);
    expect(r.code).toBe(2);
    expect(twoLines(r.err, 'query')).toBe('premise-lsp query: unknown option --indx (did you mean --index?)');
    expect(r.err).not.toMatch(/positional argument|usage:/);
  });

  const unknownOptions: [string, string[], string][] = [
    ['index', ['index', SAMPLE, '--ot', join(tmp, 'x')], '--ot (did you mean --out?)'],
    ['eval', ['eval', '--index', INDEX, '--datset', 'afp'], '--datset (did you mean --dataset?)'],
    ['http', ['http', '--index', INDEX, '--prot', '1'], '--prot (did you mean --port?)'],
    ['doctor', ['doctor', '--indexx', INDEX], '--indexx (did you mean --index?)'],
    ['cache', ['cache', 'list', '--jsn'], '--jsn (did you mean --json?)'],
    ['models', ['models', 'pull', 'a/b', '--revison', 'x'], '--revison (did you mean --revision?)'],
    ['serve', ['serve', '--stdio', '--indx', INDEX], '--indx (did you mean --index?)'],
    ['query', ['query', '--index', INDEX, '--zzzzzzzz', 'x'], '--zzzzzzzz'],
    ['query', ['query', '--index', INDEX, '-x', 'x'], '-x'], // a letter is no typo of another letter
    ['bench', ['bench', '--mathlb', join(tmp, 'x')], '--mathlb (did you mean --mathlib?)'],
  ];
  it.each(unknownOptions)('an unknown option of %s is named so: %j', (cmd, args, named) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(twoLines(r.err, cmd)).toBe(`premise-lsp ${cmd}: unknown option ${named}`);
  });

  it('an option missing its value is named plainly', () => {
    const r = run(['query', 'x', '--index']);
    expect(r.code).toBe(2);
    expect(twoLines(r.err, 'query')).toBe('premise-lsp query: --index needs a value');
  });

  it('an unknown command is named with the nearest command, and where the list of commands is', () => {
    const r = run(['qeury', '--index', INDEX, 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('premise-lsp: unknown command "qeury" (did you mean query?)\n`premise-lsp --help` lists the commands\n');
    const far = run(['frobnicate']);
    expect(far.code).toBe(2);
    expect(far.err).toBe('premise-lsp: unknown command "frobnicate"\n`premise-lsp --help` lists the commands\n');
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

describe('an --index that names a source tree (issue 31)', () => {
  it('a Lake project: --project is suggested, never an --out inside it', () => {
    const f = lakeFixture();
    for (const args of [['query', '--index', f.root, 'x'], ['eval', '--index', f.root, '--dataset', 'afp']]) {
      const r = run(args);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`no index at ${f.root}`);
      expect(r.err).toContain(`--project ${f.root}`);
      expect(r.err).not.toContain(`--out ${f.root}`);
    }
  });

  it('a missing directory inside a Lake project: the index is suggested outside it', () => {
    const f = lakeFixture();
    const inside = join(f.root, 'idx');
    const r = run(['query', '--index', inside, 'x']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`no index at ${inside}`);
    expect(r.err).not.toContain(`--out ${f.root}`);
    expect(r.err).toContain('--out ~/.cache/premise-lsp/proj');
    expect(r.err).toContain(`--project ${f.root}`);
  });

  it('a folder of sources: the index is suggested outside it', () => {
    const r = run(['query', '--index', SAMPLE, 'x']);
    expect(r.code).toBe(1);
    expect(r.err).not.toContain(`--out ${SAMPLE}`);
    expect(r.err).toContain(`premise-lsp index ${SAMPLE} --out ~/.cache/premise-lsp/sample`);
  });
});

describe('an index of another format version (issue 31)', () => {
  const copyWithVersion = (name: string, version: number) => {
    const dir = join(tmp, name);
    cpSync(INDEX, dir, { recursive: true });
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...m, version }));
    return dir;
  };

  it('older: said to be older, not corrupt, with the command that rebuilds it', () => {
    const dir = copyWithVersion('v-old', VERSION - 1);
    const r = run(['query', '--index', dir, 'x']);
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/corrupt/);
    expect(r.err).toContain(`older premise-lsp (index format version ${VERSION - 1}; this one reads version ${VERSION})`);
    expect(r.err).toContain(`\`premise-lsp index ${SAMPLE} --out ${dir}\``);
  });

  it('newer: said to be newer, with the same command', () => {
    const dir = copyWithVersion('v-new', VERSION + 1);
    const r = run(['query', '--index', dir, 'x']);
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/corrupt/);
    expect(r.err).toContain(`newer premise-lsp (index format version ${VERSION + 1}; this one reads version ${VERSION})`);
    expect(r.err).toContain(`\`premise-lsp index ${SAMPLE} --out ${dir}\``);
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
  it('exits 2 saying so, and where the serve usage is', () => {
    const r = run(['serve', '--index', INDEX]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/serve needs --stdio/);
    expect(r.err).toContain('`premise-lsp serve --help` lists its options');
  });
});
