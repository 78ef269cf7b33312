/**
 * Adversarial input on the proxy's paths that the other protocol tests leave
 * out: edits the proxy cannot read itself still reach the prover unchanged and
 * in order; an editor request whose id looks like the proxy's own cannot take
 * the proxy's reply (nor the proxy its); an id already pending, a second
 * initialize and requests after shutdown are refused; a position between the
 * halves of a surrogate pair never gets an edit that splits the character.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_LEAN, fixture, posOf, readTranscript, tempFile } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function leanWith(name: string) {
  const log = tempFile('lean.jsonl');
  const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log } });
  editors.push(e);
  await e.initialize();
  const f = fixture(name);
  const done = () => e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === f.uri && p.processing.length === 0);
  const ready = done();
  e.open(f.uri, f.text);
  await ready;
  return { e, log, done, ...f };
}

describe('edits on their way to the prover', () => {
  it('forwards every didChange in order, even ranges the proxy cannot read (Lean reads those as the whole text)', async () => {
    const { e, log, uri } = await leanWith('Demo.lean');
    const fresh = 'theorem fresh_demo (n m : Nat) : n + m = m + n := by\n  simp\n';
    const changes = [
      { textDocument: { uri, version: 2 }, contentChanges: [{ range: null, text: fresh }] },
      { textDocument: { uri, version: 3 }, contentChanges: [{ range: { start: { line: 0 } }, text: fresh }] },
      { textDocument: { uri, version: 4 }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '' }] },
      { textDocument: { uri, version: 5 }, contentChanges: [{ rangeLength: 'all', text: fresh }] },
    ];
    for (const c of changes) e.notify('textDocument/didChange', c);
    // the proxy's own copy took the unreadable ranges as the whole text, as Lean does
    const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ uri, position: posOf(fresh, 'simp') }] });
    expect(r.result.query).toContain('fresh_demo');
    const forwarded = readTranscript(log).filter((x) => x.dir === 'in' && x.msg.method === 'textDocument/didChange').map((x) => x.msg.params);
    expect(forwarded).toEqual(changes);
    expect(e.stderr).not.toMatch(/TypeError/);
  });
});

/** Until the prover has received a request matching `pred` (read from its transcript). */
async function proverGot(log: string, pred: (m: any) => boolean): Promise<void> {
  for (let i = 0; i < 600 && !readTranscript(log).some((x) => x.dir === 'in' && pred(x.msg)); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('request ids', () => {
  it("keeps an editor request with id \"premise:1\" apart from the proxy's own goal request", async () => {
    const { e, log, uri, text } = await leanWith('Slow.lean');
    // the proxy asks Lean for the goal (answered after 400 ms: `goal-delay-ms`)…
    const search = e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ uri, position: posOf(text, 'simp') }] });
    await proverGot(log, (m) => m.method === '$/lean/plainGoal' && String(m.id).startsWith('premise:'));
    // …while the editor asks something else under the id the proxy's first request used to have
    const hover = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'slow_demo', 2) }, 'premise:1');
    expect(hover.result?.contents?.value).toContain('slow_demo');
    const r = await search;
    expect(r.result).toMatchObject({ query: 'n : Nat\n⊢ n + 0 = n', source: 'goal:plainGoal' });
  });
});

describe('request ids in use', () => {
  it('refuses a second request under the id of a pending one; the first keeps its reply', async () => {
    const { e, uri } = await leanWith('Complete.lean');
    const text = fixture('Complete.lean').text;
    const completion = JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'textDocument/completion', params: { textDocument: { uri }, position: posOf(text, 'exact ', 6), context: { triggerKind: 1 } } });
    const hover = JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'textDocument/hover', params: { textDocument: { uri }, position: posOf(text, 'add_comm_demo', 2) } });
    const second = e.waitFor((m) => m.id === 77 && m.error !== undefined);
    // one write: the hover arrives while the completion is surely pending
    e.writeRaw(hover, `Content-Length: ${Buffer.byteLength(completion)}\r\n\r\n${completion}Content-Length: ${Buffer.byteLength(hover)}\r\n\r\n`);
    const refused = await second;
    expect(refused.error).toMatchObject({ code: -32600, message: expect.stringMatching(/already used by a pending request/) });
    // the completion's reply is the completion's: Lean's items with the premises merged in
    const items: any[] = (await e.waitFor((m) => m.id === 77 && m.result !== undefined, { past: true })).result.items;
    expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(['Nat.succ', 'Nat.le_of_lt_succ']));
    expect(e.received.filter((m) => m.id === 77)).toHaveLength(2);
  });
});

