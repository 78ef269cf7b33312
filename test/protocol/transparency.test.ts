/**
 * Forwarding is transparent: a scripted session run against a test double
 * directly and through premise-lsp (with an empty index, so it adds nothing)
 * gives the same transcript on the prover side and on the editor side — ids,
 * params, server→client requests and their replies, cancellation, errors — except
 * for the capabilities premise-lsp adds to the `initialize` reply.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY, Editor, FAKE_ISABELLE, FAKE_LEAN, fixture, posOf, readTranscript, tempFile, type Entry } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

function done(m: { params?: any }, uri: string): boolean {
  return m.params?.textDocument?.uri === uri && Array.isArray(m.params?.processing) && m.params.processing.length === 0;
}

async function leanSession(e: Editor): Promise<void> {
  const demo = fixture('Demo.lean');
  const slow = fixture('Slow.lean');
  const watcher = e.waitFor((m) => m.id === 'register_lean_watcher' && m.method === 'client/registerCapability');
  const init = await e.initialize();
  expect(init.result?.capabilities?.completionProvider).toBeTruthy();
  await watcher;
  let ready = e.notification('$/lean/fileProgress', (p) => done({ params: p }, demo.uri));
  e.open(demo.uri, demo.text);
  await ready;
  const goal = await e.request('$/lean/plainGoal', { textDocument: { uri: demo.uri }, position: posOf(demo.text, 'rw [Nat.add_comm]') });
  expect(goal.result.goals).toEqual(['a b : Nat\n⊢ a + b = b + a']);
  const comp = await e.request('textDocument/completion', { textDocument: { uri: demo.uri }, position: posOf(demo.text, 'Nat.add_comm', 4), context: { triggerKind: 2, triggerCharacter: '.' } });
  const item = comp.result.items[0];
  const resolved = await e.request('completionItem/resolve', item);
  expect(resolved.result.detail).toMatch(/resolved by fake lean/);
  const hover = await e.request('textDocument/hover', { textDocument: { uri: demo.uri }, position: posOf(demo.text, 'add_comm_demo', 2) });
  expect(hover.result.contents.value).toContain('add_comm_demo');
  const actions = await e.request('textDocument/codeAction', { textDocument: { uri: demo.uri }, range: { start: { line: 4, character: 2 }, end: { line: 4, character: 2 } }, context: { diagnostics: [] } });
  await e.request('codeAction/resolve', actions.result[0]);
  // an incremental change that makes the server send workspace/semanticTokens/refresh
  const refresh = e.waitFor((m) => m.method === 'workspace/semanticTokens/refresh');
  ready = e.notification('$/lean/fileProgress', (p) => done({ params: p }, demo.uri));
  e.notify('textDocument/didChange', { textDocument: { uri: demo.uri, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 11 }, end: { line: 0, character: 11 } }, text: ' -- refresh' }] });
  await ready;
  await refresh;
  // cancellation passes through: the slow request is answered with RequestCancelled
  ready = e.notification('$/lean/fileProgress', (p) => done({ params: p }, slow.uri));
  e.open(slow.uri, slow.text);
  await ready;
  const slowGoal = e.request('$/lean/plainGoal', { textDocument: { uri: slow.uri }, position: posOf(slow.text, 'simp') }, 'slow-1');
  e.notify('$/cancelRequest', { id: 'slow-1' });
  expect((await slowGoal).error?.code).toBe(-32800);
  await e.request('textDocument/definition', { textDocument: { uri: demo.uri }, position: { line: 4, character: 8 } });
  const unknown = await e.request('$/lean/noSuchMethod', {});
  expect(unknown.error?.code).toBe(-32601);
  e.notify('textDocument/didClose', { textDocument: { uri: slow.uri } });
  expect(await e.shutdown()).toBe(0);
}

async function isabelleSession(e: Editor): Promise<void> {
  const thy = fixture('Demo.thy');
  const init = await e.initialize();
  expect(init.result.capabilities.textDocumentSync).toBe(2);
  const applyEdit = e.waitFor((m) => m.method === 'workspace/applyEdit' && m.id === '');
  e.open(thy.uri, thy.text.replace('theory Demo', '(* apply-edit *) theory Demo'), 'isabelle');
  await applyEdit;
  const out = e.notification('PIDE/dynamic_output');
  e.notify('PIDE/caret_update', { uri: thy.uri, ...posOf(thy.text, 'by simp') });
  expect((await out).params.content).toContain('x + 0 = x');
  const comp = await e.request('textDocument/completion', { textDocument: { uri: thy.uri }, position: posOf(thy.text, 'by simp', 3), context: { triggerKind: 1 } });
  expect(Array.isArray(comp.result)).toBe(true);
  await e.request('textDocument/hover', { textDocument: { uri: thy.uri }, position: posOf(thy.text, 'add_zero_demo', 1) });
  const sd = await e.request('shutdown');
  expect(sd.result).toBe('OK');
  e.notify('exit');
  expect(await e.exited).toBe(0);
}

/** The transcript without what legitimately differs: premise-lsp's added capabilities. */
function normalise(entries: Entry[]): Entry[] {
  return entries.map((en) => {
    if (en.dir === 'in' && en.msg.id === 1 && en.msg.result?.capabilities) {
      return { ...en, msg: { ...en.msg, result: { ...en.msg.result, capabilities: '<capabilities>' } } };
    }
    return en;
  });
}

