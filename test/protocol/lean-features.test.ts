/**
 * Premise features in front of the fake Lean server: completions merged into
 * Lean's (and answered alone for our own trigger characters), local resolve that
 * never reaches Lean, goals via our own `$/lean/plainGoal` (retry after −32801,
 * `plainTermGoal` fallback, passive capture of the editor's own goal requests),
 * insert-premise code actions, hover, and the search/insert commands.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_LEAN, fixture, posOf, readTranscript, tempFile, type Msg } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

/** Rankings here come from the fixture premises alone: the live index is off unless a test turns it on. */
async function start(settings: Record<string, unknown> = {}) {
  const log = tempFile('lean.jsonl');
  const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log } });
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: false, ...settings } });
  return { e, prover: () => readTranscript(log) };
}

async function openAndWait(e: Editor, name: string, transform: (t: string) => string = (t) => t) {
  const f = fixture(name);
  const text = transform(f.text);
  const ready = e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === f.uri && p.processing.length === 0);
  e.open(f.uri, text);
  await ready;
  return { uri: f.uri, text };
}

const premiseName = (item: any) => item?.data?.['premise-lsp'];
const search = (e: Editor, args: unknown) => e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [args] });

describe('completion', () => {
  it('answers our own trigger character `[` inside `rw [` with ranked premises, without asking Lean for completions', async () => {
    const { e, prover } = await start();
    const { uri, text } = await openAndWait(e, 'Complete.lean');
    const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'rw [', 4), context: { triggerKind: 2, triggerCharacter: '[' } });
    const items = r.result.items;
    expect(premiseName(items[0])).toBe('Nat.add_comm');
    expect(items[0].detail).toBe('theorem Nat.add_comm (n m : Nat) : n + m = m + n');
    expect(items[0].documentation.value).toContain('Addition of natural numbers is commutative.');
    expect(items[0].documentation.value).toContain('Init.Data.Nat.Basic');
    expect(items[0].textEdit).toEqual({ range: { start: posOf(text, 'rw [', 4), end: posOf(text, 'rw [', 4) }, newText: 'Nat.add_comm' });
    const sent = prover().filter((x) => x.dir === 'in').map((x) => x.msg);
    expect(sent.some((m) => m.method === 'textDocument/completion')).toBe(false);
    // the goal came from our own plainGoal, whose reply never reached the editor
    expect(sent.some((m) => m.method === '$/lean/plainGoal' && String(m.id).startsWith('premise:'))).toBe(true);
    expect(e.received.some((m) => String(m.id).startsWith('premise:'))).toBe(false);
  });

  it('passes the slot to the engine: inside `rw [` equations come first, and the search command takes `slot`', async () => {
    // a definition whose statement shares more with the goal than the lemma does: first without a slot
    const premises = tempFile('slot-premises.json');
    writeFileSync(premises, JSON.stringify([
      { name: 'Nat.add', kind: 'def', statement: 'def Nat.add (a b : Nat) : Nat := a + b = b + a', goal: 'Nat', args: ['(a b : Nat)'] },
      { name: 'Nat.add_comm', statement: 'theorem Nat.add_comm (n m : Nat) : n + m = m + n', goal: 'n + m = m + n', args: ['(n m : Nat)'] },
    ]));
    const log = tempFile('lean.jsonl');
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log }, engine: premises });
    editors.push(e);
    await e.initialize({ 'premise-lsp': { liveIndex: false } });
    const { uri, text } = await openAndWait(e, 'Complete.lean');
    const goal = 'a b : Nat\n⊢ a + b = b + a';
    const names = (r: any) => r.result.results.map((h: any) => h.name);
    expect(names(await search(e, { query: goal }))).toEqual(['Nat.add', 'Nat.add_comm']);
    expect(names(await search(e, { query: goal, slot: 'rw' }))).toEqual(['Nat.add_comm', 'Nat.add']);
    // at uri/position the slot is read from the text
    expect(names(await search(e, { uri, position: posOf(text, 'rw [', 4) }))).toEqual(['Nat.add_comm', 'Nat.add']);
    const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'rw [', 4), context: { triggerKind: 2, triggerCharacter: '[' } });
    expect(premiseName(r.result.items[0])).toBe('Nat.add_comm');
  });

  it('merges premises after Lean\'s items for an invoked completion after `exact `', async () => {
    const { e } = await start();
    const { uri, text } = await openAndWait(e, 'Complete.lean');
    const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'exact ', 6), context: { triggerKind: 1 } });
    const items: any[] = r.result.items;
    expect(items.slice(0, 3).map((i) => i.label)).toEqual(['Nat.succ', 'Nat.zero', 'Nat.rec']);
    expect(items.slice(0, 3).every((i) => Array.isArray(i.data))).toBe(true);
    expect(premiseName(items[3])).toBe('Nat.le_of_lt_succ');
    const sorted = [...items].sort((a, b) => (a.sortText < b.sortText ? -1 : 1));
    expect(sorted.map((i) => i.label)).toEqual(items.map((i) => i.label));
  });

  it('puts a premise first when the typed prefix matches it better than every Lean item', async () => {
    const { e } = await start();
    const { uri, text } = await openAndWait(e, 'Complete.lean');
    const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'simp [Nat.mu', 12), context: { triggerKind: 1 } });
    const sorted = [...r.result.items].sort((a: any, b: any) => (a.sortText < b.sortText ? -1 : 1));
    expect(premiseName(sorted[0])).toBe('Nat.mul_comm');
    expect(sorted[0].textEdit.range.start).toEqual(posOf(text, 'Nat.mu'));
  });

  it('resolves its own items locally and forwards Lean\'s', async () => {
    const { e, prover } = await start();
    const { uri, text } = await openAndWait(e, 'Complete.lean');
    const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'exact ', 6), context: { triggerKind: 1 } });
    const ours = r.result.items.find((i: any) => premiseName(i) === 'Nat.le_of_lt_succ');
    const theirs = r.result.items[0];
    const a = await e.request('completionItem/resolve', ours);
    expect(a.error).toBeUndefined();
    expect(a.result.documentation.value).toContain('A number below `n + 1` is at most `n`.');
    expect(a.result.documentation.value).toContain('theorem Nat.le_of_lt_succ');
    const b = await e.request('completionItem/resolve', theirs);
    expect(b.result.detail).toBe('resolved by fake lean (Nat.succ)');
    const resolves = prover().filter((x) => x.dir === 'in' && x.msg.method === 'completionItem/resolve');
    expect(resolves.map((x) => x.msg.params.label)).toEqual(['Nat.succ']);
  });

  it('adds nothing (and asks Lean nothing) for a space typed outside a premise slot', async () => {
    const { e, prover } = await start();
    const { uri, text } = await openAndWait(e, 'Complete.lean');
    const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'rfl ', 4), context: { triggerKind: 2, triggerCharacter: ' ' } });
    expect(r.result).toEqual({ isIncomplete: true, items: [] });
    expect(prover().some((x) => x.msg.method === 'textDocument/completion' || x.msg.method === '$/lean/plainGoal')).toBe(false);
  });

  /** Resolves once the fake Lean has received our own plainGoal (it then waits before answering). */
  async function ownGoalAsked(prover: () => { dir: string; msg: Msg }[], n = 1) {
    for (let i = 0; i < 200; i++) {
      if (prover().filter((x) => x.dir === 'in' && x.msg.method === '$/lean/plainGoal' && String(x.msg.id).startsWith('premise:')).length >= n) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('plainGoal never reached Lean');
  }

  it('waits while Lean elaborates, and asks again after −32801 "File changed." from an edit', async () => {
    const { e, prover } = await start();
    const f = fixture('Complete.lean');
    const text = '-- elab-ms: 200\n' + f.text;
    e.open(f.uri, text);
    const pending = e.request('textDocument/completion', { textDocument: { uri: f.uri }, position: posOf(text, 'rw [', 4), context: { triggerKind: 2, triggerCharacter: '[' } });
    await ownGoalAsked(prover);
    e.notify('textDocument/didChange', { textDocument: { uri: f.uri, version: 2 }, contentChanges: [{ text }] });
    const r = await pending;
    expect(premiseName(r.result.items[0])).toBe('Nat.add_comm');
    const replies = prover().filter((x) => x.dir === 'out' && String(x.msg.id).startsWith('premise:'));
    expect(replies[0].msg.error).toEqual({ code: -32801, message: 'File changed.' });
    expect(replies[1].msg.result.goals).toEqual(['a b : Nat\n⊢ a + b = b + a']);
  });

  it('asks again at once after −32801 when the file ended in a fatal error (its progress never clears)', async () => {
    const { e, prover } = await start();
    const f = fixture('Demo.lean');
    const text = '-- fatal\n-- goal-delay-ms: 200\n' + f.text;
    const fatal = e.notification('$/lean/fileProgress', (p) => p.processing.length > 0 && p.processing.every((x: any) => x.kind === 2));
    e.open(f.uri, text);
    await fatal;
    const pending = search(e, { uri: f.uri, position: posOf(text, 'rw [') });
    await ownGoalAsked(prover);
    e.notify('textDocument/didChange', { textDocument: { uri: f.uri, version: 2 }, contentChanges: [{ text }] });
    const r = await pending;
    expect(r.result).toMatchObject({ query: 'a b : Nat\n⊢ a + b = b + a', source: 'goal:plainGoal' });
    const replies = prover().filter((x) => x.dir === 'out' && String(x.msg.id).startsWith('premise:'));
    expect(replies.map((x) => x.msg.error?.code ?? 'ok')).toEqual([-32801, 'ok']);
  });
});

