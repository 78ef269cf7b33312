/**
 * The built CLI on bad or odd input: usage texts for every command, sources that do
 * not exist, output paths that cannot be written, and source trees holding a FIFO,
 * a binary file and a file over 4 MiB. Every run has a time limit: a hang fails.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const tmp = mkdtempSync(join(tmpdir(), 'premise-usage-'));

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT, timeout: 30_000, input: '' });
  return { code: r.status, out: r.stdout, err: r.stderr, timedOut: r.error !== undefined || r.signal !== null };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const COMMANDS = ['index', 'query', 'eval', 'extract', 'rerank-data', 'tower-data', 'fusion-data', 'holdout-files', 'serve', 'http', 'mcp', 'setup', 'vocab', 'models', 'bench', 'doctor', 'cache'];

describe('usage', () => {
  it('premise-lsp --help and -h print every command and exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = run([flag]);
      expect(r.code).toBe(0);
      for (const c of COMMANDS) expect(r.out).toMatch(new RegExp(`^  ${c} `, 'm'));
    }
  });

  it('every command the usage text lists is a command', () => {
    const listed = [...new Set([...run(['--help']).out.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]))];
    expect(listed.sort()).toEqual([...COMMANDS].sort());
    for (const c of listed) expect(run([c!, '--help']).err).not.toMatch(/unknown command/);
  }, 180_000); // one CLI start per command, one after another: about a minute on a busy 2-core machine

  it.each(COMMANDS)('premise-lsp %s --help and -h print its flags, defaults and an example, exit 0', (cmd) => {
    for (const flag of ['--help', '-h']) {
      const r = run(cmd === 'models' ? [cmd, 'pull', flag] : cmd === 'setup' ? [cmd, 'vscode', flag] : [cmd, flag]);
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`^usage: premise-lsp ${cmd}\\b`));
      expect(r.out).toMatch(/^ {2}-/m); // flags
      expect(r.out).toMatch(/default/);
      expect(r.out).toMatch(new RegExp(`example:\\n {2}premise-lsp ${cmd} `));
    }
  });

  it('a --help after `--` belongs to the upstream command of serve, not to premise-lsp', () => {
    const r = run(['serve', '--stdio', '--', 'node', '--help']);
    expect(r.out).not.toMatch(/^usage: premise-lsp serve/);
  });

  it('bench runs the benchmark (which names what it is missing)', () => {
    const r = run(['bench', '--mathlib', join(tmp, 'no-mathlib')]);
    expect(r.err).not.toMatch(/unknown command/);
    expect(r.err).toMatch(/no Mathlib checkout at/);
    expect(r.code).toBe(2);
  });
});

describe('index --defer-informal', () => {
  it('is refused without --no-dense (only a sparse-only index defers its informal field)', () => {
    const r = run(['index', SAMPLE, '--out', join(tmp, 'idx-defer'), '--defer-informal']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--defer-informal is for a sparse-only index/);
  });
});

describe('bad sources and output paths', () => {
  it('extract and index exit 2 on a source that does not exist', () => {
    for (const args of [['extract', join(tmp, 'nope')], ['index', join(tmp, 'nope'), '--out', join(tmp, 'idx-nope')]]) {
      const r = run(args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`no such source: ${join(tmp, 'nope')}`);
    }
  });

  const oneLine = (err: string, path: string) => {
    const lines = err.split('\n').filter((l) => l.trim() && !/^premise-lsp: (extracting|writing)/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path);
    expect(err).not.toMatch(/^\s+at /m); // no stack
  };

  it('extract --out into a missing directory fails at once with one line naming the path', () => {
    const out = join(tmp, 'missing', 'dir', 'x.jsonl');
    const r = run(['extract', SAMPLE, '--out', out]);
    expect(r.code).toBe(1);
    oneLine(r.err, out);
  });

  it.skipIf(!existsSync('/proc/self'))('index --out under /proc fails at once with one line naming the path (no mkdir loop)', () => {
    const r = run(['index', SAMPLE, '--out', '/proc/premise-lsp-x', '--no-dense']);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(1);
    oneLine(r.err, '/proc/premise-lsp-x');
  });

  it('index --out below a file fails at once naming the path', () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    const r = run(['index', SAMPLE, '--out', join(file, 'idx'), '--no-dense']);
    expect(r.code).toBe(1);
    oneLine(r.err, join(file, 'idx'));
  });
});

describe('files that are not read', () => {
  const src = join(tmp, 'odd');
  const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;

  beforeAll(() => {
    mkdirSync(src, { recursive: true });
    copyFileSync(join(SAMPLE, 'lean', 'Sample', 'Algebra.lean'), join(src, 'Algebra.lean'));
    writeFileSync(join(src, 'Binary.lean'), 'theorem t : True := trivial\n\u0000\u0001');
    writeFileSync(join(src, 'Huge.lean'), `-- ${'x'.repeat(4 * 1024 * 1024 + 16)}\ntheorem t : True := trivial\n`);
    if (hasMkfifo) spawnSync('mkfifo', [join(src, 'Pipe.lean'), join(src, 'Pipe.thy')]);
  });

  it.skipIf(!hasMkfifo)('index skips FIFOs named .lean/.thy without hanging, and counts every skipped file', () => {
    const r = run(['index', src, '--out', join(tmp, 'odd-idx'), '--no-dense', '--verbose']);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/indexed 1 files: \d+ declarations, 4 files skipped/);
    expect(r.err).toMatch(/Pipe\.lean: skipped, not a regular file/);
    expect(r.err).toMatch(/Pipe\.thy: skipped, not a regular file/);
    expect(r.err).toMatch(/Binary\.lean: skipped, binary content/);
    expect(r.err).toMatch(/Huge\.lean: skipped, larger than 4 MiB/);
  });

  it.skipIf(!hasMkfifo)('a lakefile that is a FIFO or a directory is not read: its package is walked as a plain tree, with a warning', () => {
    for (const [name, make] of [
      ['fifo-lakefile', (p: string) => spawnSync('mkfifo', [p])],
      ['dir-lakefile', (p: string) => mkdirSync(p)],
    ] as const) {
      const pkg = join(tmp, name);
      mkdirSync(join(pkg, 'Lib'), { recursive: true });
      copyFileSync(join(SAMPLE, 'lean', 'Sample', 'Algebra.lean'), join(pkg, 'Lib', 'Algebra.lean'));
      make(join(pkg, 'lakefile.lean'));
      const r = run(['index', pkg, '--out', join(tmp, `${name}-idx`), '--no-dense', '--verbose']);
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(0);
      expect(r.err).toMatch(/indexed 1 files: [1-9]\d* declarations/);
      expect(r.err).toMatch(new RegExp(`${name}/lakefile\\.lean: not read \\((not a regular file|a directory)\\)`));
    }
  });

  it.skipIf(!hasMkfifo)('extract skips a FIFO given by name', () => {
    const r = run(['extract', join(src, 'Pipe.lean'), join(src, 'Algebra.lean')]);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/from 1 files \(1 files skipped/);
  });
});

describe('vocab', () => {
  const records = join(tmp, 'records.jsonl');
  beforeAll(() => {
    // twelve docstrings saying "divides" about names with `dvd`, and unrelated ones
    const lines: string[] = [];
    for (let i = 0; i < 12; i++) lines.push(JSON.stringify({ name: `Nat.dvd_thing${i}`, lang: 'lean', doc: `If a divides b then a divides b times c${i}.` }));
    for (let i = 0; i < 200; i++) lines.push(JSON.stringify({ name: `Set.mem_other${i}`, lang: 'lean', doc: `An element is a member of a set number ${i}.` }));
    writeFileSync(records, lines.join('\n') + '\n');
  });

  it('learns which name parts a docstring word stands for', () => {
    const out = join(tmp, 'vocab.json');
    const r = run(['vocab', records, '--out', out]);
    expect(r.code).toBe(0);
    const table = JSON.parse(readFileSync(out, 'utf8'));
    expect(table.format).toBe('premise-lsp-vocab');
    expect(table.terms.divid.map((e: [string, number]) => e[0])).toContain('dvd');
    expect(table.terms.divid.map((e: [string, number]) => e[0])).not.toContain('mem');
  });

  it('refuses a file that is not records, and an unwritable output, in one line', () => {
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, 'not json\n');
    const r = run(['vocab', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.jsonl:1: not a JSON record/);
    const w = run(['vocab', records, '--out', '/proc/x/vocab.json']);
    expect(w.code).toBe(1);
    expect(w.err).toMatch(/\/proc\/x\/vocab\.json/);
    expect(w.err.trim().split('\n')).toHaveLength(1);
  });
});
