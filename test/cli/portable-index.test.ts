/**
 * The built CLI's indexes outlive the installation that built them: `index` with the
 * shipped encoder records its content id, not its path, and `query` opens an index
 * whose manifest still names an encoder path that is gone (as older indexes do) when
 * the id is the shipped encoder's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const tmp = mkdtempSync(join(tmpdir(), 'premise-portable-cli-'));
const INDEX = join(tmp, 'idx');

const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: tmp, timeout: 60_000, input: '' });
const manifest = () => JSON.parse(readFileSync(join(INDEX, 'manifest.json'), 'utf8'));

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  const r = run(['index', SAMPLE, '--out', INDEX]);
  if (r.status !== 0) throw new Error(r.stderr);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('portable indexes (built CLI)', () => {
  it('index names the shipped encoder by its content id only', () => {
    const enc = manifest().encoder;
    expect(enc.id).toMatch(/^default-[0-9a-f]{12}$/);
    expect(enc.dim).toBe(256);
    expect(enc.dir).toBeUndefined();
    expect(readFileSync(join(INDEX, 'manifest.json'), 'utf8')).not.toContain(join(ROOT, 'models'));
  });

  it('query opens an index that recorded an encoder path that is gone, by the shipped id', () => {
    const m = manifest();
    writeFileSync(join(INDEX, 'manifest.json'), JSON.stringify({ ...m, encoder: { dir: '/nonexistent/old-install/models/default', ...m.encoder } }));
    const r = run(['query', '--index', INDEX, '--k', '1', '--mode', 'dense', 'a b : ℕ\n⊢ a + b = b + a']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Nat.add_comm'");
  });

  it('query of an index built with an encoder this installation lacks names the id and the rebuild command', () => {
    const m = manifest();
    writeFileSync(join(INDEX, 'manifest.json'), JSON.stringify({ ...m, encoder: { ...m.encoder, id: 'default-000000000000' } }));
    const r = run(['query', '--index', INDEX, '--k', '1', 'a b : ℕ\n⊢ a + b = b + a']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('was built with encoder default-000000000000, which this installation does not have');
    expect(r.stderr).toContain(`premise-lsp index ${SAMPLE} --out ${INDEX}`);
  });
});
