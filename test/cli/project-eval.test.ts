/**
 * `eval --project` and `query --project` on a tiny Lake project (a dependency
 * package and the workspace's own sources, test/unit/lake-project.ts): the
 * automatic index's entries, built into the cache exactly as the server names
 * them and reused; the workspace's theorems as queries, gold split into the
 * dependency's premises and the workspace's own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectHalf, projectStatements } from '../../server/src/eval/statements.js';
import { DEP_THEOREM, lakeFixture } from '../unit/lake-project.js';
import { FixtureEngine } from '../../server/src/engine/open.js';
import { engineLoader } from '../../server/src/lsp/run.js';
import { parseServeArgs } from '../../server/src/lsp/args.js';
import { Logger } from '../../server/src/lsp/log.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const TINY = join(ROOT, 'test', 'fixtures', 'tiny-encoder');

const f = lakeFixture();
f.write(
  '.lake/packages/deplib/DepLib/Basic.lean',
  'namespace DepLib\n\n/-- Zorbles are frobnicated. -/\ntheorem zorble_frob (n : Nat) : n + 0 = n := rfl\n\ntheorem zorble_twice (n : Nat) : n + 0 + 0 = n := rfl\n\nend DepLib\n',
);
f.write(
  'Proj/Main.lean',
  [
    'namespace Proj',
    '',
    '/-- Quux wibbles commute. -/',
    'theorem quux_wibble (a b : Nat) : a * b = b * a := Nat.mul_comm a b',
    '',
    'theorem quux_base (n : Nat) : n + 0 = n := DepLib.zorble_frob n',
    '',
    'theorem quux_step (n : Nat) : n + 0 + 0 = n := by rw [quux_base, DepLib.zorble_frob]',
    '',
    'theorem quux_later (n : Nat) : n + 0 + 0 + 0 = n := by rw [quux_step, DepLib.zorble_twice]',
    '',
    'end Proj',
    '',
  ].join('\n'),
);
const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));

function run(args: string[]) {
  // no elan toolchain: the dependencies and the workspace only
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, PREMISE_LSP_CACHE: cache, ELAN_HOME: join(cache, 'no-elan') } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The cache's entries, each with its manifest's modification time: the same after a run that reused them. */
const snapshot = () => readdirSync(cache).sort().map((n) => `${n}@${statSync(join(cache, n, 'manifest.json')).mtimeMs}`);

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});

