/**
 * A prover that never answers `initialize` (a stuck `lake serve`): after the
 * bounded wait (`upstreamInitializeTimeoutMs`, `--initialize-timeout-ms`) the
 * editor gets premise-lsp's own initialize result and one message saying what
 * to check; premise features work, prover features fail with the reason.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { INITIALIZE_TOTAL_FACTOR } from '../../server/src/upstream/link.js';
import { Editor, FAKE_LEAN, FIXTURES, fixture, posOf, readTranscript, tempFile } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

describe('a prover that never answers initialize', () => {
  it('is waited for a bounded time: then premise-lsp answers initialize itself and tells the user once', async () => {
    const log = tempFile('lean.jsonl');
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log, FAKE_NEVER_INIT: '1' } });
    editors.push(e);
    const shown = e.notification('window/showMessage');
    const init = await e.request('initialize', {
      processId: null,
      rootUri: 'file://' + FIXTURES,
      capabilities: {},
      initializationOptions: { 'premise-lsp': { upstreamInitializeTimeoutMs: 300 } },
    });
    e.notify('initialized', {});
    expect(init.error).toBeUndefined();
    expect(init.result.serverInfo.name).toBe('premise-lsp');
    expect(init.result.capabilities.completionProvider).toBeDefined();
    expect(init.result.capabilities.executeCommandProvider.commands).toContain('premise-lsp.search');
    const msg = (await shown).params;
    expect(msg.type).toBe(1);
    expect(msg.message).toMatch(/did not answer initialize within 0\.3 s/);
    expect(msg.message).toContain('fake-lean.mjs');
    expect(msg.message).toMatch(/upstreamInitializeTimeoutMs/);
    expect(msg.message).toMatch(/Premise features keep working/);

    const f = fixture('Demo.lean');
    e.open(f.uri, f.text);
    const comp = await e.request('textDocument/completion', { textDocument: { uri: f.uri }, position: posOf(f.text, 'rw [', 4), context: { triggerKind: 1 } });
    expect(comp.error).toBeUndefined();
    expect(comp.result.items[0].data['premise-lsp']).toBe('Nat.add_comm');
    const def = await e.request('textDocument/definition', { textDocument: { uri: f.uri }, position: posOf(f.text, 'rw [') });
    expect(def.error).toBeDefined();
    expect(await e.shutdown()).toBe(0);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(1);
    // the prover got initialize once (not again after the wait) and was stopped
    const entries = readTranscript(log);
    expect(entries.filter((x) => x.dir === 'in' && x.msg.method === 'initialize')).toHaveLength(1);
    expect(entries.some((x) => x.dir === 'in' && x.msg.method === 'textDocument/didOpen')).toBe(false);
  });

  it('--initialize-timeout-ms sets the wait from the command line', async () => {
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_NEVER_INIT: '1' }, extra: ['--initialize-timeout-ms', '200'] });
    editors.push(e);
    const shown = e.notification('window/showMessage');
    const init = await e.initialize();
    expect(init.result.serverInfo.name).toBe('premise-lsp');
    expect((await shown).params.message).toMatch(/did not answer initialize within 0\.2 s/);
    expect(await e.shutdown()).toBe(0);
  });

  it('a prover that writes a stderr line now and then but never answers is bounded too: the total wait counts (issue 36 item 7)', async () => {
    // before: each line restarted the silence bound, so the editor waited for ever
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_NEVER_INIT: '1', FAKE_STDERR_EVERY_MS: '20' }, extra: ['--initialize-timeout-ms', '1000'] });
    editors.push(e);
    const shown = e.notification('window/showMessage');
    const init = await e.initialize();
    expect(init.result.serverInfo.name).toBe('premise-lsp');
    expect((await shown).params.message).toMatch(new RegExp(`did not answer initialize within ${(1000 * INITIALIZE_TOTAL_FACTOR) / 1000} s`));
    expect(await e.shutdown()).toBe(0);
  });

  it('a prover that answers within the wait is not affected', async () => {
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_INIT_DELAY_MS: '100' }, extra: ['--initialize-timeout-ms', '20000'] });
    editors.push(e);
    const init = await e.initialize();
    expect(init.result.serverInfo.name).toBe('Lean 4 Server');
    expect(await e.shutdown()).toBe(0);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(0);
  });
});
