/**
 * `premise-lsp.search` results say where each premise lives: `uri`, the
 * `file://` URI of its source (the index's file under the index's source
 * roots), absent when that file is nowhere; a premise declared by an open
 * document (live index) points at that document.
 */
import { cpSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { Editor, FAKE_LEAN, requireBuild, ROOT, SERVE } from './harness.js';

const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const LISTS_STATE = 'l₁ l₂ : List α\n⊢ (l₁ ++ l₂).length = l₁.length + l₂.length';
const tmp = mkdtempSync(join(tmpdir(), 'premise-lsp-links-'));

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function start(index: string, settings: Record<string, unknown> = {}) {
  requireBuild();
  const e = new Editor(process.execPath, [SERVE, 'serve', '--stdio', '--index', index, '--restart-delay-ms', '50', '--', process.execPath, FAKE_LEAN]);
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: false, ...settings } });
  return e;
}

async function search(e: Editor, query: string, k = 3): Promise<any[]> {
  const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query, k }] });
  if (r.error) throw new Error(`premise-lsp.search failed: ${r.error.message}`);
  return r.result.results;
}

describe('search results carry the uri of their source', () => {
  const index = join(tmp, 'sample-idx');
  const moved = join(tmp, 'moved-src');
  const movedIndex = join(tmp, 'moved-idx');
  beforeAll(async () => {
    await buildIndex({ sources: [SAMPLE], out: index });
    // an index whose sources have gone away since
    cpSync(SAMPLE, moved, { recursive: true });
    await buildIndex({ sources: [moved], out: movedIndex });
    renameSync(moved, `${moved}-gone`);
  });

  it('a hit from the index points at the fixture file that declares it, at its line', async () => {
    const e = await start(index);
    const [top] = await search(e, LISTS_STATE);
    expect(top.name).toBe("Sample.Lists.length_append'");
    expect(top.file).toBe('Sample/Lists.lean');
    expect(top.uri).toBe(pathToFileURL(join(SAMPLE, 'lean', 'Sample', 'Lists.lean')).href);
    // its range (docstring included) in that file is its declaration
    const lines = readFileSync(fileURLToPath(top.uri), 'utf8').split('\n');
    expect(lines.slice(top.range.start.line, top.range.end.line + 1).join('\n')).toMatch(/^\/-- The length of an appended list[^]*theorem length_append'/);
    expect(await e.shutdown()).toBe(0);
  });

  it('a hit whose file is under none of the roots has no uri (the rest of the result as before)', async () => {
    const e = await start(movedIndex);
    const [top] = await search(e, LISTS_STATE);
    expect(top.name).toBe("Sample.Lists.length_append'");
    expect(top.file).toBe('Sample/Lists.lean');
    expect('uri' in top).toBe(false);
    expect(await e.shutdown()).toBe(0);
  });

  it("a premise declared by an open document (live index) points at that document, even one not on disk", async () => {
    const e = await start(index, { liveIndex: true });
    const uri = pathToFileURL(join(tmp, 'Scratch', 'Draft.lean')).href;
    e.open(uri, 'namespace Scratch\n\ntheorem snorkel_draft (n : Nat) : n + 0 = n := rfl\n\nend Scratch\n');
    let hit: any;
    for (let i = 0; i < 100 && !hit; i++) {
      hit = (await search(e, 'snorkel draft')).find((h) => h.name === 'Scratch.snorkel_draft');
      if (!hit) await new Promise((r) => setTimeout(r, 50));
    }
    expect(hit?.uri).toBe(uri);
    expect(await e.shutdown()).toBe(0);
  });
});
