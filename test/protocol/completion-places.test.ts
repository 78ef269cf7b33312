/**
 * Premise completions only where a premise can go, with the trigger characters
 * as VS Code sends them (`context: {triggerKind: 2, triggerCharacter: " "}`): never
 * in a `--` comment (also after an unclosed `simp [` on an earlier line), a nested
 * `/- -/` comment, a doc comment or a string; a typed space only right after a slot
 * (`simp [`, `exact `, a comma in a lemma list), never after an argument; an invoked
 * completion in a comment gets Lean's items alone. The same through the `lake`
 * shim: test/protocol/vscode-shim.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_LEAN, posOf } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

const GOAL = '  -- goal: a b : Nat\\n⊢ a + b = b + a\n';
const TEXT =
  'theorem in_line_comment (a b : Nat) : a + b = b + a := by\n' +
  GOAL +
  '  simp [Nat.add_comm,\n' +
  '  -- a note after an unclosed list \n' +
  '  ]\n\n' +
  'theorem in_block_comment (a b : Nat) : a + b = b + a := by\n' +
  GOAL +
  '  /- outer /- inner -/ still a comment: rw [ and more -/\n' +
  '  rfl\n\n' +
  '/-- A doc comment: use exact  here. -/\n' +
  'theorem in_string (a b : Nat) : a + b = b + a := by\n' +
  GOAL +
  '  have : "simp [" = "simp [" := rfl\n' +
  '  rfl\n\n' +
  'theorem after_argument (a b : Nat) : a + b = b + a := by\n' +
  GOAL +
  '  simp [Nat.add_comm ]\n\n' +
  'theorem after_comma (a b : Nat) : a + b = b + a := by\n' +
  GOAL +
  '  simp [Nat.add_comm, ]\n\n' +
  'theorem after_exact (a b : Nat) : a + b = b + a := by\n' +
  GOAL +
  '  exact \n\n' +
  'theorem comment_in_list (a b : Nat) : a + b = b + a := by\n' +
  GOAL +
  '  simp [Nat.add_comm, -- (see below)\n' +
  '    ]\n\n' +
  'theorem prefix_in_comment (a b : Nat) : a + b = b + a := by\n' +
  GOAL +
  '  -- see Nat.ad\n' +
  '  rfl\n';
const URI = 'file:///tmp/premise-lsp-places/Places.lean';

async function start() {
  const e = Editor.proxy([process.execPath, FAKE_LEAN]);
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: false } });
  const ready = e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === URI && p.processing.length === 0);
  e.open(URI, TEXT);
  await ready;
  return e;
}

const premiseItems = (r: any): string[] => (r.result?.items ?? r.result ?? []).filter((i: any) => i?.data?.['premise-lsp']).map((i: any) => i.label);
/** A completion at `needle` + `offset`, as VS Code sends one for a typed trigger character. */
const typed = (e: Editor, ch: string, needle: string, offset = needle.length) =>
  e.request('textDocument/completion', { textDocument: { uri: URI }, position: posOf(TEXT, needle, offset), context: { triggerKind: 2, triggerCharacter: ch } });

describe('completion places', () => {
  it('a space typed in a `--` comment after an unclosed `simp [` gets no premise items', async () => {
    const e = await start();
    const r = await typed(e, ' ', '-- a note after an unclosed list ');
    expect(r.error).toBeUndefined();
    expect(premiseItems(r)).toEqual([]);
  });

  it('none in a nested block comment, a doc comment or a string', async () => {
    const e = await start();
    expect(premiseItems(await typed(e, '[', 'still a comment: rw ['))).toEqual([]);
    expect(premiseItems(await typed(e, ' ', 'use exact '))).toEqual([]);
    expect(premiseItems(await typed(e, '[', 'have : "simp ['))).toEqual([]);
  });

  it('a space after an argument in a lemma list is not a slot; after a comma, `exact ` or a comment in the list it is', async () => {
    const e = await start();
    expect(premiseItems(await typed(e, ' ', 'simp [Nat.add_comm '))).toEqual([]);
    expect(premiseItems(await typed(e, ' ', 'simp [Nat.add_comm, ]', 'simp [Nat.add_comm, '.length)).length).toBeGreaterThan(0);
    expect(premiseItems(await typed(e, ' ', '  exact \n', '  exact '.length)).length).toBeGreaterThan(0);
    // a `(` in a comment inside the list hides nothing
    expect(premiseItems(await typed(e, ' ', '(see below)\n    ', '(see below)\n    '.length)).length).toBeGreaterThan(0);
  });

  it('an invoked completion in a comment gets Lean\'s items alone', async () => {
    const e = await start();
    const r = await e.request('textDocument/completion', { textDocument: { uri: URI }, position: posOf(TEXT, '-- see Nat.ad', '-- see Nat.ad'.length), context: { triggerKind: 1 } });
    expect(r.result.items.map((i: any) => i.label)).toEqual(['Nat.succ', 'Nat.zero', 'Nat.rec']);
    expect(premiseItems(r)).toEqual([]);
  });
});
