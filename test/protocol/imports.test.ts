/**
 * Suggestions the file can use, through fake Lean, on an index of a small Lake
 * project (test/fixtures/imports/lean: Imp.A imports Imp.B; Imp.C is imported by
 * nobody; Imp.Use, the open file, imports Imp.A alone): C's premise is marked
 * ("needs import Imp.C"), ranked by the `imports` setting (prefer: after A's and
 * B's; only: left out; any: by score), and picking it (completion, the insert
 * action, the insert command) adds `import Imp.C` after the file's imports in
 * the same edit. Also the completion items' shape for completion engines
 * (kind, short detail, labelDetails, markdown documentation).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { Editor, FAKE_ISABELLE, FAKE_LEAN, posOf, requireBuild, ROOT, SERVE } from './harness.js';

const LAKE = join(ROOT, 'test', 'fixtures', 'imports', 'lean');
const USE = join(LAKE, 'Imp', 'Use.lean');
const uri = pathToFileURL(USE).href;
const text = readFileSync(USE, 'utf8');
const index = join(mkdtempSync(join(tmpdir(), 'premise-lsp-imports-')), 'idx');
const C = 'Imp.snark_swap';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

beforeAll(async () => {
  await buildIndex({ sources: [LAKE], out: index });
});

async function start(settings: Record<string, unknown> = {}) {
  requireBuild();
  const e = new Editor(process.execPath, [SERVE, 'serve', '--stdio', '--index', index, '--restart-delay-ms', '50', '--', process.execPath, FAKE_LEAN]);
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: false, ...settings } });
  const ready = e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === uri && p.processing.length === 0);
  e.open(uri, text);
  await ready;
  return e;
}

const ours = (items: any[]) => items.filter((i) => i.data?.['premise-lsp']);
const names = (items: any[]) => ours(items).map((i) => i.data['premise-lsp'] as string);

async function complete(e: Editor): Promise<any[]> {
  const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'exact ', 6), context: { triggerKind: 1 } });
  if (r.error) throw new Error(r.error.message);
  return Array.isArray(r.result) ? r.result : r.result.items;
}

/** Applies LSP text edits (non-overlapping) to a text. */
function applyEdits(src: string, edits: { range: { start: { line: number; character: number } }; newText: string }[]): string {
  const offset = (p: { line: number; character: number }) => src.split('\n').slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = src;
  for (const ed of sorted) {
    const at = offset((ed.range as any).start);
    const end = offset((ed.range as any).end);
    out = out.slice(0, at) + ed.newText + out.slice(end);
  }
  return out;
}

