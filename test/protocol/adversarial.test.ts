/**
 * Adversarial input on the proxy's paths that the other protocol tests leave
 * out: edits the proxy cannot read itself still reach the prover unchanged and
 * in order.
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
