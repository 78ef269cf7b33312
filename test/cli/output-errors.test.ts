/**
 * Results that cannot be written (issue 31 item 17): `query --json > /dev/full` printed a stack
 * trace (an unhandled ENOSPC on stdout). Now one line on stderr naming the reason, exit 1.
 * A reader that stops early (`| head`, EPIPE) stays quiet, as before.
 */
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const tmp = mkdtempSync(join(tmpdir(), 'premise-output-'));
const index = join(tmp, 'idx');

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  const r = spawnSync(process.execPath, [CLI, 'index', SAMPLE, '--no-dense', '--out', index], { encoding: 'utf8', timeout: 90_000 });
  if (r.status !== 0) throw new Error(`index failed: ${r.stderr}`);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('stdout that cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('query --json > /dev/full: one line on stderr, exit 1, no stack', { timeout: 60_000 }, () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [CLI, 'query', '--index', index, '--json', 'add comm'], { encoding: 'utf8', stdio: ['ignore', full, 'pipe'], timeout: 30_000 });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe('premise-lsp: cannot write the output: no space left on device (ENOSPC)\n');
    } finally {
      closeSync(full);
    }
  });

  it('a reader that stops early is not an error', { timeout: 60_000 }, () => {
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" query --index "${index}" --json --k 50 'add comm' | head -c 1 >/dev/null`], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
  });
});

describe('an output file that cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('extract --out /dev/full: one line naming it, exit 1 (issue 36 item 7)', { timeout: 60_000 }, () => {
    const r = spawnSync(process.execPath, [CLI, 'extract', SAMPLE, '--out', '/dev/full'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot write \/dev\/full: .*ENOSPC/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toContain('extracted 40 declarations');
  });
});