describe('live index of edited documents', () => {
  /** Search by name until `want` holds (the document is read after a pause in typing). */
  async function until(e: Editor, query: string, want: (names: string[]) => boolean): Promise<string[]> {
    for (let i = 0; i < 50; i++) {
      const names = ((await search(e, { query, k: 20 })).result.results as { name: string }[]).map((h) => h.name);
      if (want(names)) return names;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no live-index answer for ${query}`);
  }

  it('offers a lemma as soon as it is written, and forgets it when it is renamed', async () => {
    const { e } = await start({ liveIndex: true });
    const uri = fixture('Demo.lean').uri.replace('Demo.lean', 'Live.lean');
    const text = 'namespace Live\n\ntheorem fresh_mul_seven (n : Nat) : n * 7 = 7 * n := by omega\n\nend Live\n';
    e.open(uri, text);
    await until(e, 'fresh_mul_seven', (n) => n.includes('Live.fresh_mul_seven'));
    e.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: text.replace('fresh_mul_seven', 'renamed_mul_seven') }] });
    const after = await until(e, 'mul_seven', (n) => n.includes('Live.renamed_mul_seven'));
    expect(after).not.toContain('Live.fresh_mul_seven');
  });

  it('does not read a document over a megabyte (reading it would hold the server up for seconds)', async () => {
    const { e } = await start({ liveIndex: true });
    const base = fixture('Demo.lean').uri;
    const decl = (name: string) => `theorem ${name} (n : Nat) : n * 9 = 9 * n := by omega\n`;
    e.open(base.replace('Demo.lean', 'Huge.lean'), decl('huge_mul_nine') + '/-' + ' padding'.repeat(140_000) + ' -/\n');
    e.open(base.replace('Demo.lean', 'Small.lean'), decl('small_mul_nine'));
    // documents are read in order: once the small one is in, the huge one had its turn
    const names = await until(e, 'mul_nine', (n) => n.includes('small_mul_nine'));
    expect(names).not.toContain('huge_mul_nine');
  });

  it('never offers what the document declares below the cursor (not in scope there)', async () => {
    const { e } = await start({ liveIndex: true });
    const uri = fixture('Demo.lean').uri.replace('Demo.lean', 'Scope.lean');
    const text = [
      'namespace Scope',
      'theorem early_scope (n : Nat) : n + 0 = n := by',
      '  -- goal: n : Nat\\n⊢ n + 0 = n',
      '  simp',
      'theorem late_scope (n : Nat) : n + 0 = 0 + n := by',
      '  -- goal: n : Nat\\n⊢ n + 0 = 0 + n',
      '  simp',
      'end Scope',
    ].join('\n');
    e.open(uri, text);
    await until(e, 'early_scope late_scope', (n) => n.includes('Scope.early_scope') && n.includes('Scope.late_scope'));
    const at = async (nth: number) =>
      ((await search(e, { uri, position: posOf(text, 'simp', 0, nth), k: 20 })).result.results as { name: string }[]).map((h) => h.name);
    const first = await at(0);
    expect(first).not.toContain('Scope.late_scope');
    expect(first).not.toContain('Scope.early_scope'); // the theorem being proved
    expect(await at(1)).toContain('Scope.early_scope');
  });

  it('puts what the document declares above the cursor first (locality)', async () => {
    const { e } = await start({ liveIndex: true });
    const uri = fixture('Demo.lean').uri.replace('Demo.lean', 'Near.lean');
    const text = [
      'theorem helper_near (q : Nat) : q = q := rfl',
      'theorem main_near (n : Nat) : n + 0 = n := by',
      '  -- goal: n : Nat\\n⊢ n + 0 = n',
      '  simp',
    ].join('\n');
    e.open(uri, text);
    await until(e, 'helper_near', (n) => n.includes('helper_near'));
    const r = await search(e, { uri, position: posOf(text, 'simp'), k: 20 });
    expect(r.result.results[0].name).toBe('helper_near');
  });

  it("forgets a never-saved buffer's lemmas when it is closed", async () => {
    const { e } = await start({ liveIndex: true });
    const uri = fixture('Demo.lean').uri.replace('Demo.lean', 'Unsaved.lean'); // no such file on disk
    e.open(uri, 'namespace Unsaved\n\ntheorem unsaved_mul_six (n : Nat) : n * 6 = 6 * n := by omega\n\nend Unsaved\n');
    await until(e, 'unsaved_mul_six', (n) => n.includes('Unsaved.unsaved_mul_six'));
    e.notify('textDocument/didClose', { textDocument: { uri } });
    await until(e, 'unsaved_mul_six', (n) => !n.includes('Unsaved.unsaved_mul_six'));
  });

  it('gives an indexed premise back as the index has it when an unsaved buffer that redefined it is closed', async () => {
    const { e } = await start({ liveIndex: true });
    const uri = fixture('Demo.lean').uri.replace('Demo.lean', 'Shadow.lean'); // no such file on disk
    e.open(uri, 'namespace Nat\n\ntheorem add_comm (x y : Nat) : x + y + 0 = y + x := sorry\n\nend Nat\n');
    const statement = async () => {
      const hits = (await search(e, { query: 'add comm commutative', k: 20 })).result.results as { name: string; statement: string }[];
      return hits.find((h) => h.name === 'Nat.add_comm')?.statement;
    };
    const until = async (stage: string, want: (s: string | undefined) => boolean) => {
      for (let i = 0; i < 50; i++) {
        const st = await statement();
        if (want(st)) return st;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${stage}: Nat.add_comm is ${await statement()}`);
    };
    await until('open', (st) => !!st?.includes('x + y + 0 = y + x'));
    e.notify('textDocument/didClose', { textDocument: { uri } });
    expect(await until('closed', (st) => st !== undefined && !st.includes('+ 0'))).toBe('theorem Nat.add_comm (n m : Nat) : n + m = m + n');
  });

  it('forgets what a document declared when it is closed and opened again at once with other text', async () => {
    const { e } = await start({ liveIndex: true });
    const uri = fixture('Demo.lean').uri.replace('Demo.lean', 'Reopened.lean'); // no such file on disk
    const text = 'theorem first_mul_four (n : Nat) : n * 4 = 4 * n := by omega\n';
    e.open(uri, text);
    await until(e, 'mul_four', (n) => n.includes('first_mul_four'));
    // in one go: the close is handled while the document is open again
    e.notify('textDocument/didClose', { textDocument: { uri } });
    e.open(uri, text.replace('first_mul_four', 'second_mul_four'), 'lean', 2);
    await until(e, 'mul_four', (n) => n.includes('second_mul_four') && !n.includes('first_mul_four'));
  });

  it('falls back to what the file on disk declares when its document is closed', async () => {
    const { e } = await start({ liveIndex: true });
    const path = tempFile('Saved.lean');
    const onDisk = 'namespace Saved\n\ntheorem disk_mul_five (n : Nat) : n * 5 = 5 * n := by omega\n\nend Saved\n';
    writeFileSync(path, onDisk);
    const uri = pathToFileURL(path).href;
    // the buffer renamed the lemma and was never saved
    e.open(uri, onDisk.replace('disk_mul_five', 'buffer_mul_five'));
    await until(e, 'mul_five', (n) => n.includes('Saved.buffer_mul_five') && !n.includes('Saved.disk_mul_five'));
    e.notify('textDocument/didClose', { textDocument: { uri } });
    await until(e, 'mul_five', (n) => n.includes('Saved.disk_mul_five') && !n.includes('Saved.buffer_mul_five'));
  });

  it('can be turned off', async () => {
    const { e } = await start({ liveIndex: false });
    const uri = fixture('Demo.lean').uri.replace('Demo.lean', 'Off.lean');
    e.open(uri, 'theorem never_indexed_xyz : True := trivial\n');
    await new Promise((r) => setTimeout(r, 600));
    const names = ((await search(e, { query: 'never_indexed_xyz', k: 20 })).result.results as { name: string }[]).map((h) => h.name);
    expect(names).not.toContain('never_indexed_xyz');
  });
});

