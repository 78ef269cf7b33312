/**
 * Trials (docs/trials.md) in front of the fake Lean, whose step table in
 * test/fixtures/lsp/Trials.lean says what each step does: the verified step first
 * (command, code action, completion, hover), a failing one never marked, nothing of
 * a trial reaching the editor, the user's edits winning, a hung trial abandoned, and
 * 10 seeded random interleavings of edits, trials and cancellations that end with
 * the prover holding the editor's text byte for byte.
 */
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_LEAN, FIXTURES, fixture, posOf, readTranscript, tempFile, type Msg } from './harness.js';

const PREMISES = join(FIXTURES, 'trial-premises.json');
const SHADOW = '__premise_trial';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function start(trials: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
  const log = tempFile('lean.jsonl');
  const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log }, engine: PREMISES });
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: false, trials: { keepOpenMs: 0, timeoutMs: 5000, ...trials }, ...settings } });
  return { e, prover: () => readTranscript(log) };
}

async function openTrials(e: Editor, transform: (t: string) => string = (t) => t) {
  const f = fixture('Trials.lean');
  const text = transform(f.text);
  const ready = e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === f.uri && p.processing.length === 0);
  e.open(f.uri, text);
  await ready;
  return { uri: f.uri, text };
}

const tryAt = (e: Editor, uri: string, position: unknown, extra: Record<string, unknown> = {}, id?: number) =>
  e.request('workspace/executeCommand', { command: 'premise-lsp.try', arguments: [{ textDocument: { uri }, position, ...extra }] }, id);

/** Messages the editor received that name a trial document anywhere. */
const leaked = (e: Editor) => e.received.filter((m) => JSON.stringify(m).includes(SHADOW));

describe('premise-lsp.try', () => {
  it('puts `exact add_comm a b` first, closing the goal, and never marks a failing step', async () => {
    const { e } = await start();
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const r = await tryAt(e, uri, at);
    expect(r.error).toBeUndefined();
    const results: any[] = r.result.results;
    expect(results[0]).toEqual({ step: 'exact add_comm a b', premise: 'add_comm', outcome: 'closes' });
    const failing = results.find((x) => x.step === 'exact mul_comm a b' || x.step === 'exact mul_comm');
    expect(failing.outcome).toBe('fails');
    expect(results.find((x) => x.step === 'exact mul_comm').message).toMatch(/^type mismatch/);
    // best first: every closing step before every failing one
    const order = results.map((x) => x.outcome);
    expect(order.lastIndexOf('closes')).toBeLessThan(order.indexOf('fails'));

    const actions = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [] } });
    const titles: string[] = actions.result.map((a: any) => a.title);
    expect(titles[0]).toBe('✓ exact add_comm a b — closes the goal');
    expect(actions.result[0].isPreferred).toBe(true);
    expect(actions.result[0].edit.documentChanges[0].edits).toEqual([{ range: { start: { line: at.line, character: 2 }, end: { line: at.line, character: 8 } }, newText: 'exact add_comm a b' }]);
    expect(titles.some((t) => t.includes('mul_comm') && (t.startsWith('✓') || t.includes('makes progress')))).toBe(false);
    expect(leaked(e)).toEqual([]);
  });

  it('gives the verdict in completion items and hovers', async () => {
    const { e } = await start();
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    await tryAt(e, uri, at);
    const c = await e.request('textDocument/completion', { textDocument: { uri }, position: at, context: { triggerKind: 1 } });
    const ours = c.result.items.filter((i: any) => i.data?.['premise-lsp']);
    expect(ours[0].label).toBe('add_comm');
    expect(ours[0].detail).toBe('✓ closes the goal: exact add_comm a b');
    expect(ours.find((i: any) => i.label === 'mul_comm')?.detail ?? '').not.toContain('✓');
    // hover on the premise's name anywhere in the same version of the document
    const h = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'exact add_comm a b', 7) });
    expect(h.result.contents.value).toContain(`✓ \`exact add_comm a b\` closes the goal at line ${at.line + 1} (checked by Lean)`);
    const m = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'exact mul_comm a b', 7) });
    expect(m.result.contents.value).not.toContain('checked by Lean');
  });

  it('abandons a hung trial at its wall-clock limit, reads a heartbeat error as timeout, and closes the trial document', async () => {
    const { e, prover } = await start({ timeoutMs: 400 });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const r = await tryAt(e, uri, at, { premises: ['add_comm'], tactics: ['simp'] });
    expect(r.result.results).toEqual([expect.objectContaining({ step: 'simp [add_comm]', outcome: 'timeout' })]);
    const sent = prover().filter((x) => x.dir === 'in').map((x) => x.msg);
    const wait = sent.find((m) => m.method === 'textDocument/waitForDiagnostics');
    expect(sent.some((m) => m.method === '$/cancelRequest' && m.params.id === wait.id)).toBe(true);
    // a timed-out trial document is closed at once (Lean may still be busy with it)
    const close = sent.findIndex((m) => m.method === 'textDocument/didClose' && m.params.textDocument.uri.includes(SHADOW));
    expect(close).toBeGreaterThan(sent.indexOf(wait));
    const docs = await e.request('fake/documents', {});
    expect(Object.keys(docs.result)).toEqual([uri]);
    expect(leaked(e)).toEqual([]);
  });

  it('reads a heartbeat-limit error on the step as timeout', async () => {
    const { e } = await start({ heartbeats: 1000 });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '⊢ m ≤ n\n', '⊢ m ≤ n\n'.length + 2);
    const r = await tryAt(e, uri, at, { premises: ['Nat.le_of_lt_succ', 'Nat.lt_irrefl', 'add_comm'], tactics: ['grind', 'apply'] });
    const grind = r.result.results.find((x: any) => x.step.startsWith('grind'));
    expect(grind).toMatchObject({ step: 'grind [Nat.le_of_lt_succ, Nat.lt_irrefl, add_comm]', outcome: 'timeout' });
    expect(grind.message).toContain('maximum number of heartbeats (1000)');
    const apply = r.result.results.find((x: any) => x.step === 'apply Nat.le_of_lt_succ');
    expect(apply).toEqual({ step: 'apply Nat.le_of_lt_succ', premise: 'Nat.le_of_lt_succ', outcome: 'progress', goals: ['m n : ℕ\nh : m < n + 1\n⊢ m < n + 1'] });
  });
});
