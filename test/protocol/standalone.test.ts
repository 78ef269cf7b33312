/**
 * Standalone (no upstream prover), for editors that attach premise-lsp as a
 * second server: own capabilities, premise features from the document text,
 * MethodNotFound for everything else, settings validation, progress while the
 * index loads, clean shutdown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS } from '../../server/src/engine/types.js';
import { Editor, FAKE_LEAN, fixture, posOf } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

function start(extra: string[] = []) {
  const e = Editor.proxy([], { extra });
  editors.push(e);
  return e;
}

describe('standalone', () => {
  it('serves premises on its own and refuses other methods', async () => {
    const e = start();
    const init = await e.initialize();
    expect(init.result.serverInfo.name).toBe('premise-lsp');
    expect(init.result.capabilities).toMatchObject({
      completionProvider: { triggerCharacters: ['[', ' ', ','], resolveProvider: true },
      hoverProvider: true,
      codeActionProvider: { resolveProvider: true },
      executeCommandProvider: { commands: ['premise-lsp.search', 'premise-lsp.insert', 'premise-lsp.try'] },
    });
    const { uri, text } = fixture('Complete.lean');
    e.open(uri, text);
    const c = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'rw [', 4), context: { triggerKind: 2, triggerCharacter: '[' } });
    // no prover: the query is the declaration's own statement
    expect(c.result.items[0].data['premise-lsp']).toBe('Nat.add_comm');
    const h = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'Nat.mu', 2) });
    expect(h.result).toBeNull();
    const d = fixture('Demo.lean');
    e.open(d.uri, d.text);
    const h2 = await e.request('textDocument/hover', { textDocument: { uri: d.uri }, position: posOf(d.text, 'Nat.add_comm', 5) });
    expect(h2.result.contents.value).toContain('Addition of natural numbers is commutative.');
    expect(h2.result.range).toEqual({ start: posOf(d.text, 'Nat.add_comm'), end: posOf(d.text, 'Nat.add_comm', 12) });
    const def = await e.request('textDocument/definition', { textDocument: { uri }, position: { line: 0, character: 0 } });
    expect(def.error?.code).toBe(-32601);
    expect(await e.shutdown()).toBe(0);
  });

  it('says which command is unknown', async () => {
    const e = start();
    await e.initialize();
    const r = await e.request('workspace/executeCommand', { command: 'lean4.restartFile', arguments: [] });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toContain('unknown command "lean4.restartFile"');
    expect(r.error?.message).toContain('premise-lsp.search');
    expect(await e.shutdown()).toBe(0);
  });

  it("reads a query up to the engine's MAX_QUERY_CHARS, no more", async () => {
    const e = start();
    await e.initialize();
    const search = async (text: string) =>
      (await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [text] })).result as { query: string; results: { name: string }[] };
    // filler that matches nothing, then the words of Nat.add_comm's statement just inside, or just past, the limit
    const words = ' n + m = m + n';
    const pad = (n: number) => 'zq '.repeat(n).slice(0, n);
    const inside = await search(pad(MAX_QUERY_CHARS - 100) + words);
    expect(inside.results[0]?.name).toBe('Nat.add_comm');
    const past = await search(pad(MAX_QUERY_CHARS + 100) + words);
    expect(past.results.map((h) => h.name)).not.toContain('Nat.add_comm');
    expect(past.query.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
  });

  it('reports progress while the index loads, when the client supports it', async () => {
    const e = start(['--fake-engine-delay-ms', '300']);
    const create = e.waitFor((m) => m.method === 'window/workDoneProgress/create');
    const end = e.notification('$/progress', (p) => p.value.kind === 'end');
    await e.initialize();
    const token = (await create).params.token;
    const done = await end;
    expect(done.params).toEqual({ token, value: { kind: 'end', message: '8 premises' } });
    const kinds = e.received.filter((m) => m.method === '$/progress').map((m) => m.params.value.kind);
    expect(kinds).toEqual(['begin', 'report', 'end']);
    // requests wait for the load instead of failing
    const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] });
    expect(r.result.results[0].name).toBe('Nat.add_comm');
  });

  it('validates settings: bad values are reported and the previous value kept', async () => {
    const e = start();
    const shown = e.notification('window/showMessage');
    await e.initialize({ 'premise-lsp': { k: 'many', codeActions: { max: 1 } } });
    expect((await shown).params).toMatchObject({ type: 1 });
    expect((await shown).params.message).toContain('premise-lsp.k must be an integer');
    const q = () => e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['a + b = b + a n m'] });
    expect((await q()).result.results.length).toBeGreaterThan(1); // default k = 20 kept
    e.notify('workspace/didChangeConfiguration', { settings: { 'premise-lsp': { k: 1 } } });
    expect((await q()).result.results).toHaveLength(1);
    const bad = e.notification('window/showMessage', (p) => p.message.includes('mode'));
    e.notify('workspace/didChangeConfiguration', { settings: { 'premise-lsp': { mode: 'magic', k: 2 } } });
    await bad;
    expect((await q()).result.results).toHaveLength(2);
  });

  it('ends when the editor closes its input, exit code 1 without shutdown', async () => {
    const e = start();
    await e.initialize();
    e.proc.stdin!.end();
    expect(await e.exited).toBe(1);
  });
});

describe('upstream from settings', () => {
  it('starts the upstream named by initializationOptions upstreamCommand', async () => {
    const e = start();
    const init = await e.initialize({ 'premise-lsp': { upstreamCommand: [process.execPath, FAKE_LEAN] } });
    expect(init.result.serverInfo.name).toBe('Lean 4 Server');
    expect(init.result.capabilities.completionProvider.triggerCharacters).toEqual(['.', '[', ' ', ',']);
    const { uri, text } = fixture('Demo.lean');
    const ready = e.notification('$/lean/fileProgress', (p) => p.processing.length === 0);
    e.open(uri, text);
    await ready;
    const g = await e.request('$/lean/plainGoal', { textDocument: { uri }, position: posOf(text, 'rw [Nat.add_comm]') });
    expect(g.result.goals).toHaveLength(1);
    expect(await e.shutdown()).toBe(0);
  });
});