describe('premises outside the file\'s import closure', () => {
  it('prefer (the default): marked "needs import", ranked after the usable ones; picking one adds the import with the name', async () => {
    const e = await start();
    const items = await complete(e);
    const order = names(items);
    expect(order).toEqual(expect.arrayContaining(['Imp.snark_left', 'Imp.snark_right', C]));
    // after both of A's and B's premises, though it fits the goal as well as B's does and better than A's
    expect(order.indexOf(C)).toBeGreaterThan(order.indexOf('Imp.snark_left'));
    expect(order.indexOf(C)).toBeGreaterThan(order.indexOf('Imp.snark_right'));
    const c = ours(items).find((i) => i.label === C)!;
    const b = ours(items).find((i) => i.label === 'Imp.snark_right')!;
    expect(c.detail).toBe('needs import Imp.C');
    expect(c.documentation.value).toContain('Needs `import Imp.C`');
    expect(b.detail).toBe('Imp.B');
    expect(b.additionalTextEdits).toBeUndefined();
    // the completion and its import, in one edit: the import after the file's last import line
    const after = applyEdits(text, [c.textEdit, ...c.additionalTextEdits]);
    expect(after).toContain('import Imp.A\nimport Imp.C\n\nnamespace Use');
    expect(after).toContain(`  exact ${C}\n`);
    // resolve keeps the import edit and the mark
    const r = await e.request('completionItem/resolve', c);
    expect(r.result.additionalTextEdits).toEqual(c.additionalTextEdits);
    expect(r.result.detail).toBe('needs import Imp.C');
    expect(await e.shutdown()).toBe(0);
  });

  it('only: left out of completions, actions and search; any: ranked by score alone (before A\'s weaker match), still marked', async () => {
    const only = await start({ imports: 'only' });
    const o = names(await complete(only));
    expect(o).toContain('Imp.snark_right');
    expect(o).not.toContain(C);
    const search = await only.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: 'snark sum swap', uri, k: 10 }] });
    expect(search.result.results.map((h: any) => h.name)).not.toContain(C);
    expect(await only.shutdown()).toBe(0);

    const any = await start({ imports: 'any' });
    const items = await complete(any);
    const a = names(items);
    expect(a.indexOf(C)).toBeLessThan(a.indexOf('Imp.snark_left'));
    expect(ours(items).find((i) => i.label === C)!.additionalTextEdits).toHaveLength(1);
    expect(await any.shutdown()).toBe(0);
  });

  it('the insert-premise code action carries the import in its workspace edit', async () => {
    const e = await start();
    const pos = posOf(text, 'exact ', 6);
    const r = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: pos, end: pos }, context: { diagnostics: [] } });
    const actions = (r.result as any[]).filter((a) => a.data?.['premise-lsp']);
    const act = actions.find((a) => a.data['premise-lsp'].name === C)!;
    expect(act.title).toMatch(/adds import Imp\.C/);
    const edits = act.edit.documentChanges[0].edits;
    expect(edits).toHaveLength(2);
    expect(applyEdits(text, edits)).toContain('import Imp.A\nimport Imp.C\n');
    const usable = actions.find((a) => a.data['premise-lsp'].name === 'Imp.snark_right')!;
    expect(usable.edit.documentChanges[0].edits).toHaveLength(1);
    // the usable ones come first
    expect(actions.indexOf(act)).toBeGreaterThan(actions.indexOf(usable));
    expect(await e.shutdown()).toBe(0);
  });

  it('the search command marks results with needsImport for the document given, and the insert command adds the import', async () => {
    const e = await start();
    const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: 'snark sum swap', uri, k: 10 }] });
    const results = r.result.results as any[];
    const c = results.find((h) => h.name === C);
    expect(c.needsImport).toBe('Imp.C');
    // the picker's import edit: a TextEdit into the searched document, after its imports
    expect(applyEdits(text, [c.importEdit])).toContain('import Imp.A\nimport Imp.C\n');
    expect(results.find((h) => h.name === 'Imp.snark_right').needsImport).toBeUndefined();
    expect(results.find((h) => h.name === 'Imp.snark_right').importEdit).toBeUndefined();
    expect(results.map((h) => h.rank)).toEqual(results.map((_, i) => i + 1));
    // without a document nothing is known of imports: no mark, as before
    const free = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: 'snark sum swap', k: 10 }] });
    expect(free.result.results.some((h: any) => 'needsImport' in h)).toBe(false);

    const ins = await e.request('workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri, position: posOf(text, 'exact ', 6), name: C }] });
    expect(ins.result.applied).toBe(true);
    expect(ins.result.import).toBe('Imp.C');
    const applied = e.received.find((m) => m.method === 'workspace/applyEdit')!;
    const edits = (applied.params as any).edit.documentChanges[0].edits;
    expect(applyEdits(text, edits)).toContain('import Imp.A\nimport Imp.C\n');
    // a picker's own text for the premise named: the import comes along too; a usable premise brings none
    const withText = await e.request('workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri, position: posOf(text, 'exact ', 6), text: `${C} x y`, name: C }] });
    expect(withText.result.import).toBe('Imp.C');
    const usable = await e.request('workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri, position: posOf(text, 'exact ', 6), name: 'Imp.snark_right' }] });
    expect(usable.result.applied).toBe(true);
    expect('import' in usable.result).toBe(false);
    const edited = e.received.filter((m) => m.method === 'workspace/applyEdit');
    expect((edited.at(-2)!.params as any).edit.documentChanges[0].edits).toHaveLength(2);
    expect((edited.at(-1)!.params as any).edit.documentChanges[0].edits).toHaveLength(1);
    expect(await e.shutdown()).toBe(0);
  });

  it('a bad imports setting is refused with a message and the default kept', async () => {
    const e = await start({ imports: 'sometimes' });
    const shown = e.received.find((m) => m.method === 'window/showMessage' || m.method === 'window/logMessage');
    expect(JSON.stringify(e.received.filter((m) => m.method?.startsWith('window/')))).toMatch(/imports must be one of prefer, only, any/);
    void shown;
    const order = names(await complete(e));
    expect(order.indexOf(C)).toBeGreaterThan(order.indexOf('Imp.snark_left'));
    expect(await e.shutdown()).toBe(0);
  });
});

