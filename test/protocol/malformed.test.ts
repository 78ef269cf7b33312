/**
 * Bad input from the editor — invalid JSON, a missing method, non-objects, no
 * `"jsonrpc": "2.0"`, wrong or missing Content-Length, oversized messages (or a
 * lying oversized Content-Length) — gets a ParseError or InvalidRequest reply
 * where possible, never reaches the prover, and never kills the server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_LEAN, readTranscript, tempFile } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function stillAlive(e: Editor) {
  const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] });
  expect(r.result.results[0].name).toBe('Nat.add_comm');
}

const errorReply = (e: Editor, code: number) => e.waitFor((m) => m.error?.code === code && m.method === undefined);

for (const mode of ['standalone', 'proxy'] as const) {
  describe(`malformed JSON-RPC (${mode})`, () => {
    async function start() {
      const log = tempFile('lean.jsonl');
      const e = mode === 'proxy' ? Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log } }) : Editor.proxy([]);
      editors.push(e);
      await e.initialize();
      return { e, log };
    }

    it('replies ParseError to an invalid JSON body and keeps serving', async () => {
      const { e, log } = await start();
      const err = errorReply(e, -32700);
      e.writeRaw('{"jsonrpc": "2.0", "id": 7, "method": ');
      expect((await err).id).toBeNull();
      await stillAlive(e);
      if (mode === 'proxy') expect(readTranscript(log).every((x) => x.msg.id !== 7)).toBe(true);
    });

    it('replies InvalidRequest (with the id) to a message without a method, and to non-objects', async () => {
      const { e } = await start();
      let err = errorReply(e, -32600);
      e.writeRaw(JSON.stringify({ jsonrpc: '2.0', id: 99, params: {} }));
      expect((await err).id).toBe(99);
      err = errorReply(e, -32600);
      e.writeRaw('42');
      expect((await err).id).toBeNull();
      err = errorReply(e, -32600);
      e.writeRaw(JSON.stringify({ jsonrpc: '2.0', id: 100, method: 17 }));
      expect((await err).id).toBe(100);
      await stillAlive(e);
    });

    it('replies InvalidRequest to a message without "jsonrpc": "2.0", and does not pass it on', async () => {
      const { e, log } = await start();
      const search = { command: 'premise-lsp.search', arguments: ['n + m = m + n'] };
      let err = errorReply(e, -32600);
      e.writeRaw(JSON.stringify({ jsonrpc: '1.0', id: 'v1', method: 'workspace/executeCommand', params: search }));
      expect((await err).id).toBe('v1');
      err = errorReply(e, -32600);
      e.writeRaw(JSON.stringify({ id: 'v0', method: 'workspace/executeCommand', params: search }));
      expect((await err).error?.message).toMatch(/jsonrpc must be "2.0"/);
      err = errorReply(e, -32600);
      e.writeRaw(JSON.stringify({ jsonrpc: 2, method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///v.lean', languageId: 'lean', version: 1, text: '' } } }));
      expect((await err).id).toBeNull();
      await stillAlive(e);
      expect(e.received.filter((m) => m.id === 'v1' || m.id === 'v0').every((m) => m.error?.code === -32600)).toBe(true);
      if (mode === 'proxy') expect(readTranscript(log).some((x) => x.msg.id === 'v1' || x.msg.id === 'v0' || x.msg.method === 'textDocument/didOpen')).toBe(false);
    });

    it('survives a Content-Length that is too short, too long, missing or not a number', async () => {
      const { e } = await start();
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'short', method: 'shutdown-not' });
      const err = errorReply(e, -32700);
      e.writeRaw(body, `Content-Length: ${body.length - 10}\r\n\r\n`);
      await err;
      await stillAlive(e);
      // too long: the next message's header shows where this one really ended
      const long = JSON.stringify({ jsonrpc: '2.0', id: 'long', method: 'workspace/executeCommand', params: { command: 'premise-lsp.search', arguments: ['n * m = m * n'] } });
      const longReply = e.waitFor((m) => m.id === 'long');
      e.writeRaw(long, `Content-Length: ${long.length + 40}\r\n\r\n`);
      await stillAlive(e);
      expect((await longReply).result.results[0].name).toBe('Nat.mul_comm');
      const noLength = errorReply(e, -32700);
      e.writeRaw('{"jsonrpc":"2.0","id":5,"method":"x"}', 'Content-Type: application/json\r\n\r\n');
      await noLength;
      await stillAlive(e);
      const nan = errorReply(e, -32700);
      e.writeRaw('{}', 'Content-Length: lots\r\n\r\n');
      await nan;
      await stillAlive(e);
      // far above the size limit: skipped, but only up to the next header
      const huge = errorReply(e, -32700);
      e.writeRaw('{}', 'Content-Length: 99999999999\r\n\r\n');
      expect((await huge).error?.message).toMatch(/exceeds the limit/);
      await stillAlive(e);
    });

    it('rejects batches element by element and keeps unknown URIs harmless', async () => {
      const { e } = await start();
      const err = errorReply(e, -32600);
      e.writeRaw('[]');
      await err;
      const c = await e.request('textDocument/completion', { textDocument: { uri: 'file:///unknown.lean' }, position: { line: 0, character: 0 }, context: { triggerKind: 2, triggerCharacter: '[' } });
      expect(c.result.items).toEqual([]);
      const a = await e.request('textDocument/codeAction', { textDocument: { uri: 'file:///unknown.lean' }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } });
      expect(a.error ?? null).toBeNull();
      const s = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: 'x'.repeat(200_000) }] });
      expect(s.error).toBeUndefined();
      await stillAlive(e);
    });
  });
}
