/**
 * Errors where the user looks: an index that cannot be served (missing, a source
 * tree, unreadable, built by another format version) is shown once as
 * `window/showMessage` (besides the log) with the command that fixes it, and the
 * session goes on without premises. (A prover that cannot start or keeps
 * crashing: crash.test.ts; an automatic index that fails: auto-index.test.ts.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FORMAT, VERSION } from '../../indexes/src/store/index-dir.js';
import { Editor, requireBuild, SERVE, tempFile, type Msg } from './harness.js';
import { lakeFixture } from '../unit/lake-project.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

/** A standalone server serving `index` (from --index or the `index` setting); the one message shown, after a whole session. */
async function shownFor(index: string, via: 'flag' | 'setting'): Promise<Msg> {
  requireBuild();
  const e = new Editor(process.execPath, [SERVE, 'serve', '--stdio', ...(via === 'flag' ? ['--index', index] : [])]);
  editors.push(e);
  const shown = e.notification('window/showMessage', () => true, true);
  await e.initialize(via === 'setting' ? { 'premise-lsp': { index } } : undefined);
  const msg = await shown;
  // the session goes on, without premises
  const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] });
  expect(r.error?.message).toContain('premise index not available');
  expect(await e.shutdown()).toBe(0);
  expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(1);
  expect(e.stderr).toContain('could not load the premise index');
  return msg;
}

/** An index directory holding only `manifest.json` with `text`. */
function manifestDir(text: string): string {
  const dir = dirname(tempFile('x'));
  const idx = join(dir, 'idx');
  mkdirSync(idx);
  writeFileSync(join(idx, 'manifest.json'), text);
  return idx;
}

describe('an index that cannot be served', () => {
  it('missing (a mistyped --index): one error message with the command that builds it', async () => {
    const missing = join(dirname(tempFile('x')), 'no-such-index');
    const m = await shownFor(missing, 'flag');
    expect(m.params.type).toBe(1);
    expect(m.params.message).toContain(`could not load the premise index`);
    expect(m.params.message).toContain(missing);
    expect(m.params.message).toContain(`premise-lsp index --out ${missing} <sources>`);
  });

  it('unreadable (the `index` setting): one error message with the fix', async () => {
    const idx = manifestDir('{ not json');
    const m = await shownFor(idx, 'setting');
    expect(m.params.type).toBe(1);
    expect(m.params.message).toMatch(/not valid JSON.*premise-lsp index --out/);
  });

  it('a Lake project as the `index` setting: the fix never writes an index among its sources', async () => {
    const f = lakeFixture();
    const m = await shownFor(f.root, 'setting');
    expect(m.params.type).toBe(1);
    expect(m.params.message).toContain(`no index at ${f.root}`);
    expect(m.params.message).not.toContain(`--out ${f.root}`);
    expect(m.params.message).toContain('--out ~/.cache/premise-lsp/proj');
  });

  it('built by another format version: one error message saying to rebuild it', async () => {
    const idx = manifestDir(JSON.stringify({ format: FORMAT, version: VERSION + 1, files: {} }));
    const m = await shownFor(idx, 'flag');
    expect(m.params.type).toBe(1);
    expect(m.params.message).toMatch(new RegExp(`index format version ${VERSION + 1}.*premise-lsp index --out`));
  });
});
