/**
 * The indexer's machine-readable side (what the language server drives):
 * `--progress-fd N` JSON lines, `--dense-from` adding vectors to a finished
 * sparse-only index, and usage errors for bad values.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const TINY = join(ROOT, 'test', 'fixtures', 'tiny-encoder');
const tmp = mkdtempSync(join(tmpdir(), 'premise-cli-progress-'));

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Run the CLI with a pipe on fd 3; the JSON lines read from it, stderr and the exit code. */
function runWithChannel(args: string[]): Promise<{ code: number | null; events: Record<string, unknown>[]; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let channel = '';
    let err = '';
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d) => (channel += d));
    child.stderr!.on('data', (d) => (err += d));
    child.on('close', (code) => done({ code, err, events: channel.split('\n').filter(Boolean).map((l) => JSON.parse(l)) }));
  });
}

describe('premise-lsp index --progress-fd / --dense-from', () => {
  const sparse = join(tmp, 'sparse');
  const full = join(tmp, 'full');

  it('reports phases and a done event as JSON lines on the given descriptor', async () => {
    const r = await runWithChannel(['index', SAMPLE, '--out', sparse, '--no-dense', '--progress-fd', '3']);
    expect(r.code).toBe(0);
    const phases = r.events.filter((e) => e.event === 'progress').map((e) => e.phase);
    expect(phases[0]).toBe('extract');
    expect(phases).toContain('write');
    const done = r.events.at(-1)!;
    expect(done).toMatchObject({ event: 'done', dense: false });
    expect(done.declarations).toBeGreaterThan(0);
    expect(done.peakRssBytes).toBeGreaterThan(0);
    // stderr keeps the human summary
    expect(r.err).toMatch(/^indexed \d+ files/m);
  });

  it('adds the dense side to a finished sparse-only index without re-reading the sources', async () => {
    const r = await runWithChannel(['index', '--dense-from', sparse, '--encoder', TINY, '--out', full, '--progress-fd', '3']);
    expect(r.code).toBe(0);
    expect(r.events.map((e) => e.phase)).toContain('embed');
    expect(r.events.at(-1)).toMatchObject({ event: 'done', dense: true });
    const a = JSON.parse(readFileSync(join(sparse, 'manifest.json'), 'utf8'));
    const b = JSON.parse(readFileSync(join(full, 'manifest.json'), 'utf8'));
    expect(b.premises).toBe(a.premises);
    expect(b.files['premises.bin']).toEqual(a.files['premises.bin']);
    expect(b.files['sparse.bin']).toEqual(a.files['sparse.bin']);
    expect(b.encoder.dim).toBeGreaterThan(0);
    const q = spawnSync(process.execPath, [CLI, 'query', '--index', full, '--mode', 'dense', 'add comm'], { encoding: 'utf8', cwd: ROOT });
    expect(q.status).toBe(0);
  });

  it('rejects a bad descriptor and a --dense-from that is not an index', () => {
    const bad = spawnSync(process.execPath, [CLI, 'index', SAMPLE, '--out', join(tmp, 'x'), '--progress-fd', '1'], { encoding: 'utf8', cwd: ROOT });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--progress-fd');
    const notIndex = spawnSync(process.execPath, [CLI, 'index', '--dense-from', SAMPLE, '--encoder', TINY, '--out', join(tmp, 'y')], { encoding: 'utf8', cwd: ROOT });
    expect(notIndex.status).toBe(2);
    expect(notIndex.stderr).toContain('not an index directory');
  });
});
