/**
 * Import edits through the built server (issue 31 items 8 and 9), in front of
 * fake Lean and fake Isabelle, and standalone: a premise whose module or theory
 * name is crafted code (a newline and `#eval`; a quote and `begin ML`) is still
 * marked as needing an import, but no completion, code action, search result or
 * insert command writes that name into the file or claims an import; an import
 * after a last header line that opens a block comment goes after the comment,
 * and where no place outside a comment exists none is offered nor claimed; a
 * standalone server writes Isabelle syntax into a `.thy` file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_ISABELLE, FAKE_LEAN, posOf } from './harness.js';

const EVIL_LEAN = 'Evil.A\n#eval IO.println "PWNED"\n--';
const EVIL_THY = 'Evil" begin ML ‹writeln "PWNED"› (*';
const dir = mkdtempSync(join(tmpdir(), 'premise-lsp-import-names-'));
const engine = join(dir, 'premises.json');
writeFileSync(
  engine,
  JSON.stringify({
    premises: [
      { name: 'Evil.pwn_swap', kind: 'theorem', lang: 'lean', module: EVIL_LEAN, file: 'Evil/A.lean', goal: 'x + y = y + x', statement: 'theorem pwn_swap (x y : Nat) : x + y = y + x' },
      { name: 'Imp.snark_swap', kind: 'theorem', lang: 'lean', module: 'Imp.C', file: 'Imp/C.lean', goal: 'x + y = y + x', statement: 'theorem snark_swap (x y : Nat) : x + y = y + x' },
      { name: 'Evil.gizmo_swap', kind: 'lemma', lang: 'isabelle', module: EVIL_THY, file: 'Evil.thy', goal: 'x + y = y + x', statement: 'lemma gizmo_swap: "x + y = y + (x::nat)"' },
      { name: 'C.gizmo_swap', kind: 'lemma', lang: 'isabelle', module: 'C', file: 'C.thy', goal: 'x + y = y + x', statement: 'lemma gizmo_swap: "x + y = y + (x::nat)"' },
    ],
    imports: { [EVIL_LEAN]: [], 'Imp.A': [], 'Imp.C': [], [EVIL_THY]: ['Main'], C: ['Main'], Use: ['Main'] },
  }),
);

const LEAN_BODY = '\nnamespace Use\n\ntheorem use_swap (x y : Nat) : x + y = y + x := by\n  -- goal: x y : Nat\\n⊢ x + y = y + x\n  exact \n\nend Use\n';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function lean(text: string, name: string) {
  const uri = pathToFileURL(join(dir, name)).href;
  const e = Editor.proxy([process.execPath, FAKE_LEAN], { engine });
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: false, goalTimeoutMs: 2000 } });
  const ready = e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === uri && p.processing.length === 0);
  e.open(uri, text);
  await ready;
  return { e, uri, pos: posOf(text, 'exact ', 6) };
}

/** Applies LSP text edits (non-overlapping) to a text. */
function applyEdits(src: string, edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]): string {
  const offset = (p: { line: number; character: number }) => src.split('\n').slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  let out = src;
  for (const ed of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start))) out = out.slice(0, offset(ed.range.start)) + ed.newText + out.slice(offset(ed.range.end));
  return out;
}

const ours = (items: any[]) => items.filter((i) => i.data?.['premise-lsp']);

/** Every edit the four paths give for `name`, and what each claims. */
async function allPaths(e: Editor, uri: string, pos: { line: number; character: number }, name: string) {
  const c = await e.request('textDocument/completion', { textDocument: { uri }, position: pos, context: { triggerKind: 1 } });
  const item = ours(Array.isArray(c.result) ? c.result : c.result.items).find((i) => i.label === name);
  const a = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: pos, end: pos }, context: { diagnostics: [] } });
  const action = (a.result as any[]).find((x) => x.data?.['premise-lsp']?.name === name);
  const s = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: 'x + y = y + x', uri, position: pos, k: 10 }] });
  const hit = (s.result.results as any[]).find((h) => h.name === name);
  const ins = await e.request('workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri, position: pos, name }] });
  const applied = e.received.filter((m) => m.method === 'workspace/applyEdit').at(-1) as any;
  return { item, action, hit, ins: ins.result, insertEdits: applied.params.edit.documentChanges[0].edits as any[] };
}

