/**
 * Hover and code actions wait for an index still loading for at most INTERACTIVE_WAIT_MS, then
 * answer with what the prover said: a first automatic index takes minutes, and the prover's own
 * hover must not be held that long (engine-host.ts). Checked by the order of events: the hover's
 * reply comes before the load's `$/progress` end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { INTERACTIVE_WAIT_MS } from '../../server/src/lsp/engine-host.js';
import { Editor, FAKE_LEAN, fixture, posOf } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

describe('an index still loading', () => {
  it("never holds the prover's hover or code actions past the bound; they carry premises once it is loaded", async () => {
    // the load takes far longer than the bound
    const e = Editor.proxy([process.execPath, FAKE_LEAN], { extra: ['--fake-engine-delay-ms', String(INTERACTIVE_WAIT_MS * 6)] });
    editors.push(e);
    const loaded = e.notification('$/progress', (p) => p.value?.kind === 'end');
    let isLoaded = false;
    void loaded.then(() => (isLoaded = true));
    await e.initialize();
    const f = fixture('Demo.lean');
    e.open(f.uri, f.text);
    const at = { textDocument: { uri: f.uri }, position: posOf(f.text, 'Nat.add_comm', 5) };
    const hover = await e.request('textDocument/hover', at);
    expect(isLoaded).toBe(false);
    expect(hover.result.contents.value).toContain('Nat.add_comm : Prop'); // the prover's own
    const actions = await e.request('textDocument/codeAction', { ...at, range: { start: at.position, end: at.position }, context: { diagnostics: [] } });
    expect(isLoaded).toBe(false);
    expect(Array.isArray(actions.result)).toBe(true);
    await loaded;
    // once loaded, the premise's statement is appended below the prover's hover
    const later = await e.request('textDocument/hover', at);
    expect(later.result.contents.value).toContain('Nat.add_comm : Prop');
    expect(later.result.contents.value).toContain('---');
  }, 30_000);
});