describe('goals', () => {
  it('uses the main goal first with the others as context, and falls back to plainTermGoal', async () => {
    const { e } = await start();
    const { uri, text } = await openAndWait(e, 'Demo.lean');
    const multi = await search(e, { uri, position: posOf(text, 'constructor') });
    expect(multi.result.query).toBe('a b : Nat\n⊢ a * b = b * a\n\na b : Nat\n⊢ a + 0 = a');
    expect(multi.result.results[0].name).toBe('Nat.mul_comm');
    const term = await search(e, { uri, position: posOf(text, 'exact 0') });
    // Lean's term goal carries `⊢ ` (and the hypotheses), as plainGoal's goals do
    expect(term.result).toMatchObject({ query: '⊢ Nat', source: 'goal:plainTermGoal' });
  });

  it('captures goals from the editor\'s own plainGoal requests', async () => {
    const { e, prover } = await start();
    const { uri, text } = await openAndWait(e, 'Demo.lean');
    const position = posOf(text, 'exact Nat.le_of_lt_succ');
    const own = await e.request('$/lean/plainGoal', { textDocument: { uri }, position });
    expect(own.result.goals).toHaveLength(1);
    const r = await search(e, { uri, position });
    expect(r.result.source).toBe('goal:cache');
    expect(r.result.results[0].name).toBe('Nat.le_of_lt_succ');
    expect(prover().filter((x) => x.msg.method === '$/lean/plainGoal').map((x) => x.msg.id)).toEqual([own.id]);
  });

  it('never offers the theorem being proved (found with its namespace)', async () => {
    const { e } = await start();
    const { uri, text } = await openAndWait(e, 'Demo.lean');
    const elsewhere = await search(e, { uri, position: posOf(text, 'exact Nat.le_of_lt_succ') });
    expect(elsewhere.result.results[0].name).toBe('Nat.le_of_lt_succ');
    const inside = await search(e, { uri, position: posOf(text, 'omega') });
    expect(inside.result.query).toBe(elsewhere.result.query);
    expect(inside.result.results.map((h: any) => h.name)).not.toContain('Nat.le_of_lt_succ');
    expect(inside.result.results.length).toBeGreaterThan(0);
  });

  it('waits for delayed goals', async () => {
    const { e } = await start();
    const { uri, text } = await openAndWait(e, 'Slow.lean');
    const r = await search(e, { uri, position: posOf(text, 'simp') });
    expect(r.result).toMatchObject({ query: 'n : Nat\n⊢ n + 0 = n', source: 'goal:plainGoal' });
    expect(r.result.results[0].name).toBe('Nat.add_zero');
  });
});