describe('a second initialize', () => {
  for (const mode of ['standalone', 'proxy'] as const) {
    it(`is refused with InvalidRequest and not passed on (${mode})`, async () => {
      const log = tempFile('lean.jsonl');
      const e = mode === 'proxy' ? Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log } }) : Editor.proxy([]);
      editors.push(e);
      await e.initialize();
      const again = await e.request('initialize', { processId: null, rootUri: null, capabilities: {} });
      expect(again.error).toMatchObject({ code: -32600, message: expect.stringMatching(/already received/) });
      const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] });
      expect(r.result.results[0].name).toBe('Nat.add_comm');
      if (mode === 'proxy') expect(readTranscript(log).filter((x) => x.dir === 'in' && x.msg.method === 'initialize')).toHaveLength(1);
      expect(await e.shutdown()).toBe(0);
    });
  }
});

describe('after shutdown', () => {
  for (const mode of ['standalone', 'proxy'] as const) {
    it(`refuses requests with InvalidRequest, then exits cleanly (${mode})`, async () => {
      const log = tempFile('lean.jsonl');
      const e = mode === 'proxy' ? Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log } }) : Editor.proxy([]);
      editors.push(e);
      await e.initialize();
      expect((await e.request('shutdown')).error).toBeUndefined();
      const search = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] });
      expect(search.error?.code).toBe(-32600);
      expect(search.error?.message).toMatch(/after shutdown/);
      expect((await e.request('textDocument/hover', { textDocument: { uri: 'file:///x.lean' }, position: { line: 0, character: 0 } })).error?.code).toBe(-32600);
      e.notify('exit');
      expect(await e.exited).toBe(0);
    });
  }
});

describe('UTF-16 surrogate pairs', () => {
  /** The text after applying `edits` (one line each, as premise-lsp makes them). */
  function apply(text: string, edits: Array<{ range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }>): string {
    const lines = text.split('\n');
    for (const { range, newText } of edits) {
      const l = lines[range.start.line];
      lines[range.start.line] = l.slice(0, range.start.character) + newText + l.slice(range.end.character);
    }
    return lines.join('\n');
  }
  const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

  it('never splits a character with completion, code action or insert edits at a position inside it', async () => {
    const applied: any[] = [];
    const log = tempFile('lean.jsonl');
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log }, answer: (m) => void (m.method === 'workspace/applyEdit' && applied.push(m.params.edit)) });
    editors.push(e);
    await e.initialize();
    const uri = fixture('Demo.lean').uri.replace('Demo.lean', 'Script.lean');
    const text = 'theorem script_demo (a b : Nat) : a + b = b + a := by\n  -- goal: a b : Nat\\n⊢ a + b = b + a\n  rw [𝓝\n';
    const ready = e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === uri && p.processing.length === 0);
    e.open(uri, text);
    await ready;
    const inside = posOf(text, '𝓝', 1); // between the two UTF-16 halves of 𝓝
    const comp = await e.request('textDocument/completion', { textDocument: { uri }, position: inside, context: { triggerKind: 1 } });
    const items = comp.result.items.filter((i: any) => i.data?.['premise-lsp']);
    const actions = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: inside, end: inside }, context: { diagnostics: [] } });
    const ours = actions.result.filter((a: any) => a.data?.['premise-lsp']);
    const insert = await e.request('workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri, position: inside, name: 'Nat.add_comm' }] });
    expect(insert.result.applied).toBe(true);
    const edits = [...items.map((i: any) => i.textEdit), ...ours.map((a: any) => a.edit.documentChanges[0].edits[0]), applied[0].documentChanges[0].edits[0]];
    expect(items.length).toBeGreaterThan(0);
    expect(ours.length).toBeGreaterThan(0);
    for (const edit of edits) expect(apply(text, [edit]), JSON.stringify(edit)).not.toMatch(LONE);
  });
});
