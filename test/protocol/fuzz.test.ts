/**
 * Seeded random params on every method the server handles (valid requests with
 * leaves swapped for junk: wrong types, negative or huge positions, unknown URIs,
 * 70,000-character strings, lone surrogates), against the built server alone and
 * in front of fake Lean and fake Isabelle: every request gets exactly one reply, an error is one of
 * the protocol's codes (never an internal error), and the server keeps serving.
 * Fake Lean dies of some of the junk forwarded to it (exit code 1), so in front of
 * it this also drives the proxy through upstream crashes, restarts and giving up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_ISABELLE, FAKE_LEAN, fixture, posOf, tempFile } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

/** A small LCG: the same messages on every run. */
function random(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick };
}

const LEAVES: unknown[] = [null, true, false, 0, -1, 1.5, 2 ** 31, -(2 ** 53), '', 'x', '⊢ a = b', 'file:///nope.lean', 'x'.repeat(70_000), '\u0000\ud800', {}, []];
const POSITIONS = [{ line: -1, character: 1e9 }, { line: 1e12, character: -5 }, { line: '3', character: null }, { line: 0.5, character: 2.5 }];
const KEYS = ['textDocument', 'position', 'range', 'context', 'uri', 'query', 'k', 'slot', 'name', 'text', 'command', 'arguments', 'data', 'contentChanges', 'version', 'id', 'settings'];

/** Codes a bad request may get: invalid params or request, method not found, cancelled, content modified, upstream gone. */
const EXPECTED_CODES = new Set([-32602, -32600, -32601, -32800, -32801, -32802, -32803, -32001]);

const PROVERS = {
  standalone: { upstream: [] as string[], file: 'Demo.lean', lang: 'lean', slot: 'rw [', seed: 11 },
  lean: { upstream: [FAKE_LEAN], file: 'Demo.lean', lang: 'lean', slot: 'rw [', seed: 7 },
  isabelle: { upstream: [FAKE_ISABELLE], file: 'Demo.thy', lang: 'isabelle', slot: 'by simp', seed: 5 },
};

for (const [mode, prover] of Object.entries(PROVERS)) {
  describe(`random params (${mode})`, () => {
    it('get one reply each with a protocol error code, and the server keeps serving', async () => {
      const { next, pick } = random(prover.seed);
      const junk = (depth = 0): unknown => {
        const r = next();
        if (depth > 3 || r < 0.15) return pick(LEAVES);
        if (r < 0.3) return Array.from({ length: Math.floor(next() * 4) }, () => junk(depth + 1));
        if (r < 0.45) return pick(POSITIONS);
        return Object.fromEntries(KEYS.filter(() => next() < 0.25).map((k) => [k, junk(depth + 1)]));
      };
      const mutate = (v: unknown, depth = 0): unknown => {
        if (next() < 0.2) return junk(depth);
        if (Array.isArray(v)) return v.map((x) => mutate(x, depth + 1));
        if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(() => next() > 0.1).map(([k, x]) => [k, mutate(x, depth + 1)]));
        return v;
      };

      const upstream = prover.upstream.length ? [process.execPath, ...prover.upstream] : [];
      const e = Editor.proxy(upstream, { env: { FAKE_TRANSCRIPT: tempFile('prover.jsonl') } });
      editors.push(e);
      await e.initialize({ 'premise-lsp': { goalTimeoutMs: 300 } });
      const { uri, text } = fixture(prover.file);
      e.open(uri, text, prover.lang);
      const position = posOf(text, prover.slot, prover.slot.length);
      const range = { start: position, end: position };
      const requests: [string, unknown][] = [
        ['textDocument/completion', { textDocument: { uri }, position, context: { triggerKind: 1 } }],
        ['completionItem/resolve', { label: 'Nat.add_comm', data: { uri, position } }],
        ['textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [] } }],
        ['codeAction/resolve', { title: 'x', data: { uri, position, name: 'Nat.add_comm' } }],
        ['textDocument/hover', { textDocument: { uri }, position }],
        ['workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ uri, position, k: 3, slot: 'rw' }] }],
        ['workspace/executeCommand', { command: 'premise-lsp.search', arguments: ['n + m = m + n'] }],
        ['workspace/executeCommand', { command: 'premise-lsp.insert', arguments: [{ uri, position, name: 'Nat.add_comm' }] }],
        ['workspace/executeCommand', { command: 'premise-lsp.try', arguments: [{ textDocument: { uri }, position, premises: ['Nat.add_comm'], tactics: ['exact'] }] }],
      ];
      const notifications: [string, unknown][] = [
        ['textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range, text: 'x' }] }],
        ['textDocument/didOpen', { textDocument: { uri: uri + '2', languageId: prover.lang, version: 1, text: 'theorem t : 1 = 1 := by\n  rw [' } }],
        ['textDocument/didClose', { textDocument: { uri: uri + '2' } }],
        ['workspace/didChangeConfiguration', { settings: { premiseLsp: { k: 5 } } }],
        ['$/cancelRequest', { id: 1 }],
      ];
      const names = async () => {
        const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: 'n + m = m + n', k: 10 }] });
        return r.result.results.map((h: { name: string }) => h.name) as string[];
      };
      // an Isabelle session's text search answers Isabelle facts
      const [first] = await names();
      expect(first).toBe(mode === 'isabelle' ? 'Nat.add_0_right' : 'Nat.add_comm');
      const odd: string[] = [];
      for (let i = 0; i < 200; i++) {
        if (next() < 0.3) {
          const [method, params] = pick(notifications);
          e.notify(method, next() < 0.1 ? junk() : mutate(params));
          continue;
        }
        const [method, params] = pick(requests);
        const p = next() < 0.1 ? junk() : mutate(params);
        const reply = await e.request(method, p);
        if (reply.error && !EXPECTED_CODES.has(reply.error.code)) odd.push(`${method} ${JSON.stringify(p).slice(0, 200)} → ${reply.error.code} ${reply.error.message}`);
      }
      expect(odd).toEqual([]);
      // still answering from the index (the edits above may have changed it through the live index)
      expect(await names()).toContain(first);
      expect(e.proc.exitCode).toBeNull();
    }, 120_000);
  });
}