describe('code actions', () => {
  function apply(text: string, action: any): string {
    const [change] = action.edit.documentChanges;
    const [edit] = change.edits;
    const lines = text.split('\n');
    const { start, end } = edit.range;
    expect(start.line).toBe(end.line);
    const l = lines[start.line];
    lines[start.line] = l.slice(0, start.character) + edit.newText + l.slice(end.character);
    return lines.join('\n');
  }

  it('offers tactic insertions that fit the goal, after Lean\'s own actions', async () => {
    const { e, prover } = await start();
    const { uri, text } = await openAndWait(e, 'Actions.lean');
    const at = (line: number) => ({ textDocument: { uri }, range: { start: { line, character: 2 }, end: { line, character: 2 } }, context: { diagnostics: [] } });
    const eq = await e.request('textDocument/codeAction', at(2));
    expect(eq.result[0].title).toBe('Try this: simp');
    const ours = eq.result.slice(1);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.length).toBeLessThanOrEqual(5);
    expect(ours[0].title).toBe('Insert premise: rw [Nat.add_comm]');
    expect(ours[0].edit.documentChanges[0].textDocument).toEqual({ uri, version: 1 });
    expect(apply(text, ours[0]).split('\n')[2]).toBe('  rw [Nat.add_comm]');

    const le = await e.request('textDocument/codeAction', at(6));
    const top = le.result[1];
    expect(apply(text, top).split('\n')[6]).toBe('  apply Nat.le_of_lt_succ');

    const list = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: posOf(text, 'simp [', 6), end: posOf(text, 'simp [', 6) }, context: { diagnostics: [] } });
    expect(apply(text, list.result[1]).split('\n')[10]).toBe('  simp [Nat.add_comm]');

    // resolve: ours answered here, Lean's forwarded
    const mine = await e.request('codeAction/resolve', ours[0]);
    expect(mine.result).toEqual(ours[0]);
    const theirs = await e.request('codeAction/resolve', eq.result[0]);
    expect(theirs.result.edit).toBeDefined();
    const resolves = prover().filter((x) => x.dir === 'in' && x.msg.method === 'codeAction/resolve');
    expect(resolves.map((x) => x.msg.params.title)).toEqual(['Try this: simp']);
  });

  it('respects codeActions.max', async () => {
    const { e } = await start({ codeActions: { max: 1 } });
    const { uri } = await openAndWait(e, 'Actions.lean');
    const r = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 2, character: 2 }, end: { line: 2, character: 2 } }, context: { diagnostics: [] } });
    expect(r.result).toHaveLength(2);
  });
});

