/**
 * `premise-lsp http --project DIR` (server/src/cli/http-cmd.ts): the search
 * clients' contracts over a Lake project's automatic index (the language server's
 * cache entries), with edits to the workspace's own files picked up while it runs
 * (server/src/indexing/workspace-watch.ts); `--max-body-mib` sets the body limit.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttp } from './http-server.js';
import { DEP_THEOREM, lakeFixture, WS_THEOREM } from '../unit/lake-project.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-http-project-'));
const cache = join(tmp, 'cache');
const f = lakeFixture();
let server: ChildProcess;
let stderr = (): string => '';
let base = '';

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  ({ server, base, stderr } = await startHttp(CLI, ['--project', f.root, '--port', '0', '--watch-ms', '100', '--max-body-mib', '1'], {
    ...process.env,
    PREMISE_LSP_CACHE: cache,
    ELAN_HOME: join(tmp, 'no-elan'),
  }));
}, 120_000);

afterAll(() => {
  server?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

const loogleNames = async (q: string): Promise<string[]> => {
  const body = (await (await fetch(`${base}/json?q=${encodeURIComponent(q)}`)).json()) as { hits?: { name: string }[] };
  return (body.hits ?? []).map((h) => h.name);
};

/** Asks until `check` holds (the watcher reads edits every 100 ms), at most `tries` times. */
async function eventually(check: () => Promise<boolean>, tries = 150): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('http --project', () => {
  it("serves the project's automatic index, built into the server's cache", async () => {
    expect(readdirSync(cache).map((n) => n.replace(/-[0-9a-f]{12}$/, '')).sort()).toEqual(['proj-dependencies', 'proj-workspace']);
    expect(await loogleNames('"quux"')).toEqual([WS_THEOREM]);
    expect(await loogleNames('"zorble"')).toEqual([DEP_THEOREM]);
    const r = await fetch(`${base}/api/search?${new URLSearchParams({ query: 'a b : Nat ⊢ a * b = b * a', results: '3', rev: 'v4.0.0' })}`);
    expect(((await r.json()) as { name: string }[]).map((h) => h.name)).toContain(WS_THEOREM);
  });

  it("picks up a lemma added to the workspace's files, a renamed one, and a deleted file", async () => {
    await eventually(async () => /watching .* for edits/.test(stderr()));
    const added = f.write('Proj/Extra.lean', 'namespace Proj\n\n/-- Snorkels are blorped. -/\ntheorem snorkel_blorp (n : Nat) : n * 1 = n := Nat.mul_one n\n\nend Proj\n');
    expect(await eventually(async () => (await loogleNames('"snorkel"')).includes('Proj.snorkel_blorp'))).toBe(true);
    const s = (await (await fetch(`${base}/search`, { method: 'POST', body: JSON.stringify({ query: ['Snorkels are blorped.'], num_results: 3 }) })).json()) as { result: { name: string[] } }[][];
    expect(s[0]!.map((h) => h.result.name.join('.'))).toContain('Proj.snorkel_blorp');
    // the indexed lemma renamed in its file: the new name found, the old one gone
    writeFileSync(f.wsFile, 'namespace Proj\n\n/-- Quux wobbles commute. -/\ntheorem quux_wobble (a b : Nat) : a * b = b * a := Nat.mul_comm a b\n\nend Proj\n');
    expect(await eventually(async () => (await loogleNames('"quux"')).join() === 'Proj.quux_wobble')).toBe(true);
    unlinkSync(added);
    expect(await eventually(async () => !(await loogleNames('"snorkel"')).length)).toBe(true);
  });

  it('refuses a body over --max-body-mib with 413 and reads one under it', async () => {
    const post = (pad: number) => fetch(`${base}/retrieve`, { method: 'POST', body: JSON.stringify({ state: '⊢ a * b = b * a', k: 1, pad: ' '.repeat(pad) }) });
    const over = await post(1.5 * 2 ** 20);
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: string }).error).toMatch(/over 1048576 bytes \(1 MiB\)/);
    const under = await post(0.5 * 2 ** 20);
    expect(under.status).toBe(200);
  });
});