describe('eval --project', () => {
  let workspaceDir = '';

  it('builds the server\'s cache entries and scores the workspace theorems, gold by part', () => {
    const r = run(['eval', '--project', f.root, '--encoder', TINY, '--mode', 'bm25', '--json']);
    expect(r.err).toMatch(/indexing proj dependencies/);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out);
    // quux_wibble's only reference (Nat.mul_comm) is in no entry: not a query; the three others are
    expect(rep).toMatchObject({ dataset: 'project', mode: 'bm25', queries: 3, scoredQueries: 3, total: 5, resolved: 5 });
    expect(rep.byGold.dependency.queries).toBe(3);
    expect(rep.byGold.workspace.queries).toBe(2);
    expect(Object.keys(rep.metrics)).toContain('R@16');
    // the automatic index's entries, as the server names them
    const entries = readdirSync(cache).sort();
    expect(entries.map((n) => n.replace(/-[0-9a-f]{12}$/, ''))).toEqual(['proj-dependencies', 'proj-workspace']);
    workspaceDir = join(cache, entries[1]!);
  });

  it('reads each theorem\'s gold from the workspace entry: its own premises and its dependencies\' (external references)', () => {
    const qs = projectStatements(workspaceDir, () => true);
    const byName = Object.fromEntries(qs.map((q) => [q.id, q]));
    expect(Object.keys(byName).sort()).toEqual(['Proj.quux_base', 'Proj.quux_later', 'Proj.quux_step']);
    expect(byName['Proj.quux_step']!.goldParts).toEqual({ dependency: [['DepLib.zorble_frob']], workspace: [['Proj.quux_base']] });
    expect(byName['Proj.quux_base']!.goldParts).toEqual({ dependency: [['DepLib.zorble_frob']], workspace: [] });
    expect(byName['Proj.quux_step']!.theorem).toBe('Proj.quux_step');
    expect(byName['Proj.quux_step']!.text).toContain('⊢ n + 0 + 0 = n');
    // only the names the entries resolve
    expect(projectStatements(workspaceDir, (n) => n !== 'DepLib.zorble_frob').map((q) => q.id).sort()).toEqual(['Proj.quux_later', 'Proj.quux_step']);
    // a fixed sample and fixed halves
    expect(projectStatements(workspaceDir, () => true, { limit: 2 }).map((q) => q.id)).toEqual(qs.slice(0, 2).map((q) => q.id));
    const dev = projectStatements(workspaceDir, () => true, { half: 'dev' }).map((q) => q.id);
    expect(dev).toEqual(qs.map((q) => q.id).filter((n) => projectHalf(n) === 'dev'));
  });

  it('reuses the cache; every mode, in context and as a scratch file', () => {
    const before = snapshot();
    const r = run(['eval', '--project', f.root, '--encoder', TINY, '--mode', 'all', '--json']);
    expect(r.code).toBe(0);
    expect(r.err).not.toMatch(/indexing proj/);
    expect(snapshot()).toEqual(before);
    const reps = JSON.parse(r.out) as { mode: string; rerank: boolean; byGold: Record<string, unknown> }[];
    expect(reps.map((x) => x.mode)).toEqual(expect.arrayContaining(['bm25-plain', 'bm25', 'sine', 'mepo', 'dense', 'hybrid']));
    for (const x of reps) expect(Object.keys(x.byGold)).toEqual(['dependency', 'workspace']);
    const scratch = run(['eval', '--project', f.root, '--encoder', TINY, '--mode', 'hybrid', '--no-context', '--limit', '2', '--json']);
    expect(scratch.code).toBe(0);
    expect(JSON.parse(scratch.out)).toMatchObject({ mode: 'hybrid', queries: 2 });
  });

  it('query --project searches the same entries', () => {
    const r = run(['query', '--project', f.root, '--encoder', TINY, '--k', '3', '--json', 'zorble frob']);
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.out) as { name: string; path?: string }[];
    expect(hits.map((h) => h.name)).toContain(DEP_THEOREM);
    expect(hits.find((h) => h.name === DEP_THEOREM)!.path).toBe(join(f.depDir, 'DepLib', 'Basic.lean'));
  });

  it('npm run bench --only project: every mode on the project, by half, gold by part, in JSON and Markdown', () => {
    const out = mkdtempSync(join(tmpdir(), 'premise-bench-'));
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'bench.js'), '--only', 'project', '--project', f.root, '--out', out], {
      encoding: 'utf8',
      cwd: ROOT,
      env: { ...process.env, PREMISE_LSP_CACHE: cache, ELAN_HOME: join(cache, 'no-elan') },
    });
    expect(r.status).toBe(0);
    const rep = JSON.parse(readFileSync(join(out, 'report-projects.json'), 'utf8'));
    const evals = rep.projects[0].evals as { dataset: string; mode: string; scratch?: boolean; scoredQueries: number; byGold: Record<string, unknown> }[];
    expect(new Set(evals.map((e) => e.dataset))).toEqual(new Set(['dev', 'test']));
    const inPlace = evals.filter((e) => !e.scratch);
    expect(new Set(inPlace.map((e) => e.mode))).toEqual(new Set(['bm25-plain', 'bm25', 'sine', 'mepo', 'dense', 'hybrid']));
    expect(evals.filter((e) => e.scratch).map((e) => e.mode)).toContain('hybrid');
    // the halves split the three queries
    expect(inPlace.filter((e) => e.mode === 'bm25').reduce((n, e) => n + e.scoredQueries, 0)).toBe(3);
    const md = readFileSync(join(out, 'report-projects.md'), 'utf8');
    expect(md).toContain('## Downstream projects');
    expect(md).toMatch(/\| (dev|test) \| hybrid \| dependency \|/);
    expect(md).toContain('R@16 | R@32');
  });

  it('the server opens the same entries as one project engine (the project weights)', async () => {
    // the entries built with the shipped encoder by the bench test above are in the cache
    const opened: { dirs: string[]; project?: boolean }[] = [];
    const env = { PREMISE_LSP_CACHE: process.env.PREMISE_LSP_CACHE, ELAN_HOME: process.env.ELAN_HOME };
    process.env.PREMISE_LSP_CACHE = cache;
    process.env.ELAN_HOME = join(cache, 'no-elan');
    try {
      const load = engineLoader(parseServeArgs(['--stdio', '--lean', f.root]), (dirs, o) => {
        opened.push({ dirs: [dirs].flat(), project: o?.project });
        return new FixtureEngine([]);
      });
      await load({ log: new Logger(() => {}) });
    } finally {
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    expect(opened.length).toBeGreaterThan(0);
    for (const o of opened) expect(o.project).toBe(true);
    expect(opened[0]!.dirs.map((d) => d.slice(cache.length + 1).replace(/-[0-9a-f]{12}$/, ''))).toEqual(['proj-dependencies', 'proj-workspace']);
  });

  it('usage errors', () => {
    expect(run(['eval', '--project', f.root, '--dataset', 'heldout', 'x']).code).toBe(2);
    expect(run(['eval', '--index', cache, '--project', f.root]).code).toBe(2);
    expect(run(['eval', '--index', cache, '--dataset', 'afp', '--limit', '3']).code).toBe(2);
    expect(run(['eval', '--project', f.root, '--half', 'both']).code).toBe(2);
    const notLake = run(['query', '--project', cache, 'x']);
    expect(notLake.code).toBe(1);
    expect(notLake.err).toMatch(/not a Lake project/);
  });
});