describe('hover and commands', () => {
  it('appends the premise to Lean\'s hover on a premise name', async () => {
    const { e } = await start();
    const { uri, text } = await openAndWait(e, 'Demo.lean');
    const h = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'Nat.add_comm', 6) });
    const value: string = h.result.contents.value;
    expect(value.startsWith('```lean\nNat.add_comm : Prop\n```')).toBe(true);
    expect(value).toContain('theorem Nat.add_comm (n m : Nat) : n + m = m + n');
    expect(value).toContain('Init.Data.Nat.Basic (Init/Data/Nat/Basic.lean:42)');
    const plain = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'add_comm_demo', 3) });
    expect(plain.result.contents.value).toBe('```lean\nadd_comm_demo : Prop\n```');
  });

  it('searches free text, rejects unknown documents, and inserts through workspace/applyEdit', async () => {
    const { e } = await start();
    const { uri, text } = await openAndWait(e, 'Actions.lean');
    const r = await search(e, { query: 'a * b = b * a', k: 2 });
    expect(r.result.results.map((x: any) => x.name)).toEqual(['Nat.mul_comm', 'Nat.add_comm']);
    const bad = await search(e, { uri: 'file:///nowhere.lean', position: { line: 0, character: 0 } });
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain('unknown document');
    const edit = e.waitFor((m: Msg) => m.method === 'workspace/applyEdit');
    const ins = await e.request('workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri, position: { line: 2, character: 2 }, name: 'Nat.add_comm' }] });
    expect(ins.result).toMatchObject({ applied: true, text: 'rw [Nat.add_comm]' });
    expect((await edit).params.edit.documentChanges[0].edits[0].newText).toBe('rw [Nat.add_comm]');
    void text;
  });
});
