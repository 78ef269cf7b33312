/**
 * The built CLI's scope filters and pattern search on a copy of the bundled sample
 * with one deprecated lemma added (issue 25 items 2 and 3).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const tmp = mkdtempSync(join(tmpdir(), 'premise-patterns-'));
const index = join(tmp, 'index');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

type Hit = { name: string; module: string; kind: string; parts: { pattern?: number } };
function query(...args: string[]): Hit[] {
  const r = run(['query', '--index', index, '--json', ...args]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as Hit[];
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  const src = join(tmp, 'src');
  cpSync(SAMPLE, src, { recursive: true });
  writeFileSync(
    join(src, 'lean', 'Sample', 'Old.lean'),
    'namespace Sample.Old\n\n@[deprecated "use Sample.mul_comm" (since := "2025-01-01")]\ntheorem mul_comm_old {M : Type} [Mul M] (a b : M) : a * b = b * a := sorry\n\nend Sample.Old\n',
  );
  const r = run(['index', src, '--out', index, '--no-dense']);
  expect(r.code).toBe(0);
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('premise-lsp query: scope filters', () => {
  it('restricts to a module prefix and a kind, as options or in the query', () => {
    for (const hits of [
      query('--k', '20', '--in', 'Sample.Lists', '--kind', 'theorem', 'length of an append'),
      query('--k', '20', 'length of an append in:Sample.Lists kind:theorem'),
    ]) {
      expect(hits.map((h) => h.name)).toEqual(expect.arrayContaining(["Sample.Lists.length_append'", 'Sample.Lists.length_rev']));
      expect(hits.every((h) => h.module === 'Sample.Lists' && h.kind === 'theorem')).toBe(true);
    }
  });

  it('restricts to a namespace', () => {
    const hits = query('--k', '20', '--ns', 'Nat', 'a + b = b + a');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.name.startsWith('Nat.'))).toBe(true);
  });

  it('leaves a deprecated lemma out unless --deprecated (or deprecated:yes)', () => {
    const names = (...a: string[]) => query('--k', '50', ...a).map((h) => h.name);
    expect(names('a b : M\n⊢ a * b = b * a')).not.toContain('Sample.Old.mul_comm_old');
    expect(names('--deprecated', 'a b : M\n⊢ a * b = b * a')).toContain('Sample.Old.mul_comm_old');
    expect(names('a * b = b * a deprecated:yes')).toContain('Sample.Old.mul_comm_old');
  });

  it('refuses an empty --in', () => {
    const r = run(['query', '--index', index, '--in', '', 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--in takes a non-empty name/);
  });
});

describe('premise-lsp query: pattern search', () => {
  it('puts the premises that match a pattern with a repeated variable first', () => {
    const hits = query('--k', '5', '--pattern', '?a * ?b = ?b * ?a');
    // the class's constructor and field state it too (under a binder), as Loogle would find them
    const matched = ["Sample.CommMonoid'.mk", 'Sample.mul_comm', "Sample.CommMonoid'.mul_comm'"];
    expect(hits.slice(0, 3).map((h) => h.name).sort()).toEqual(matched.sort());
    expect(hits.slice(0, 3).every((h) => h.parts.pattern === 1)).toBe(true);
    expect(hits.slice(3).every((h) => h.parts.pattern === 0)).toBe(true);
  });

  it('recognises a pattern without --pattern: holes, conclusions, name fragments, combinations', () => {
    const matched = (q: string) => query('--k', '30', q).filter((h) => h.parts.pattern === 1).map((h) => h.name).sort();
    // `(a * b) * (a * b)` holds `b * (a * b)`
    expect(matched('_ * (_ * _)')).toEqual(["Sample.CommMonoid'.mk", "Sample.CommMonoid'.mul_assoc'", 'Sample.mul_assoc', 'Sample.mul_left_comm', 'Sample.mul_pow_two']);
    expect(matched('|- _ ≤ _ → _ ≤ _ → _ ≤ _')).toEqual(['Sample.Order.le_trans\'']);
    expect(matched('"two_mul"')).toEqual(["Nat.two_mul'"]);
    // name fragments ignore case, as Loogle's
    expect(matched('"comm", _ * (_ * _)')).toEqual(["Sample.CommMonoid'.mk", "Sample.CommMonoid'.mul_assoc'", 'Sample.mul_left_comm']);
  });

  it('says what is wrong with a bad pattern (usage error)', () => {
    const r = run(['query', '--index', index, '--pattern', '(_ * _']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unbalanced/);
  });
});