describe('a crafted module name is never written into the file', () => {
  it('Lean (fake Lean): completion, code action, search and insert carry no import edit and claim none', async () => {
    const text = 'import Imp.A\n' + LEAN_BODY;
    const { e, uri, pos } = await lean(text, 'Use.lean');
    const r = await allPaths(e, uri, pos, 'Evil.pwn_swap');
    expect(r.item).toBeDefined();
    expect(r.item.additionalTextEdits).toBeUndefined();
    expect(r.item.detail).toMatch(/^needs import "Evil\.A\\n#eval/); // shown as data, on one line
    expect(r.item.documentation.value).not.toContain('added when picked');
    expect(r.action.edit.documentChanges[0].edits).toHaveLength(1);
    expect(r.action.title).not.toMatch(/adds import/);
    expect(r.hit.importEdit).toBeUndefined();
    expect(r.ins.applied).toBe(true);
    expect('import' in r.ins).toBe(false);
    expect(r.insertEdits).toHaveLength(1);
    const everything = JSON.stringify([r.item.textEdit, r.action.edit, r.insertEdits]);
    expect(everything).not.toContain('PWNED');
    // a valid module in the same file still gets its import
    const ok = await allPaths(e, uri, pos, 'Imp.snark_swap');
    expect(applyEdits(text, [ok.item.textEdit, ...ok.item.additionalTextEdits])).toContain('import Imp.A\nimport Imp.C\n');
    expect(ok.ins.import).toBe('Imp.C');
    expect(await e.shutdown()).toBe(0);
  });

  it('Isabelle (fake Isabelle): a theory name with a quote is not added to `imports`', async () => {
    const text = 'theory Use\n  imports Main\nbegin\n\nlemma "x + y = y + (x::nat)"\n  using \n  by simp\n\nend\n';
    const uri = pathToFileURL(join(dir, 'Use.thy')).href;
    const e = Editor.proxy([process.execPath, FAKE_ISABELLE], { engine });
    editors.push(e);
    await e.initialize({ 'premise-lsp': { goalTimeoutMs: 300, liveIndex: false } });
    e.open(uri, text, 'isabelle');
    const pos = posOf(text, 'using ', 6);
    const r = await allPaths(e, uri, pos, 'Evil.gizmo_swap');
    expect(r.item).toBeDefined();
    expect(r.item.additionalTextEdits).toBeUndefined();
    expect(r.action.edit.documentChanges[0].edits).toHaveLength(1);
    expect(r.hit.importEdit).toBeUndefined();
    expect('import' in r.ins).toBe(false);
    expect(JSON.stringify([r.item.textEdit, r.action.edit, r.insertEdits])).not.toContain('PWNED');
    const ok = await allPaths(e, uri, pos, 'C.gizmo_swap');
    expect(applyEdits(text, ok.insertEdits)).toContain('imports Main C\n');
    expect(await e.shutdown()).toBe(0);
  });
});

describe('an added import never lands in a comment', () => {
  it('after a last import line that opens `/-`: after the comment', async () => {
    const text = 'import Imp.A /- a comment\n  that goes on -/\n' + LEAN_BODY;
    const { e, uri, pos } = await lean(text, 'Use2.lean');
    const r = await allPaths(e, uri, pos, 'Imp.snark_swap');
    expect(r.ins.import).toBe('Imp.C');
    expect(applyEdits(text, r.insertEdits)).toMatch(/^import Imp\.A \/- a comment\n {2}that goes on -\/\nimport Imp\.C\n/);
    expect(applyEdits(text, [r.item.textEdit, ...r.item.additionalTextEdits])).toMatch(/that goes on -\/\nimport Imp\.C\n/);
    expect(await e.shutdown()).toBe(0);
  });

  it('a comment that never ends: no import edit, and the reply claims none', async () => {
    const text = 'import Imp.A /- never closed\n' + LEAN_BODY;
    const { e, uri, pos } = await lean(text, 'Use3.lean');
    const r = await allPaths(e, uri, pos, 'Imp.snark_swap');
    expect(r.insertEdits).toHaveLength(1);
    expect('import' in r.ins).toBe(false);
    expect(r.item?.additionalTextEdits).toBeUndefined();
    expect(r.action.title).not.toMatch(/adds import/);
    expect(r.hit.importEdit).toBeUndefined();
    expect(await e.shutdown()).toBe(0);
  });
});

describe('standalone (no prover): Isabelle syntax in a .thy file', () => {
  it('a premise inserted into `simp add:` gets no Lean `]`', async () => {
    const e = Editor.proxy([], { engine });
    editors.push(e);
    await e.initialize({ 'premise-lsp': { liveIndex: false } });
    const text = 'theory Use\n  imports Main C\nbegin\n\nlemma swap: "x + y = y + (x::nat)"\n  by (simp add: )\n\nend\n';
    const uri = pathToFileURL(join(dir, 'Use.thy')).href;
    e.open(uri, text, 'isabelle');
    const pos = posOf(text, 'simp add: ', 10);
    const a = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: pos, end: pos }, context: { diagnostics: [] } });
    const action = (a.result as any[]).find((x) => x.data?.['premise-lsp']?.name === 'C.gizmo_swap');
    expect(action).toBeDefined();
    const after = applyEdits(text, action.edit.documentChanges[0].edits);
    expect(after).toContain('by (simp add: C.gizmo_swap)\n');
    expect(after).not.toContain(']');
    const ins = await e.request('workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri, position: pos, name: 'C.gizmo_swap' }] });
    expect(ins.result.text).toBe('C.gizmo_swap');
    expect(await e.shutdown()).toBe(0);
  });
});
