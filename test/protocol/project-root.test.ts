/**
 * Which project the automatic index serves when the editor's workspace folder is
 * not the Lake project's root (eglot with no `.git` takes the file's folder): the
 * nearest folder at or above it with a lakefile, else the project of the first
 * opened file; with none, one `window/showMessage` (Warning) with the fix.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { lakeFixture, WS_THEOREM } from '../unit/lake-project.js';
import { Editor, requireBuild, searchNames, SERVE } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

function start(): Editor {
  requireBuild();
  const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));
  const e = new Editor(process.execPath, [SERVE, 'serve', '--stdio'], { env: { PREMISE_LSP_CACHE: cache, ELAN_HOME: join(cache, 'no-elan') } });
  editors.push(e);
  return e;
}

// (indexing, in child processes, may take a while on a busy machine: a longer wait than the harness's default)
const loadedWith = (e: Editor, premises: number) =>
  e.waitFor((m) => m.method === '$/progress' && m.params.value.kind === 'end' && m.params.value.message === `${premises} premises`, { past: true, timeoutMs: 60_000 });
const shownMessage = (e: Editor) => e.waitFor((m) => m.method === 'window/showMessage', { timeoutMs: 60_000 });

async function initializeOn(e: Editor, root: string): Promise<void> {
  await e.request('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: { window: { workDoneProgress: true } } });
  e.notify('initialized', {});
}

const openFile = (e: Editor, path: string, text: string) =>
  e.notify('textDocument/didOpen', { textDocument: { uri: pathToFileURL(path).href, languageId: 'lean4', version: 1, text } });

describe('the project root', () => {
  it('a workspace folder inside a Lake project: the project at or above it is indexed', async () => {
    const f = lakeFixture();
    const e = start();
    await initializeOn(e, join(f.root, 'Proj'));
    await loadedWith(e, 2);
    expect(await searchNames(e, 'quux wibble')).toContain(WS_THEOREM);
    expect(e.stderr).toContain(`indexing proj workspace`);
    expect(await e.shutdown()).toBe(0);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(0);
  }, 90_000);

  it('a workspace folder in no project: the project of the first opened file', async () => {
    const f = lakeFixture();
    const elsewhere = mkdtempSync(join(tmpdir(), 'premise-lsp-elsewhere-'));
    const e = start();
    await initializeOn(e, elsewhere);
    await loadedWith(e, 0);
    openFile(e, f.wsFile, 'namespace Proj\n\nend Proj\n');
    await loadedWith(e, 2);
    expect(await searchNames(e, 'quux wibble')).toContain(WS_THEOREM);
    expect(await e.shutdown()).toBe(0);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(0);
  }, 90_000);

  it('a project whose automatic index holds no premises: exactly one warning', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'premise-lsp-emptyproj-')), 'empty');
    mkdirSync(join(dir, 'Empty'), { recursive: true });
    writeFileSync(join(dir, 'lakefile.lean'), 'import Lake\nopen Lake DSL\n\npackage empty\n\nlean_lib Empty\n');
    writeFileSync(join(dir, 'Empty', 'Main.lean'), '-- nothing declared yet\n');
    const e = start();
    const shown = shownMessage(e);
    await initializeOn(e, dir);
    const msg = (await shown).params;
    expect(msg.type).toBe(2);
    expect(msg.message).toMatch(/automatic index of .*empty holds no premises/);
    expect(await e.shutdown()).toBe(0);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(1);
  }, 90_000);

  it('no project at all: exactly one warning, saying what to open and how to set the root or an index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'premise-lsp-noproject-'));
    mkdirSync(join(dir, 'Sub'));
    const a = join(dir, 'Sub', 'A.lean');
    const b = join(dir, 'Sub', 'B.lean');
    writeFileSync(a, 'theorem a : True := trivial\n');
    writeFileSync(b, 'theorem b : True := trivial\n');
    const e = start();
    const shown = shownMessage(e);
    await initializeOn(e, join(dir, 'Sub'));
    openFile(e, a, 'theorem a : True := trivial\n');
    openFile(e, b, 'theorem b : True := trivial\n');
    const msg = (await shown).params;
    expect(msg.type).toBe(2);
    expect(msg.message).toMatch(/no Lake project/);
    expect(msg.message).toContain(join(dir, 'Sub'));
    expect(msg.message).toMatch(/lakefile/);
    expect(msg.message).toMatch(/--lean/);
    expect(msg.message).toMatch(/index/);
    await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: 'x' }] });
    expect(await e.shutdown()).toBe(0);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(1);
  }, 60_000);
});
