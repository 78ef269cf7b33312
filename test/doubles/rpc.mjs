// Minimal LSP stdio plumbing for the test doubles: framing, send helpers, and a
// transcript (JSON lines, env FAKE_TRANSCRIPT) of every message in and out.
import { appendFileSync } from 'node:fs';

const transcript = process.env.FAKE_TRANSCRIPT;

export function record(entry) {
  if (transcript) appendFileSync(transcript, JSON.stringify(entry) + '\n');
}

export function send(msg) {
  record({ dir: 'out', msg });
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  process.stdout.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]));
}

export const reply = (id, result) => send({ jsonrpc: '2.0', id, result });
export const replyError = (id, code, message) => send({ jsonrpc: '2.0', id, error: { code, message } });
export const notify = (method, params) => send({ jsonrpc: '2.0', method, params });
export const request = (id, method, params) => send({ jsonrpc: '2.0', id, method, params });

/** Read framed messages from stdin; `handle(msg)` is called for each, in order. */
export function listen(handle) {
  record({ event: 'start', pid: process.pid });
  let buf = Buffer.alloc(0);
  process.stdin.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const m = /Content-Length:\s*(\d+)/i.exec(buf.subarray(0, end).toString('latin1'));
      if (!m) {
        process.stderr.write('double: bad header\n');
        process.exit(70);
      }
      const len = Number(m[1]);
      if (buf.length < end + 4 + len) return;
      const body = buf.subarray(end + 4, end + 4 + len).toString('utf8');
      buf = buf.subarray(end + 4 + len);
      const msg = JSON.parse(body);
      record({ dir: 'in', msg });
      handle(msg);
    }
  });
  // FAKE_IGNORE_TERM: a hung prover (a stuck `lake serve`, a JVM): stdin EOF and SIGTERM do not stop it, only SIGKILL
  if (process.env.FAKE_IGNORE_TERM) {
    process.on('SIGTERM', () => record({ event: 'sigterm ignored' }));
    setInterval(() => {}, 1 << 30);
    process.stdin.on('end', () => record({ event: 'stdin closed, ignored' }));
  } else process.stdin.on('end', () => process.exit(0));
}

/** Text documents with full and incremental sync (UTF-16 positions, like LSP). */
export class Docs {
  constructor() {
    this.map = new Map();
  }
  open(p) {
    this.map.set(p.textDocument.uri, { text: p.textDocument.text, version: p.textDocument.version });
    return this.map.get(p.textDocument.uri);
  }
  change(p) {
    const d = this.map.get(p.textDocument.uri);
    if (!d) return undefined;
    for (const c of p.contentChanges) {
      if (!isRange(c.range)) d.text = c.text; // Lean reads a missing or unreadable range as the whole text
      else d.text = d.text.slice(0, offsetAt(d.text, c.range.start)) + c.text + d.text.slice(offsetAt(d.text, c.range.end));
    }
    d.version = p.textDocument.version;
    return d;
  }
  close(p) {
    this.map.delete(p.textDocument.uri);
  }
  get(uri) {
    return this.map.get(uri);
  }
}

const isPos = (p) => Number.isInteger(p?.line) && p.line >= 0 && Number.isInteger(p?.character) && p.character >= 0;
const isRange = (r) => isPos(r?.start) && isPos(r?.end);

export function offsetAt(text, pos) {
  const lines = text.split('\n');
  let off = 0;
  for (let i = 0; i < pos.line && i < lines.length; i++) off += lines[i].length + 1;
  return Math.min(text.length, off + pos.character);
}

export function lineOf(text, line) {
  return text.split('\n')[line] ?? '';
}

/** The word (identifier) at a position. */
export function wordAt(text, pos) {
  const l = lineOf(text, pos.line);
  const isW = (c) => c !== undefined && /[\p{L}\p{N}_'.!?]/u.test(c);
  let s = pos.character;
  let e = pos.character;
  while (s > 0 && isW(l[s - 1])) s--;
  while (e < l.length && isW(l[e])) e++;
  return s < e ? { word: l.slice(s, e), start: s, end: e } : undefined;
}

/** Scan upward from `line` for an annotation `marker`, stopping at a declaration line. */
export function annotationAbove(text, line, marker, stopAt) {
  const lines = text.split('\n');
  for (let i = Math.min(line, lines.length - 1); i >= 0; i--) {
    const m = marker.exec(lines[i]);
    if (m) return m;
    if (i !== line && stopAt.test(lines[i])) return null;
  }
  return null;
}