describe('completion items for completion engines (blink.cmp, nvim-cmp)', () => {
  it('carry a kind, a short detail (the module), labelDetails and markdown documentation with the statement in a lean block', async () => {
    const e = await start();
    const items = await complete(e);
    const b = ours(items).find((i) => i.label === 'Imp.snark_right')!;
    expect(b.kind).toBe(21); // Constant: theorems
    expect(b.detail).toBe('Imp.B');
    expect(b.labelDetails).toEqual({ description: 'Imp.B' });
    expect(b.documentation.kind).toBe('markdown');
    expect(b.documentation.value).toMatch(/^```lean\ntheorem snark_right \(a b : Nat\) : a \+ b = b \+ a\n```/);
    expect(b.documentation.value).toContain('Sums of snarks commute, from B.');
    expect(b.documentation.value).toContain('Imp.B');
    expect(b.textEdit.newText).toBe('Imp.snark_right');
    expect(await e.shutdown()).toBe(0);
  });
});

describe('a document of another language than the prover (issue 36 item 6)', () => {
  it('a .thy file served under Lean gets no Lean import: the file\'s extension decides its language', async () => {
    const e = await start();
    const thy = join(ROOT, 'test', 'fixtures', 'imports', 'isabelle', 'Use.thy');
    const thyUri = pathToFileURL(thy).href;
    const thyText = readFileSync(thy, 'utf8');
    e.open(thyUri, thyText, 'isabelle');
    const ins = await e.request('workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri: thyUri, position: posOf(thyText, 'using ', 6), name: C }] });
    expect(ins.result.applied).toBe(true);
    expect('import' in ins.result).toBe(false);
    const applied = e.received.filter((m) => m.method === 'workspace/applyEdit').at(-1)!;
    const edits = (applied.params as any).edit.documentChanges[0].edits;
    expect(applyEdits(thyText, edits)).not.toMatch(/^import /m);
    expect(edits).toHaveLength(1);
    expect(await e.shutdown()).toBe(0);
  });
});

describe('an Isabelle theory (fake Isabelle, a fixture engine with the theories\' imports)', () => {
  it('marks a fact of a theory it does not import and adds that theory to its `imports` when picked', async () => {
    const thy = join(ROOT, 'test', 'fixtures', 'imports', 'isabelle', 'Use.thy');
    const thyUri = pathToFileURL(thy).href;
    const thyText = readFileSync(thy, 'utf8');
    const e = Editor.proxy([process.execPath, FAKE_ISABELLE], { engine: join(ROOT, 'test', 'fixtures', 'imports', 'isabelle-premises.json') });
    editors.push(e);
    await e.initialize({ 'premise-lsp': { goalTimeoutMs: 300, liveIndex: false } });
    e.open(thyUri, thyText, 'isabelle');
    const r = await e.request('textDocument/completion', { textDocument: { uri: thyUri }, position: posOf(thyText, 'using ', 6), context: { triggerKind: 1 } });
    const items = ours(Array.isArray(r.result) ? r.result : r.result.items);
    const order = items.map((i) => i.label);
    expect(order).toEqual(expect.arrayContaining(['B.gizmo_right', 'C.gizmo_swap']));
    expect(order.indexOf('C.gizmo_swap')).toBeGreaterThan(order.indexOf('B.gizmo_right'));
    const c = items.find((i) => i.label === 'C.gizmo_swap')!;
    expect(c.detail).toBe('needs import C');
    expect(c.documentation.value).toMatch(/^```isabelle\n/);
    expect(applyEdits(thyText, [c.textEdit, ...c.additionalTextEdits])).toMatch(/^theory Use\n  imports A C\nbegin\n[^]*  using C\.gizmo_swap\n/);
    expect(items.find((i) => i.label === 'B.gizmo_right')!.additionalTextEdits).toBeUndefined();
    expect(await e.shutdown()).toBe(0);
  });
});