async function compare(upstream: string[], script: (e: Editor) => Promise<void>) {
  const directLog = tempFile('direct.jsonl');
  const proxyLog = tempFile('proxy.jsonl');
  const direct = Editor.direct(upstream, { env: { FAKE_TRANSCRIPT: directLog } });
  editors.push(direct);
  await script(direct);
  const proxied = Editor.proxy(upstream, { engine: EMPTY, env: { FAKE_TRANSCRIPT: proxyLog } });
  editors.push(proxied);
  await script(proxied);

  const proverDirect = readTranscript(directLog);
  const proverProxied = readTranscript(proxyLog);
  expect(proverDirect.length).toBeGreaterThan(10);
  expect(proverProxied).toEqual(proverDirect);
  // Editor side, per direction (interleaving of the two directions is timing, not content).
  const side = (t: Entry[], dir: 'in' | 'out') => normalise(t).filter((x) => x.dir === dir);
  expect(side(proxied.transcript, 'in')).toEqual(side(direct.transcript, 'in'));
  expect(side(proxied.transcript, 'out')).toEqual(side(direct.transcript, 'out'));
  // and the capabilities are the upstream's plus ours
  const up = direct.transcript.find((x) => x.dir === 'in' && x.msg.id === 1)!.msg.result.capabilities;
  const merged = proxied.transcript.find((x) => x.dir === 'in' && x.msg.id === 1)!.msg.result.capabilities;
  for (const [k, v] of Object.entries(up)) if (!['completionProvider', 'codeActionProvider', 'executeCommandProvider'].includes(k)) expect(merged[k]).toEqual(v);
  expect(merged.completionProvider.triggerCharacters).toEqual(expect.arrayContaining([...up.completionProvider.triggerCharacters, '[', ' ', ',']));
  expect(merged.executeCommandProvider.commands).toEqual(expect.arrayContaining(['premise-lsp.search', 'premise-lsp.insert']));
}

describe('transparent forwarding', () => {
  it('Lean: same transcript with and without premise-lsp in the middle', async () => {
    await compare([process.execPath, FAKE_LEAN], leanSession);
  });

  it('Isabelle: same transcript, including the "" id and the "OK" shutdown', async () => {
    await compare([process.execPath, FAKE_ISABELLE], isabelleSession);
  });
});

describe('position encodings', () => {
  it('positions stay UTF-16: an offer of UTF-8 (Neovim 0.11) reaches the prover narrowed to UTF-16, and the reply says UTF-16', async () => {
    const log = tempFile('encodings.jsonl');
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { engine: EMPTY, env: { FAKE_TRANSCRIPT: log } });
    editors.push(e);
    const init = await e.initialize(undefined, { general: { positionEncodings: ['utf-8', 'utf-16', 'utf-32'], markdown: { parser: 'marked' } }, window: { workDoneProgress: true } });
    expect(init.result.capabilities.positionEncoding).toBe('utf-16');
    expect(await e.shutdown()).toBe(0);
    const got = readTranscript(log).find((x) => x.dir === 'in' && x.msg.method === 'initialize')!.msg.params;
    expect(got.capabilities).toEqual({ general: { positionEncodings: ['utf-16'], markdown: { parser: 'marked' } }, window: { workDoneProgress: true } });
    expect(got.rootUri).toMatch(/^file:/);
  });
});
