/**
 * Crafted lakefiles that made the old readers quadratic (issue 31 item 13: a lakefile.lean of
 * repeated `lean_lib «` took 44 s at 880 KB on the server's main thread; a lakefile.toml of
 * `[[lean_lib]]` and newlines grew the same way): `premise-lsp index` of such a project finishes,
 * the package walked as a plain directory. Each run has a time limit far above what it needs
 * (seconds), so a stall fails here instead of hanging the suite; speed itself is not asserted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-lakefile-crafted-'));

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function project(name: string, file: string, text: string): string {
  const root = join(tmp, name);
  mkdirSync(join(root, 'Proj'), { recursive: true });
  writeFileSync(join(root, file), text);
  writeFileSync(join(root, 'Proj', 'Main.lean'), 'theorem quux_wibble (a b : Nat) : a * b = b * a := Nat.mul_comm a b\n');
  return root;
}

function index(root: string) {
  const out = join(root, '..', `${root.split('/').pop()}-index`);
  const r = spawnSync(process.execPath, [CLI, 'index', root, '--no-dense', '--out', out], { encoding: 'utf8', timeout: 90_000 });
  return { code: r.status, err: r.stderr, manifest: existsSync(join(out, 'manifest.json')) ? JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) : undefined };
}

describe('crafted lakefiles', () => {
  it('a lakefile.lean of repeated `lean_lib «` (just under 1 MiB) is read at once', () => {
    const r = index(project('lean', 'lakefile.lean', 'lean_lib «'.repeat(95_000)));
    expect(r.code).toBe(0);
    expect(r.manifest.premises).toBe(1);
  }, 120_000);

  it('a lakefile.toml of `[[lean_lib]]` and newlines is read at once', () => {
    const r = index(project('toml', 'lakefile.toml', '[[lean_lib]]' + '\n'.repeat(1_000_000)));
    expect(r.code).toBe(0);
    expect(r.manifest.premises).toBe(1);
  }, 120_000);
});
