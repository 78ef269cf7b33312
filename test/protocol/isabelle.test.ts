/**
 * In front of the fake Isabelle server: a slow initialize is never timed out,
 * requests Isabelle did not advertise are refused by premise-lsp (Isabelle would
 * never answer), proof states come from caret_update → dynamic_output (one caret
 * at a time, so concurrent requests keep their own documents' states; HTML
 * stripped, cached because unchanged output is not re-sent), completion merges
 * into Isabelle's plain-array reply, and code actions insert Isabelle methods.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_ISABELLE, fixture, posOf, readTranscript, tempFile } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function start(env: Record<string, string> = {}, init: unknown = { 'premise-lsp': { goalTimeoutMs: 300 } }, args: string[] = []) {
  const log = tempFile('isabelle.jsonl');
  const e = Editor.proxy([process.execPath, FAKE_ISABELLE, ...args], { env: { FAKE_TRANSCRIPT: log, ...env } });
  editors.push(e);
  const r = await e.initialize(init);
  const f = fixture('Demo.thy');
  e.open(f.uri, f.text, 'isabelle');
  return { e, r, uri: f.uri, text: f.text, prover: () => readTranscript(log) };
}

const search = (e: Editor, args: unknown) => e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [args] });

describe('Isabelle', () => {
  it('waits for a slow initialize far beyond the goal timeout', async () => {
    const { r } = await start({ FAKE_INIT_DELAY_MS: '1500' });
    expect(r.result.capabilities.textDocumentSync).toBe(2);
    expect(r.result.capabilities.executeCommandProvider.commands).toContain('premise-lsp.search');
  });

  it('refuses requests Isabelle did not advertise instead of forwarding them into silence', async () => {
    const { e, uri, prover } = await start();
    const refs = await e.request('textDocument/references', { textDocument: { uri }, position: { line: 2, character: 6 }, context: { includeDeclaration: true } });
    expect(refs.error?.code).toBe(-32601);
    const custom = await e.request('$/custom/thing', {});
    expect(custom.error?.code).toBe(-32601);
    const state = await e.request('PIDE/state_init', {});
    expect(state.result).toEqual({ state_id: 1 });
    const methods = prover().map((x) => x.msg.method);
    expect(methods).not.toContain('textDocument/references');
    expect(methods).not.toContain('$/custom/thing');
  });

  it('reads the proof state from dynamic_output and reuses it when Isabelle sends nothing new', async () => {
    const { e, uri, text, prover } = await start();
    const first = await search(e, { uri, position: posOf(text, 'by simp') });
    expect(first.result.query).toBe('proof (prove)\ngoal (1 subgoal):\n 1. x + 0 = x');
    expect(first.result.source).toBe('goal:dynamic_output');
    expect(first.result.results[0].name).toBe('Nat.add_0_right');
    // same state text at another position: Isabelle stays silent, the cache answers
    const again = await search(e, { uri, position: posOf(text, '(* state', 0) });
    expect(again.result).toMatchObject({ query: first.result.query, source: 'goal:cache' });
    const carets = prover().filter((x) => x.dir === 'in' && x.msg.method === 'PIDE/caret_update');
    expect(carets.length).toBe(2);
    expect(prover().filter((x) => x.dir === 'out' && x.msg.method === 'PIDE/dynamic_output')).toHaveLength(1);
  });

  it('gives concurrent requests in two documents each its own proof state', async () => {
    const { e, uri, text } = await start();
    const other = uri.replace('Demo.thy', 'Other.thy');
    e.open(other, text, 'isabelle');
    const ask = (id: string, u: string, needle: string) =>
      JSON.stringify({ jsonrpc: '2.0', id, method: 'workspace/executeCommand', params: { command: 'premise-lsp.search', arguments: [{ uri: u, position: posOf(text, needle) }] } });
    const a = e.waitFor((m) => m.id === 'goal-a');
    const b = e.waitFor((m) => m.id === 'goal-b');
    // one write: both carets are asked for before any output comes back
    const [qa, qb] = [ask('goal-a', uri, 'by simp'), ask('goal-b', other, 'by auto')];
    e.writeRaw(qb, `Content-Length: ${Buffer.byteLength(qa)}\r\n\r\n${qa}Content-Length: ${Buffer.byteLength(qb)}\r\n\r\n`);
    expect((await a).result.query).toMatch(/1\. x \+ 0 = x$/);
    expect((await b).result.query).toMatch(/1\. A ⟹ B ⟹ A ∧ B$/);
  });

  it('merges premises into the plain-array completion reply inside `by (simp add: `', async () => {
    const { e, uri, text } = await start();
    const edited = text.replace('  by simp\n', '  by (simp add: \n');
    e.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(edited, 'simp add: ', 10), context: { triggerKind: 1 } });
    expect(Array.isArray(r.result)).toBe(true);
    expect(r.result.slice(0, 2).map((i: any) => i.label)).toEqual(['⇒', 'simp']);
    expect(r.result[2].data['premise-lsp']).toBe('Nat.add_0_right');
    // Isabelle has no resolve: ours is answered here, theirs comes back unchanged
    const ours = await e.request('completionItem/resolve', r.result[2]);
    expect(ours.result.documentation.value).toContain('src/HOL/Nat.thy:301');
    const theirs = await e.request('completionItem/resolve', r.result[1]);
    expect(theirs.result).toEqual(r.result[1]);
  });

  it('offers no premise in a comment or a cartouche, though `(simp add: ` is written there', async () => {
    const { e, uri, text } = await start();
    const edited = text.replace('  by simp\n', '  (* try by (simp add:  *)\n  text ‹or using  here›\n  by simp\n');
    e.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    for (const needle of ['simp add: ', 'or using ']) {
      const r = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(edited, needle, needle.length), context: { triggerKind: 2, triggerCharacter: ' ' } });
      expect((r.result?.items ?? r.result ?? []).filter((i: any) => i?.data?.['premise-lsp'])).toEqual([]);
    }
  });

  it('inserts `by (simp add: …)` for equations and `by (rule …)` for rules', async () => {
    const { e, uri, text } = await start();
    const blank = text.replace('  by simp\n', '  \n').replace('  by auto\n', '  \n');
    e.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: blank }] });
    const lines = blank.split('\n');
    const at = (needle: string) => {
      const line = lines.findIndex((l, i) => i > 0 && l === '  ' && lines[i - 1].includes(needle));
      return { textDocument: { uri }, range: { start: { line, character: 2 }, end: { line, character: 2 } }, context: { diagnostics: [] } };
    };
    const eq = await e.request('textDocument/codeAction', at('x + 0 = x'));
    expect(eq.result[0].edit.documentChanges[0].edits[0].newText).toBe('by (simp add: Nat.add_0_right)');
    const conj = await e.request('textDocument/codeAction', at('A ⟹ B ⟹ A ∧ B'));
    expect(conj.result[0].edit.documentChanges[0]).toMatchObject({ textDocument: { uri, version: 2 }, edits: [{ newText: 'by (rule HOL.conjI)' }] });
  });

  it('restarts a crashed Isabelle and replays the session', async () => {
    const { e, uri, text, prover } = await start();
    const crashed = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'CRASH') });
    expect(crashed.error?.code).toBe(-32803);
    const h = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'add_zero_demo', 2) });
    expect(h.result.contents.value).toBe('constant "add_zero_demo"');
    const starts = prover().filter((x) => x.dir === 'in' && x.msg.method === 'textDocument/didOpen');
    expect(starts).toHaveLength(2);
    const sd = await e.request('shutdown');
    expect(sd.result).toBe('OK');
  });

  it('takes text output (`vscode_html_output=false`, sent with decorations) as it is, `<` included', async () => {
    const { e, uri } = await start({}, undefined, ['-o', 'vscode_html_output=false']);
    const text = 'theory Lt imports Main begin\n\nlemma lt_demo: "x < (y::nat) ⟹ y > x"\n  (* state: proof (prove)\\ngoal (1 subgoal):\\n 1. x < y ⟹ y > x *)\n  by simp\n\nend\n';
    e.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
    const out = e.notification('PIDE/dynamic_output');
    const r = await search(e, { uri, position: posOf(text, 'by simp') });
    expect((await out).params).toEqual({ content: 'proof (prove)\ngoal (1 subgoal):\n 1. x < y ⟹ y > x', decorations: [] });
    expect(r.result).toMatchObject({ query: 'proof (prove)\ngoal (1 subgoal):\n 1. x < y ⟹ y > x', source: 'goal:dynamic_output' });
  });

  it('shows only the premise where Isabelle\'s hover is empty (`{contents: []}`)', async () => {
    const { e, uri, text } = await start();
    const edited = text.replace('  by simp\n', '  by (simp add: Nat.add_0_right) (* no-tooltip *)\n');
    e.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    const h = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(edited, 'Nat.add_0_right', 4) });
    expect(h.result.contents.kind).toBe('markdown');
    // the premise alone: no rule below an empty Isabelle part
    expect(h.result.contents.value.startsWith('```isabelle\nlemma add_0_right')).toBe(true);
    expect(h.result.contents.value).not.toContain('---');
  });

  it('answers a code action for a document Isabelle does not know itself (Isabelle would never reply)', async () => {
    const { e, prover } = await start();
    const other = fixture('Demo.thy').uri.replace('Demo.thy', 'Unopened.thy');
    const r = await e.request('textDocument/codeAction', { textDocument: { uri: other }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } });
    expect(r.result).toEqual([]);
    expect(prover().some((x) => x.msg.method === 'textDocument/codeAction')).toBe(false);
  });
});
