/**
 * Terminal escapes in what premise-lsp prints for people (issue 36 item 7): a recorded root, an
 * entry directory's name or a statement holding `ESC ] 0 ; … BEL` or `ESC [ 2 J` reached the
 * terminal raw in `cache list` and `query`. Control characters are escaped (`\x1b`) in the
 * human-readable output; `--json` stays exact (the value parsed back is the text itself).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_MARKER } from '../../indexes/src/cache-marker.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-escapes-'));
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J';

function run(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: tmp, env: { ...process.env, ...env }, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('control characters in human-readable output', () => {
  it('cache list: a recorded root and a directory name are escaped; --json keeps them exact', () => {
    const cache = join(tmp, 'cache');
    const entry = join(cache, `x${CLEAR}-workspace-0123456789ab`);
    mkdirSync(entry, { recursive: true });
    writeFileSync(join(entry, ENTRY_MARKER), '');
    writeFileSync(join(entry, 'manifest.json'), JSON.stringify({ format: 'premise-lsp-index', version: 3, files: {} }));
    const root = `/nonexistent/${TITLE}proj`;
    writeFileSync(join(entry, 'used-by.json'), JSON.stringify({ projects: [{ root, prover: 'lean', lastUsed: 1 }] }));
    const listed = run(['cache', 'list'], { PREMISE_LSP_CACHE: cache });
    expect(listed.code).toBe(0);
    expect(listed.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(listed.out).toContain('x\\x1b[2J-workspace-0123456789ab');
    expect(listed.out).toContain('/nonexistent/\\x1b]0;pwned\\x07proj');
    const json = JSON.parse(run(['cache', 'list', '--json'], { PREMISE_LSP_CACHE: cache }).out);
    expect(json.entries[0].name).toBe(`x${CLEAR}-workspace-0123456789ab`);
    expect(json.entries[0].projects).toEqual([root]);
  });

  it('query: a statement holding escapes is printed escaped; --json keeps it exact', () => {
    const src = join(tmp, 'src');
    mkdirSync(src);
    writeFileSync(join(src, 'Esc.lean'), `theorem zorble_frob : "${CLEAR}" = "${CLEAR}" := rfl\n`);
    const idx = join(tmp, 'idx');
    expect(run(['index', src, '--no-dense', '--out', idx]).code).toBe(0);
    const q = run(['query', '--index', idx, 'zorble frob']);
    expect(q.code).toBe(0);
    expect(q.out).toContain('zorble_frob');
    expect(q.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(q.out).toContain('"\\x1b[2J"');
    const hits = JSON.parse(run(['query', '--index', idx, '--json', 'zorble frob']).out);
    expect(hits[0].statement).toContain(`"${CLEAR}"`);
  });
});
