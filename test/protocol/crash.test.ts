/**
 * The prover crashing or hanging mid-request (or sending garbage): the editor gets an error reply for
 * every pending request, premise-lsp restarts the prover (replaying initialize,
 * initialized and the open documents with their current text), and the session
 * goes on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_LEAN, fixture, posOf, readTranscript, tempFile } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function setup(extra: string[] = [], env: Record<string, string> = {}) {
  const log = tempFile('lean.jsonl');
  const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log, ...env }, extra });
  editors.push(e);
  await e.initialize();
  const f = fixture('Demo.lean');
  const done = () => e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === f.uri && p.processing.length === 0);
  let ready = done();
  e.open(f.uri, f.text);
  await ready;
  // an edit before the crash: the restarted prover must see the current text
  ready = done();
  e.notify('textDocument/didChange', { textDocument: { uri: f.uri, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '-- edited\n' }] });
  await ready;
  return { e, uri: f.uri, text: '-- edited\n' + f.text, log, done };
}

describe('upstream failure', () => {
  it('answers the pending request with an error, restarts, re-opens documents, and keeps working', async () => {
    const { e, uri, text, log, done } = await setup();
    const reopened = done();
    const crash = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'trivial') });
    expect(crash.error?.code).toBe(-32803);
    expect(crash.error?.message).toMatch(/upstream server exited with code 3.*restarting.*textDocument\/hover/);
    await reopened; // the restarted prover elaborated the re-opened document

    const entries = readTranscript(log);
    const second = entries.findIndex((x, i) => i > 0 && x.dir === 'in' && x.msg.method === 'initialize');
    const replay = entries.slice(second).filter((x) => x.dir === 'in').map((x) => x.msg);
    expect(replay[0].method).toBe('initialize');
    expect(String(replay[0].id)).toMatch(/^premise:/);
    expect(replay[1].method).toBe('initialized');
    expect(replay.some((m) => m.id === 'register_lean_watcher' && m.result === null)).toBe(true);
    const open = replay.find((m) => m.method === 'textDocument/didOpen')!;
    expect(open.params.textDocument).toEqual({ uri, languageId: 'lean', version: 2, text });
    // the restarted prover's watcher registration was answered by premise-lsp, not re-sent to the editor
    expect(e.received.filter((m) => m.method === 'client/registerCapability')).toHaveLength(1);

    const hover = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'add_comm_demo', 2) });
    expect(hover.result.contents.value).toContain('add_comm_demo');
    const comp = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'rw [', 4), context: { triggerKind: 2, triggerCharacter: '[' } });
    expect(comp.result.items[0].data['premise-lsp']).toBe('Nat.add_comm');
    expect(await e.shutdown()).toBe(0);
  });

  it('treats a hang (silence while a request waits) like a crash', async () => {
    const { e, uri, text, done } = await setup(['--hang-timeout-ms', '300']);
    const f = text.replace('trivial -- CRASH', 'trivial -- HANG');
    let ready = done();
    e.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: f }] });
    await ready;
    ready = done();
    const hung = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(f, 'trivial') });
    expect(hung.error?.code).toBe(-32803);
    expect(hung.error?.message).toMatch(/hang/);
    await ready;
    const goal = await e.request('$/lean/plainGoal', { textDocument: { uri }, position: posOf(f, 'rw [Nat.add_comm]') });
    expect(goal.result.goals).toHaveLength(1);
  });
});

describe('a prover given up after a crash loop', () => {
  it('answers completion, code actions and hover with premises alone, and tells the user once', async () => {
    // the first prover runs; it crashes, and every restarted one dies at once
    const { e, uri, text } = await setup([], { FAKE_DIE_AFTER_FIRST: tempFile('started') });
    const gaveUp = e.notification('window/showMessage', (p) => /giving up after \d+ crashes/.test(p.message));
    const crash = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'trivial') });
    expect(crash.error?.code).toBe(-32803);
    const shown = (await gaveUp).params;
    expect(shown.type).toBe(1);
    expect(shown.message).toMatch(/language server log.*Premise features keep working/);

    // invoked completion (not our own trigger character): Lean would have been asked
    const comp = await e.request('textDocument/completion', { textDocument: { uri }, position: posOf(text, 'rw [', 4), context: { triggerKind: 1 } });
    expect(comp.error).toBeUndefined();
    expect(comp.result.items[0].data['premise-lsp']).toBe('Nat.add_comm');
    const resolved = await e.request('completionItem/resolve', comp.result.items[0]);
    expect(resolved.error).toBeUndefined();
    const at = posOf(text, 'rw [Nat.add_comm]');
    const actions = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [] } });
    expect(actions.error).toBeUndefined();
    expect(actions.result.map((a: { title: string }) => a.title)).toContain('Insert premise: rw [Nat.add_comm]');
    const hover = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'Nat.add_comm', 5) });
    expect(hover.error).toBeUndefined();
    expect(hover.result.contents.value).toContain('Addition of natural numbers is commutative.');
    // a prover feature fails with the reason, not as a method nobody provides
    const def = await e.request('textDocument/definition', { textDocument: { uri }, position: at });
    expect(def.error?.code).toBe(-32803);
    expect(def.error?.message).toMatch(/not running.*giving up/);
    const cmd = await e.request('workspace/executeCommand', { command: 'lean4.restartFile', arguments: [] });
    expect(cmd.error?.code).toBe(-32803);
    expect(cmd.error?.message).toMatch(/not running.*giving up/);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(1);
    expect(await e.shutdown()).toBe(0);
  });
});

describe('a prover hung at shutdown', () => {
  it('does not hold up the editor: premise-lsp answers shutdown for it, and exit is clean', async () => {
    // a hang watchdog far away: only the shutdown wait can answer
    const { e, uri, text, done } = await setup(['--hang-timeout-ms', '600000']);
    const f = text.replace('trivial -- CRASH', 'trivial -- HANG');
    const ready = done();
    e.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: f }] });
    await ready;
    const hung = e.request('textDocument/hover', { textDocument: { uri }, position: posOf(f, 'trivial') }).catch(() => undefined);
    const r = await e.request('shutdown');
    expect(r.error).toBeUndefined();
    expect(r.result).toBeNull();
    e.notify('exit');
    expect(await e.exited).toBe(0);
    await hung;
  });
});

describe('garbage from the prover', () => {
  it('passes on a registration whose `registrations` is not a list, and keeps serving', async () => {
    const log = tempFile('lean.jsonl');
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log, FAKE_BAD_REGISTRATION: '1' } });
    editors.push(e);
    const bad = e.waitFor((m) => m.id === 'bad_registration' && m.method === 'client/registerCapability');
    const watcher = e.waitFor((m) => m.id === 'register_lean_watcher');
    await e.initialize();
    expect((await bad).params.registrations).toBe('lean_watcher');
    await watcher;
    const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] });
    expect(r.result.results[0].name).toBe('Nat.add_comm');
    expect(await e.shutdown()).toBe(0);
  });
});

describe('upstream failure around initialize', () => {
  it('holds the editor\'s initialize across a crash and answers it from the restarted prover', async () => {
    const log = tempFile('lean.jsonl');
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log, FAKE_CRASH_ON_INIT_ONCE: tempFile('crashed') } });
    editors.push(e);
    const watcher = e.waitFor((m) => m.method === 'client/registerCapability');
    const init = await e.initialize();
    expect(init.result.serverInfo.name).toBe('Lean 4 Server');
    expect(init.result.capabilities.executeCommandProvider.commands).toContain('premise-lsp.search');
    await watcher; // `initialized` reached the restarted prover exactly once
    const initialized = readTranscript(log).filter((x) => x.dir === 'in' && x.msg.method === 'initialized');
    expect(initialized).toHaveLength(1);
  });

  it('falls back to standalone when the prover dies at every start, once it gives up restarting it', async () => {
    const e = Editor.proxy([process.execPath, '-e', 'process.exit(1)']);
    editors.push(e);
    const shown = e.notification('window/showMessage');
    const init = await e.initialize();
    expect(init.result.serverInfo.name).toBe('premise-lsp');
    expect((await shown).params.message).toMatch(/giving up after \d+ crashes.*Premise features keep working/);
    const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] });
    expect(r.result.results[0].name).toBe('Nat.add_comm');
    expect(await e.shutdown()).toBe(0);
  });

  it('falls back to standalone when the prover cannot be started, and tells the user once how to fix it', async () => {
    const e = Editor.proxy(['/nonexistent/lean-prover', '--server']);
    editors.push(e);
    const shown = e.notification('window/showMessage', () => true, true);
    const init = await e.initialize();
    expect(init.result.serverInfo.name).toBe('premise-lsp');
    expect((await shown).params.type).toBe(1);
    expect((await shown).params.message).toMatch(/could not start.*ENOENT.*Check that \/nonexistent\/lean-prover is installed and on PATH.*upstreamCommand.*Premise features keep working/);
    const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] });
    expect(r.result.results[0].name).toBe('Nat.add_comm');
    expect(await e.shutdown()).toBe(0);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(1);
  });
});
