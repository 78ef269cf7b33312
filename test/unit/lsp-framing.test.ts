import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, type Frame } from '../../server/src/jsonrpc/framing.js';
import { classify } from '../../server/src/jsonrpc/messages.js';

function decode(chunks: Array<string | Buffer>, maxBytes?: number): Frame[] {
  const out: Frame[] = [];
  const d = new FrameDecoder((f) => out.push(f), { maxBytes });
  for (const c of chunks) d.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : c);
  return out;
}
const frame = (body: string, len = Buffer.byteLength(body)) => `Content-Length: ${len}\r\n\r\n${body}`;

describe('FrameDecoder', () => {
  it('keeps the exact body bytes, across arbitrary chunking', () => {
    const body = '{"jsonrpc":"2.0",  "id":1,"method":"x","params":{"t":"⊢ a ≤ b"}}';
    const all = Buffer.from(frame(body) + frame('{"jsonrpc":"2.0","method":"y"}'), 'utf8');
    const chunks = [...all].map((b) => Buffer.from([b])); // one byte at a time
    const out = decode(chunks);
    expect(out).toHaveLength(2);
    expect(out[0].kind === 'message' && out[0].raw.toString('utf8')).toBe(body);
  });

  it('reports invalid JSON and carries on with the next message', () => {
    const out = decode([frame('{nope'), frame('{"a":1}')]);
    expect(out.map((f) => f.kind)).toEqual(['error', 'message']);
  });

  it('recovers from a too-short and a too-long Content-Length', () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"x"}';
    const short = decode([frame(body, body.length - 5) + frame('{"b":2}')]);
    expect(short.map((f) => f.kind)).toEqual(['error', 'message']);
    const long = decode([frame(body, body.length + 30), frame('{"b":2}')]);
    expect(long.map((f) => (f.kind === 'message' ? f.value : f.kind))).toEqual([{ jsonrpc: '2.0', id: 1, method: 'x' }, { b: 2 }]);
  });

  it('resynchronises after a header without Content-Length or with a non-number', () => {
    const out = decode(['X-Foo: 1\r\n\r\n{"a":1}', 'Content-Length: abc\r\n\r\n{}', frame('{"ok":true}')]);
    expect(out.filter((f) => f.kind === 'error').length).toBeGreaterThanOrEqual(1);
    expect(out.at(-1)).toMatchObject({ kind: 'message', value: { ok: true } });
  });

  it('skips oversized bodies', () => {
    const big = '{"x":"' + 'a'.repeat(100) + '"}';
    const out = decode([frame(big), frame('{"ok":1}')], 50);
    expect(out.map((f) => f.kind)).toEqual(['error', 'message']);
  });

  it('stops skipping at the next header when an oversized Content-Length was a lie, even one split across chunks', () => {
    const lie = 'Content-Length: 99999999999\r\n\r\n{"a":1}';
    const next = frame('{"ok":1}') + frame('{"ok":2}');
    expect(decode([lie + next], 50).map((f) => (f.kind === 'message' ? f.value : f.kind))).toEqual(['error', { ok: 1 }, { ok: 2 }]);
    const cut = lie.length + 8; // inside "Content-Length" of the next header
    const split = decode([(lie + next).slice(0, cut), (lie + next).slice(cut)], 50);
    expect(split.map((f) => (f.kind === 'message' ? f.value : f.kind))).toEqual(['error', { ok: 1 }, { ok: 2 }]);
    // a real oversized body arriving in chunks is still skipped whole
    const big = '{"x":"' + 'a'.repeat(1000) + '"}';
    const whole = frame(big) + frame('{"ok":3}');
    const parts = [];
    for (let i = 0; i < whole.length; i += 37) parts.push(whole.slice(i, i + 37));
    expect(decode(parts, 50).map((f) => (f.kind === 'message' ? f.value : f.kind))).toEqual(['error', { ok: 3 }]);
  });

  it('takes header fields before Content-Length as part of the header', () => {
    const out = decode(['Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 7\r\n\r\n{"a":1}', frame('{"b":2}')]);
    expect(out.map((f) => (f.kind === 'message' ? f.value : f.kind))).toEqual([{ a: 1 }, { b: 2 }]);
    // a leftover body ending in a line is still garbage
    expect(decode(['{"x":1}\r\n' + frame('{"b":2}')]).map((f) => f.kind)).toEqual(['error', 'message']);
  });

  it('reports a long run of header-like junk once and finds the message after it', () => {
    const out = decode(['Content-Length:'.repeat(100_000) + ' 7\r\n\r\n{"a":1}', frame('{"b":2}')]);
    expect(out.filter((f) => f.kind === 'error').length).toBeLessThanOrEqual(2);
    expect(out.filter((f) => f.kind === 'message').map((f) => f.kind === 'message' && f.value)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('handles a large body arriving in many chunks', () => {
    const body = JSON.stringify({ text: 'x'.repeat(2_000_000) });
    const all = Buffer.from(frame(body));
    const chunks: Buffer[] = [];
    for (let i = 0; i < all.length; i += 65536) chunks.push(all.subarray(i, i + 65536));
    const out = decode(chunks);
    expect(out).toHaveLength(1);
    expect(out[0].kind === 'message' && out[0].raw.length).toBe(body.length);
  });

  it('encodes byte lengths, not character counts', () => {
    expect(encodeFrame('"⊢"').toString('latin1').startsWith('Content-Length: 5\r\n')).toBe(true);
  });
});

describe('classify', () => {
  const raw = Buffer.alloc(0);
  it('tells requests, notifications, responses and invalid messages apart', () => {
    expect(classify({ jsonrpc: '2.0', id: '', method: 'workspace/applyEdit' }, raw).kind).toBe('request');
    expect(classify({ jsonrpc: '2.0', method: 'exit' }, raw).kind).toBe('notification');
    expect(classify({ jsonrpc: '2.0', id: 'register_lean_watcher', result: null }, raw).kind).toBe('response');
    expect(classify({ jsonrpc: '2.0', id: 3 }, raw)).toMatchObject({ kind: 'invalid', id: 3 });
    expect(classify([1], raw)).toMatchObject({ kind: 'invalid', id: null });
    expect(classify({ id: {}, method: 'x' }, raw)).toMatchObject({ kind: 'invalid', id: null });
  });

  it('with requireVersion, refuses a message whose jsonrpc is not "2.0" (keeping its id)', () => {
    expect(classify({ jsonrpc: '1.0', id: 4, method: 'x' }, raw, { requireVersion: true })).toMatchObject({ kind: 'invalid', id: 4 });
    expect(classify({ method: 'exit' }, raw, { requireVersion: true })).toMatchObject({ kind: 'invalid', id: null });
    expect(classify({ jsonrpc: '2.0', method: 'exit' }, raw, { requireVersion: true }).kind).toBe('notification');
    expect(classify({ id: 4, result: null }, raw).kind).toBe('response'); // the prover's side stays lenient
  });
});
