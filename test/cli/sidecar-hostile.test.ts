/**
 * An index whose `imports.json` or `external-refs.json` is a FIFO (issue 31 item 16): `query`
 * fails at once with an error naming the file instead of hanging on the read. Each run has a
 * hang guard far above what it needs; a stall fails the test on the guard's signal.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const tmp = mkdtempSync(join(tmpdir(), 'premise-sidecar-cli-'));

function run(args: string[], guardMs = 60_000) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT, timeout: guardMs });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('index sidecars that are not regular files', () => {
  for (const file of ['imports.json', 'external-refs.json']) {
    it(`${file} as a FIFO: query fails with an error naming it`, { timeout: 150_000 }, () => {
      const out = join(tmp, file);
      expect(run(['index', SAMPLE, '--no-dense', '--out', out]).code).toBe(0);
      rmSync(join(out, file), { force: true });
      expect(spawnSync('mkfifo', [join(out, file)]).status).toBe(0);
      const r = run(['query', '--index', out, 'add comm']);
      expect(r.signal).toBeNull();
      expect(r.code).not.toBe(0);
      expect(r.err).toContain(`${join(out, file)}: not a regular file`);
    });
  }
});
